// Whether two parsed JSON values render the same canonical JSON (util/canonical-json.ts: keys in
// any order), without rendering them: a reader that meets a line written again compares it with
// the first copy this way. A text kept as bytes is not read back when the reader's own
// measurements settle it: different lengths differ, and two texts whose bytes are JSON.stringify's
// rendering are the same when their lengths and their rendering's hash (both lanes, taken when
// they were read) are — the same hash the prefix walk compares contents by. Otherwise both are decoded.
import { decodeStoredText, isStoredText, type StoredText } from "./storedText";
import { textString, textUnits, type Text } from "./text";

function sameStoredTexts(a: StoredText, b: StoredText): boolean {
  if (a.store === b.store && a.chunk === b.chunk && a.start === b.start && a.byteLength === b.byteLength) return true;
  if (a.units !== b.units) return false;
  if (a.canonical && b.canonical && a.contentA !== undefined && b.contentA !== undefined) {
    return a.byteLength === b.byteLength && a.contentA === b.contentA && a.contentB === b.contentB;
  }
  return decodeStoredText(a) === decodeStoredText(b);
}

function sameTexts(a: Text, b: Text): boolean {
  if (typeof a === "string" && typeof b === "string") return a === b;
  if (isStoredText(a) && isStoredText(b)) return sameStoredTexts(a, b);
  return textUnits(a) === textUnits(b) && textString(a) === textString(b);
}

/** Keys whose values canonical JSON renders (a parsed value has no undefined or function values, but a built one may). */
function renderedKeys(record: Record<string, unknown>): string[] {
  return Object.keys(record).filter((key) => {
    const value = record[key];
    return value !== undefined && typeof value !== "function" && typeof value !== "symbol";
  });
}

export function sameJsonValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const aText = typeof a === "string" || isStoredText(a);
  const bText = typeof b === "string" || isStoredText(b);
  if (aText || bText) return aText && bText && sameTexts(a as Text, b as Text);
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameArrayItem(a[i], b[i])) return false;
    return true;
  }
  const aRecord = a as Record<string, unknown>;
  const bRecord = b as Record<string, unknown>;
  const keys = renderedKeys(aRecord);
  if (keys.length !== renderedKeys(bRecord).length) return false;
  for (const key of keys) {
    if (!Object.prototype.hasOwnProperty.call(bRecord, key) || !sameJsonValue(aRecord[key], bRecord[key])) return false;
  }
  return true;
}

/** In an array, a value canonical JSON cannot render is written `null`. */
function sameArrayItem(a: unknown, b: unknown): boolean {
  const renders = (value: unknown) => value !== undefined && typeof value !== "function" && typeof value !== "symbol";
  return sameJsonValue(renders(a) ? a : null, renders(b) ? b : null);
}
