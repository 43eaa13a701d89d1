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
  const open: (Set<string> | null)[] = [];
  let line = firstLine;
  let expectKey = false;
  for (let at = start; at < end; at++) {
    const code = bytes[at]!;
    if (code === NEWLINE) line++;
    else if (code === QUOTE) {
      const quote = at;
      const keys = open[open.length - 1];
      if (!(expectKey && keys)) {
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
      const key = keyText(bytes, quote, at, end, escaped, ascii);
      if (keys.has(key)) {
        total++;
        if (found.length < limit) found.push({ key, line });
      } else keys.add(key);
      expectKey = false;
    } else if (code === 123) {
      open.push(new Set());
      expectKey = true;
    } else if (code === 91) {
      open.push(null);
      expectKey = false;
    } else if (code === 125 || code === 93) {
      open.pop();
      expectKey = false;
    } else if (code === 44) expectKey = open[open.length - 1] !== null && open.length > 0;
  }
  return { found, total };
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
