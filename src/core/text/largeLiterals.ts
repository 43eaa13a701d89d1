// Parses one JSON line from its bytes, keeping every large string value as a stored text (its
// escaped bytes copied into the session's text store, or left in the store's source when the
// line's offset there is known) instead of a string: the line's string
// literals are found by jumping from quote to quote (`indexOf`, native), each value literal of
// at least LARGE_TEXT_BYTES is cut out, and the rest of the line is decoded and `JSON.parse`d with
// a placeholder where it was; the placeholders are then replaced by the references. The large
// texts are never decoded, so they never exist as strings (which is what keeps a session's memory
// near its file's size). Object keys stay strings whatever their length, and so do the values of
// properties a reader never keeps stored, when it names those it does (`StoredTextKeys`).
import { utf8Decode } from "../util/utf8";
import { measureLiteral, type LiteralFacts } from "./measureLiteral";
import { storeBytes, type StoredText, type TextStore } from "./storedText";

/** String values of at least this many escaped bytes are stored as bytes. */
export const LARGE_TEXT_BYTES = 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;

// A placeholder is a string no line can hold without showing it: a NUL (written \u0000 in JSON).
const PLACEHOLDER = "\u0000stored-text:";
const PLACEHOLDER_IN_JSON = JSON.stringify(PLACEHOLDER).slice(1, -1);
const NUL_ESCAPE = "\\u0000";

