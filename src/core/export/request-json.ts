// The request body as text: the single formatter behind both the Request view and the JSON
// export, so that what is exported is byte-for-byte what the view shows. A body may hold stored
// texts (large texts kept as bytes): each is written as the text it holds.
import { stringifyWithTexts } from "../text/text";

/** Two-space indented JSON, no trailing newline: exactly `JSON.stringify(body, null, 2)` of the body with its texts decoded. */
export function formatRequestJson(body: unknown): string {
  return stringifyWithTexts(body, 2);
}

/** The JSON export of a request (same text as the Request view). */
export function exportRequestJson(body: unknown): string {
  return formatRequestJson(body);
}
