// Keys written twice in one JSON object. JSON.parse keeps the last value of a repeated key and
// drops the others without a word, so a file whose `messages` list is written twice reads as the
// second list alone. One pass over the bytes, tracking strings and the keys of each open object;
// the text is assumed to parse (call it after JSON.parse succeeded). `duplicateKeysInBytes` does the
// same on a line's UTF-8 bytes, so a reader that parsed the bytes need not decode the whole line
// (its large texts included) only to look for repeated keys.
import { utf8Decode, utf8Encode } from "./utf8";

export interface DuplicateKey {
  key: string;
  /** 1-based line of the repeated key (counted from `firstLine`). */
  line: number;
}

const QUOTE = 34;
const BACKSLASH = 92;
const NEWLINE = 10;

/** The first `limit` repeated keys of `text`, and how many there are in all. */
export function duplicateKeys(text: string, limit = 5, firstLine = 1): { found: DuplicateKey[]; total: number } {
  // The same scan as a line's bytes get: the text's UTF-8 bytes hold the same structure (see
  // duplicateKeysInBytes), and the keys decode back to the text's own.
  const bytes = utf8Encode(text);
  return duplicateKeysInBytes(bytes, 0, bytes.length, limit, firstLine);
}

/**
 * `duplicateKeys(utf8Decode(bytes.subarray(start, end)), limit, firstLine)` without decoding the
 * range: every byte JSON's structure reads (quotes, backslashes, brackets, commas, newlines) is
 * ASCII, and UTF-8 never uses an ASCII byte inside a longer character, so the same bytes are
 * found; only the keys are decoded. A string that is not a key is skipped by searching for its
 * closing quote (the engine's byte search) instead of testing each of its bytes; a JSON string
 * holds no raw newline, so none is counted inside one.
 */
export function duplicateKeysInBytes(bytes: Uint8Array, start: number, end: number, limit = 5, firstLine = 1): { found: DuplicateKey[]; total: number } {
  const found: DuplicateKey[] = [];
  let total = 0;
  // The open objects' keys, one object's after the other's: where each open object's keys start
  // in `keys` (-1 for an array); a closed object's keys go. A key is kept as its quotes' places
  // and, unless it is ASCII without a backslash (compared by its bytes, a string never made for
  // it), its text: most keys of a line are such, and making a string and a set per object for
  // them cost more than the scan.
  const firsts: number[] = [];
  const keys: KeyPlace[] = [];
  let line = firstLine;
  let expectKey = false;
  for (let at = start; at < end; at++) {
    const code = bytes[at]!;
    if (code === NEWLINE) line++;
    else if (code === QUOTE) {
      const quote = at;
      const first = firsts.length > 0 ? firsts[firsts.length - 1]! : -1;
      if (!(expectKey && first >= 0)) {
        at = closingQuote(bytes, at + 1, end);
        continue;
      }
      let escaped = false;
      let ascii = true;
      for (at++; at < end && bytes[at] !== QUOTE; at++) {
        const byte = bytes[at]!;
        if (byte === BACKSLASH) {
          at++;
          escaped = true;
        } else if (byte === NEWLINE) line++;
        else if (byte >= 0x80) ascii = false;
      }
      // A backslash just before `end` steps past it, as the text's scan steps past its length.
      if (at > end) at = end;
      const place: KeyPlace = { quote, close: at, text: ascii && !escaped ? null : keyText(bytes, quote, at, end, escaped, ascii) };
      if (keys.length - first >= SET_FROM_KEYS) {
        // An object of many keys: its keys' texts in a set, not each new key compared with all.
        const last = keys[keys.length - 1]!;
        const set = last.set ?? new Set(keys.slice(first).map((key) => textOf(bytes, key, end)));
        const key = textOf(bytes, place, end);
        if (set.has(key)) {
          total++;
          if (found.length < limit) found.push({ key, line });
        } else set.add(key);
        // The set goes with the object's last key, where the next key looks for it.
        if (set !== last.set) last.set = set;
        expectKey = false;
        continue;
      }
      let repeated = false;
      for (let k = first; k < keys.length && !repeated; k++) repeated = sameKey(bytes, keys[k]!, place, end);
      if (repeated) {
        total++;
        if (found.length < limit) found.push({ key: textOf(bytes, place, end), line });
      } else keys.push(place);
      expectKey = false;
    } else if (code === 123) {
      firsts.push(keys.length);
      expectKey = true;
    } else if (code === 91) {
      firsts.push(-1);
      expectKey = false;
    } else if (code === 125 || code === 93) {
      const first = firsts.pop();
      if (first !== undefined && first >= 0) keys.length = first;
      expectKey = false;
    } else if (code === 44) expectKey = firsts.length > 0 && firsts[firsts.length - 1]! >= 0;
  }
  return { found, total };
}

