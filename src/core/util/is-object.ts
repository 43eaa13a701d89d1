// The one plain-object check of core: a non-null object that is not an array. Parsed session
// records, request bodies and share payloads are all narrowed with it before their fields are read.

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `value` when it passes `isObject`, otherwise null. */
export function asObject(value: unknown): Record<string, unknown> | null {
  return isObject(value) ? value : null;
}
