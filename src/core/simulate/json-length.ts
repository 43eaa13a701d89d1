// The length of JSON.stringify(value), without building the text. The simulator's estimates are
// chars/4 of a request's JSON (text-tokens.ts), asked for every summariser request and every turn
// it rebuilds; a 50 MB string inside them made each estimate copy 50 MB again. Here the tree is
// walked and each string's escaped length computed — once per content for large strings.
import { largeTextMemo } from "../util/large-text-memo";
import { decodeStoredText, isStoredText, storedTextBytes, type StoredText } from "../text/storedText";

/** Extra characters JSON.stringify writes for each character code below 0x80 (escapes). */
const ASCII_EXTRA = new Uint8Array(128);
for (let code = 0; code < 32; code++) ASCII_EXTRA[code] = 5; // \u00XX
for (const code of [8, 9, 10, 12, 13]) ASCII_EXTRA[code] = 1; // \b \t \n \f \r
ASCII_EXTRA[34] = 1; // \"
ASCII_EXTRA[92] = 1; // \\

/**
 * Up to this length a string's JSON is written and measured: the engine's own writer is about
 * twice as fast as the scan below, and the copy is short-lived; longer ones are scanned, not copied.
 */
const WRITTEN_UP_TO = 1 << 16;

/**
 * Up to this length a string is scanned all the same: for a key or a short value the copy costs
 * more than the scan (every message's keys are measured), and it leaves nothing to collect.
 */
const SCANNED_UP_TO = 64;

function quotedLength(text: string): number {
  if (text.length > SCANNED_UP_TO && text.length <= WRITTEN_UP_TO) return JSON.stringify(text).length;
  let length = text.length + 2;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 128) length += ASCII_EXTRA[code]!;
    else if (code >= 0xd800 && code <= 0xdfff) {
      // A lone surrogate is written as \uXXXX (well-formed JSON.stringify); a pair as itself.
      const pair = code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
      if (pair) i++;
      else length += 5;
    }
  }
  return length;
}

const largeStrings = largeTextMemo<number>();

function stringLength(text: string): number {
  return largeStrings.get(text, quotedLength);
}

/**
 * `stringLength` of a stored text. Canonical bytes are JSON.stringify's own rendering (quotes
 * left out), so the length is theirs in UTF-16 units, counted on the UTF-8 bytes without decoding
 * (one unit per byte that starts a character, two for a four-byte one); other bytes are decoded.
 */
function storedLength(text: StoredText): number {
  if (!text.canonical) return quotedLength(decodeStoredText(text));
  // Measured when it was read (a text kept in the file is not read from it again).
  if (text.jsonUnits !== undefined) return 2 + text.jsonUnits;
  return 2 + utf16Units(storedTextBytes(text));
}

/** UTF-16 units of one byte of UTF-8: 1 for a byte that starts a character, 2 for a four-byte one's, 0 for a continuation. */
function byteUnits(byte: number): number {
  return byte < 0x80 || byte >= 0xc0 ? (byte >= 0xf0 ? 2 : 1) : 0;
}

/**
 * The UTF-16 length of the text these UTF-8 bytes encode. Four ASCII bytes at a time (a session's
 * tool outputs are mostly ASCII): every text stored in a store's chunks starts on a 4-byte boundary.
 */
function utf16Units(bytes: Uint8Array): number {
  const length = bytes.length;
  let i = 0;
  let units = 0;
  const head = Math.min(length, (4 - (bytes.byteOffset & 3)) & 3);
  for (; i < head; i++) units += byteUnits(bytes[i]!);
  const count = (length - i) >> 2;
  if (count > 0) {
    const words = new Int32Array(bytes.buffer, bytes.byteOffset + i, count);
    for (let w = 0; w < count; w++) {
      const word = words[w]!;
      if ((word & 0x80808080) === 0) units += 4;
      else units += byteUnits(word & 0xff) + byteUnits((word >>> 8) & 0xff) + byteUnits((word >>> 16) & 0xff) + byteUnits(word >>> 24);
    }
    i += count * 4;
  }
  for (; i < length; i++) units += byteUnits(bytes[i]!);
  return units;
}

/** Length of JSON.stringify(value) (stored texts as the texts they hold), or undefined where JSON.stringify gives undefined. */
export function jsonLength(value: unknown): number | undefined {
  switch (typeof value) {
    case "string":
      return stringLength(value);
    case "number":
      return Number.isFinite(value) ? JSON.stringify(value).length : 4;
    case "boolean":
      return value ? 4 : 5;
    case "undefined":
    case "function":
    case "symbol":
      return undefined;
    case "bigint":
      return JSON.stringify(value).length; // throws, as JSON.stringify does
  }
  if (value === null) return 4;
  if (isStoredText(value)) return storedLength(value);
  // Boxed primitives are written as their value, as JSON.stringify does.
  if (value instanceof String || value instanceof Number || value instanceof Boolean) return jsonLength(value.valueOf());
  const object = value as { toJSON?: unknown };
  if (typeof object.toJSON === "function") return jsonLength((object.toJSON as (key: string) => unknown)(""));
  if (Array.isArray(value)) {
    let length = 2 + Math.max(0, value.length - 1);
    for (const item of value) length += jsonLength(item) ?? 4;
    return length;
  }
  let length = 2;
  let members = 0;
  // Own keys in Object.keys order, without the list of keys it would make.
  for (const key in value as object) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
    const item = jsonLength((value as Record<string, unknown>)[key]);
    if (item === undefined) continue;
    length += stringLength(key) + 1 + item;
    members++;
  }
  return length + Math.max(0, members - 1);
}