/** One key of an open object: its quotes' places (`close` = the range's end when unclosed) and its text, null while it is ASCII with no backslash. */
interface KeyPlace {
  quote: number;
  close: number;
  text: string | null;
  /** The texts of the object's keys, once it has many (kept with its last key). */
  set?: Set<string>;
}

/** Keys an object holds before they are looked up in a set rather than compared one by one. */
const SET_FROM_KEYS = 16;

function textOf(bytes: Uint8Array, key: KeyPlace, end: number): string {
  return key.text ?? keyText(bytes, key.quote, key.close, end, false, true);
}

/** Whether two keys read as the same text: by their bytes when both are ASCII with no backslash (then the bytes are the text). */
function sameKey(bytes: Uint8Array, a: KeyPlace, b: KeyPlace, end: number): boolean {
  if (a.text === null && b.text === null) {
    const length = a.close - a.quote;
    if (length !== b.close - b.quote) return false;
    for (let i = 1; i < length; i++) if (bytes[a.quote + i] !== bytes[b.quote + i]) return false;
    return true;
  }
  return textOf(bytes, a, end) === textOf(bytes, b, end);
}

/** The index of the quote that closes a string whose text starts at `from` (`end` when unclosed). */
function closingQuote(bytes: Uint8Array, from: number, end: number): number {
  let at = from;
  for (;;) {
    const quote = bytes.indexOf(QUOTE, at);
    if (quote === -1 || quote >= end) return end;
    // Escaped when an odd number of backslashes stands right before it.
    let slashes = 0;
    while (quote - slashes - 1 >= from && bytes[quote - slashes - 1] === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return quote;
    at = quote + 1;
  }
}

/** A key's text from its bytes (`quote` and `close` are its quotes, `close` = `end` when unclosed), as the decoded line would give it. */
function keyText(bytes: Uint8Array, quote: number, close: number, end: number, escaped: boolean, ascii: boolean): string {
  if (ascii && !escaped) {
    let key = "";
    for (let at = quote + 1; at < close; at++) key += String.fromCharCode(bytes[at]!);
    return key;
  }
  // Decoded with its opening quote so that a leading byte-order mark is kept as the line's decoding keeps it.
  const closed = close < end;
  const quoted = utf8Decode(bytes.subarray(quote, closed ? close + 1 : end));
  const text = quoted.slice(1, closed ? -1 : undefined);
  if (!escaped) return text;
  try {
    return JSON.parse(quoted) as string;
  } catch {
    return text;
  }
}

/** A reader warning's words for the repeated keys of one text, or null when there are none. */
export function duplicateKeysReason(duplicates: { found: DuplicateKey[]; total: number }): string | null {
  if (duplicates.total === 0) return null;
  const listed = duplicates.found.map(({ key, line }) => `${JSON.stringify(key)} (line ${line})`).join(", ");
  const more = duplicates.total > duplicates.found.length ? ` and ${duplicates.total - duplicates.found.length} more` : "";
  return `a key written twice in one object: ${listed}${more}; JSON keeps the last value of each, so the earlier values are not read`;
}
