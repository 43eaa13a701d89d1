// A text of the session model: a JavaScript string, or a large text kept as bytes in the session's
// text store (`StoredText`). Stages that only carry a text (projection, conversion, serialisers)
// pass it on as it is, so a stored text stays a reference; stages that need its characters (a
// view, a search, a tokenizer, a pattern test) ask for them here, one text at a time.
import { decodeStoredText, isStoredText, type StoredText } from "./storedText";

export type Text = string | StoredText;

/** The text's characters (a stored text is decoded: a new string each call, keep it only as long as needed). */
export function textString(text: Text): string {
  return typeof text === "string" ? text : decodeStoredText(text);
}

/** UTF-16 length of the text (what `.length` of its string gives), without decoding a stored text. */
export function textUnits(text: Text): number {
  return typeof text === "string" ? text.length : text.units;
}

/** Whether a value is a text of the model: a string or a stored text. */
export function isText(value: unknown): value is Text {
  return typeof value === "string" || isStoredText(value);
}

/** A `JSON.stringify` replacer that renders a stored text as its characters. */
export function renderingStoredTexts(_key: string, value: unknown): unknown {
  return isStoredText(value) ? decodeStoredText(value) : value;
}

/** `JSON.stringify` of a value that may hold stored texts: each renders as the text it holds. */
export function stringifyWithTexts(value: unknown, space?: number): string {
  return JSON.stringify(value, renderingStoredTexts, space) ?? "null";
}

/**
 * A deep copy of a value with every stored text replaced by its string (for output leaving the
 * core). Byte arrays (a text store's chunks) are kept as they are.
 */
export function withTextsDecoded<T>(value: T): T {
  if (isStoredText(value)) return decodeStoredText(value) as T;
  if (typeof value !== "object" || value === null || ArrayBuffer.isView(value)) return value;
  if (Array.isArray(value)) return value.map((item: unknown) => withTextsDecoded(item)) as T;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[key] = withTextsDecoded(item);
  return copy as T;
}
