// The request body as text: the single formatter behind both the Request view and the JSON
// export, so that what is exported is byte-for-byte what the view shows.

/** Two-space indented JSON, no trailing newline: exactly `JSON.stringify(body, null, 2)`. */
export function formatRequestJson(body: unknown): string {
  return JSON.stringify(body, null, 2);
}

/** The JSON export of a request (same text as the Request view). */
export function exportRequestJson(body: unknown): string {
  return formatRequestJson(body);
}