/** Index of the quote closing the literal opened at `open`, or -1 when the line ends first. */
function closingQuote(bytes: Uint8Array, open: number, end: number): number {
  let close = bytes.indexOf(QUOTE, open + 1);
  while (close !== -1 && close < end) {
    let backslashes = 0;
    while (bytes[close - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return close;
    close = bytes.indexOf(QUOTE, close + 1);
  }
  return -1;
}

/** Whether the literal closed at `close` is an object key (a colon follows, after blanks). */
function isKey(bytes: Uint8Array, close: number, end: number): boolean {
  for (let i = close + 1; i < end; i++) {
    const b = bytes[i]!;
    if (b === COLON) return true;
    if (b !== 0x20 && b !== 0x09 && b !== 0x0d && b !== 0x0a) return false;
  }
  return false;
}

/**
 * The property names whose large string values a reader may keep stored (its places), as bytes
 * (`storedTextKeys`). A large value under another name, or in an array, would be cut, measured,
 * stored and made a string again: with these given, it is parsed as a string with the rest of
 * its line instead.
 */
export type StoredTextKeys = readonly (readonly number[])[];

/** `StoredTextKeys` of plain ASCII names (no quote, no backslash). */
export function storedTextKeys(names: readonly string[]): StoredTextKeys {
  return names.map((name) => Array.from(name, (char) => char.charCodeAt(0)));
}

function isBlank(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0d || byte === 0x0a;
}

/**
 * Whether the literal opened at `open` is the value of a property named by one of `keys`: a colon
 * before it, and before that the name's literal. A quote not right after a backslash is a
 * literal's own (one inside a literal is escaped); a line that is not JSON is parsed whole anyway.
 */
function isValueOfKey(bytes: Uint8Array, open: number, start: number, keys: StoredTextKeys): boolean {
  let i = open - 1;
  while (i >= start && isBlank(bytes[i])) i--;
  if (i < start || bytes[i] !== COLON) return false; // an array's item
  i--;
  while (i >= start && isBlank(bytes[i])) i--;
  if (i < start || bytes[i] !== QUOTE) return false;
  for (const key of keys) {
    const keyOpen = i - key.length - 1;
    if (keyOpen < start || bytes[keyOpen] !== QUOTE || bytes[keyOpen - 1] === BACKSLASH) continue;
    let same = true;
    for (let k = 0; k < key.length && same; k++) same = bytes[keyOpen + 1 + k] === key[k];
    if (same) return true;
  }
  return false;
}

function resolve(value: unknown, texts: StoredText[]): unknown {
  if (typeof value === "string") {
    if (!value.startsWith(PLACEHOLDER)) return value;
    return texts[Number(value.slice(PLACEHOLDER.length))] ?? value;
  }
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = resolve(value[i], texts);
    return value;
  }
  const record = value as Record<string, unknown>;
  // Own keys without the list of them `Object.keys` would make; values only are replaced, so the
  // keys enumerated stay the same.
  for (const key in record) if (Object.prototype.hasOwnProperty.call(record, key)) record[key] = resolve(record[key], texts);
  return value;
}

/**
 * `JSON.parse` of the UTF-8 line `bytes[start, end)`, with each string value of at least
 * `LARGE_TEXT_BYTES` escaped bytes stored in `store` and replaced by its `StoredText`. Throws as
 * `JSON.parse` does on a line that is not JSON. A line that holds a NUL escape of its own (which
 * any placeholder-looking text needs) is parsed whole (no texts stored), so a placeholder can
 * never be mistaken for a text. `afterParse` (a depth cap) sees what `JSON.parse` returned, with
 * the placeholders still strings, before they are replaced. With `keys`, only the values of those
 * properties are stored.
 */
export function parseLineKeepingLargeTexts(
  bytes: Uint8Array,
  start: number,
  end: number,
  store: TextStore,
  afterParse: (parsed: unknown) => unknown = (parsed) => parsed,
  lineOffset?: number,
  keys?: StoredTextKeys,
): unknown {
  const whole = () => afterParse(JSON.parse(utf8Decode(bytes.subarray(start, end))) as unknown);
  const cuts: number[] = [];
  for (let position = start; ; ) {
    const open = bytes.indexOf(QUOTE, position);
    if (open === -1 || open >= end) break;
    const close = closingQuote(bytes, open, end);
    if (close === -1) return whole(); // not JSON: JSON.parse says where
    if (close - open - 1 >= LARGE_TEXT_BYTES && !isKey(bytes, close, end) && (keys === undefined || isValueOfKey(bytes, open, start, keys))) cuts.push(open, close);
    position = close + 1;
  }
  if (cuts.length === 0) return whole();
  let small = "";
  let copied = start;
  for (let i = 0; i < cuts.length; i += 2) {
    small += `${utf8Decode(bytes.subarray(copied, cuts[i]!))}"${PLACEHOLDER_IN_JSON}${i / 2}"`;
    copied = cuts[i + 1]! + 1;
    // The decoder drops a BOM at the start of what it decodes: one right after a cut literal
    // (which JSON.parse refuses there) must reach JSON.parse as it does in the whole line.
    if (bytes[copied] === 0xef && bytes[copied + 1] === 0xbb && bytes[copied + 2] === 0xbf && copied + 3 <= end) return whole();
  }
  small += utf8Decode(bytes.subarray(copied, end));
  // Only a \u0000 escape makes a NUL in a parsed string: every one must be a placeholder's, so
  // that no text of the line (however it escapes its characters) reads as a placeholder.
  if (countOccurrences(small, NUL_ESCAPE) !== cuts.length / 2) return whole();
  let parsed: unknown;
  try {
    parsed = afterParse(JSON.parse(small));
  } catch {
    return whole(); // JSON.parse's own message, about the line as it is
  }
  const facts: LiteralFacts[] = [];
  for (let i = 0; i < cuts.length; i += 2) {
    const measured = measureLiteral(bytes, cuts[i]! + 1, cuts[i + 1]! - cuts[i]! - 1);
    // A literal JSON.parse would refuse, or bytes that are not UTF-8: the line as before.
    if (measured === null) return whole();
    facts.push(measured);
  }
  const texts: StoredText[] = [];
  for (let i = 0; i < cuts.length; i += 2) {
    const from = cuts[i]! + 1;
    const place = storeBytes(store, bytes, from, cuts[i + 1]!, lineOffset === undefined ? undefined : lineOffset + from - start);
    texts.push({ kind: "stored-text", store: store.id, ...place, ...facts[i / 2]! });
  }
  return resolve(parsed, texts);
}

function countOccurrences(text: string, part: string): number {
  let count = 0;
  for (let at = text.indexOf(part); at !== -1; at = text.indexOf(part, at + part.length)) count++;
  return count;
}
