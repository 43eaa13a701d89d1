// What a stored text's consumers need to know about it, read once from its escaped bytes when it
// is stored, 32 bits at a time, without decoding it: its length in UTF-16 units (what `.length`
// of the decoded string gives: the chars/4 estimate), whether it is well-formed (no lone surrogate,
// which pi's serialiser would remove) and whether the bytes are exactly what JSON.stringify writes
// for it (so a serialiser or a hasher may use them as they are). A literal JSON.parse would refuse
// (a raw control character, an unknown escape) or that is not valid UTF-8 (which the decoder would
// read with U+FFFD in places, of other lengths) is not measured: the reader then parses its line
// as before, keeping the text a string. A text in JSON.stringify's rendering is also hashed here
// (contentHash.ts), so the prefix walk need not read its bytes again.

import { hashLiteral } from "./contentHash";

export interface LiteralFacts {
  /** UTF-16 length of the decoded text. */
  readonly units: number;
  /** No lone surrogate (written as a \uD800–\uDFFF escape not paired). */
  readonly wellFormed: boolean;
  /** The bytes are JSON.stringify's rendering of the text (no `\/`, no optional \u escape, lowercase hex). */
  readonly canonical: boolean;
  /**
   * The hash of the text's rendering (contentHash.ts), lanes A and B: present when the bytes are
   * JSON.stringify's rendering (`canonical`), the texts the prefix hash reads as bytes.
   */
  readonly contentA?: number;
  readonly contentB?: number;
  /**
   * The UTF-16 length of the text's rendering (`JSON.stringify` less its quotes), present with
   * `canonical`: a request's JSON length counts a text kept as bytes without reading them again.
   */
  readonly jsonUnits?: number;
}

const HEX = new Int8Array(128).fill(-1);
for (let digit = 0; digit < 16; digit++) {
  HEX["0123456789".charCodeAt(digit)] = digit;
  if (digit >= 10) {
    HEX["abcdef".charCodeAt(digit - 10)] = digit;
    HEX["ABCDEF".charCodeAt(digit - 10)] = digit;
  }
}

/** The value of the four hex digits at `at` (a `\u` escape's), or -1 when one is not a hex digit. */
export function hex4(bytes: Uint8Array, at: number): number {
  let value = 0;
  for (let i = 0; i < 4; i++) {
    const digit = HEX[bytes[at + i]! & 127]!;
    if (digit < 0 || bytes[at + i]! > 127) return -1;
    value = (value << 4) | digit;
  }
  return value;
}

function isLowercaseHex4(bytes: Uint8Array, at: number): boolean {
  for (let i = 0; i < 4; i++) {
    const b = bytes[at + i]!;
    if (b >= 0x41 && b <= 0x46) return false;
  }
  return true;
}

/**
 * Facts of the escaped literal `bytes[start, start + length)` (quotes excluded), or null when
 * JSON.parse would refuse it or it is not valid UTF-8 (RFC 3629: no overlong form, no encoded
 * surrogate, nothing above U+10FFFF). One pass, byte by byte, four at a time over plain ASCII.
 */
export function measureLiteral(bytes: Uint8Array, start: number, length: number): LiteralFacts | null {
  const end = start + length;
  // Words from the first byte on a 4-byte boundary of the buffer (a literal starts anywhere in its line).
  const wordStart = start + ((4 - ((bytes.byteOffset + start) & 3)) & 3);
  const words = end - wordStart >= 4 ? new Int32Array(bytes.buffer, bytes.byteOffset + wordStart, (end - wordStart) >> 2) : null;
  let units = 0;
  let wellFormed = true;
  let canonical = true;
  let pendingHigh = false; // the last escape was a high surrogate waiting for its low half
  let escapeUnits = 0; // what the escapes add to the rendering's UTF-16 length over the text's
  let i = start;
  while (i < end) {
    // Plain ASCII four bytes at a time, as many words in a row as there are: no high bit, no
    // control byte, no backslash.
    if (words !== null && i >= wordStart && ((i - wordStart) & 3) === 0) {
      const from = (i - wordStart) >> 2;
      let word = from;
      while (word < words.length) {
        const x = words[word]!;
        const slash = x ^ 0x5c5c5c5c;
        if (((x | ((x - 0x20202020) & ~x) | ((slash - 0x01010101) & ~slash)) & 0x80808080) !== 0) break;
        word++;
      }
      if (word > from) {
        if (pendingHigh) wellFormed = pendingHigh = false;
        units += (word - from) * 4;
        i = wordStart + word * 4;
        continue;
      }
    }
    const b = bytes[i]!;
    if (b < 0x80) {
      if (b < 0x20) return null; // a raw control character: JSON.parse refuses it
      if (b !== 0x5c) {
        if (pendingHigh) wellFormed = pendingHigh = false;
        units++;
        i++;
        continue;
      }
      const next = bytes[i + 1];
      if (next === 0x75) {
        if (i + 6 > end) return null;
        const code = hex4(bytes, i + 2);
        if (code < 0) return null;
        const isHigh = code >= 0xd800 && code <= 0xdbff;
        const isLow = code >= 0xdc00 && code <= 0xdfff;
        if (isLow && pendingHigh) {
          pendingHigh = false;
          canonical = false; // a pair JSON.stringify writes as the character itself
        } else {
          if (pendingHigh || isLow) wellFormed = false;
          pendingHigh = isHigh;
        }
        // JSON.stringify writes \u only for controls without a short form and lone surrogates.
        const shortForm = code === 8 || code === 9 || code === 10 || code === 12 || code === 13;
        if (!((code < 0x20 && !shortForm) || isHigh || isLow) || !isLowercaseHex4(bytes, i + 2)) canonical = false;
        units++;
        escapeUnits += 5;
        i += 6;
      } else if (next === 0x22 || next === 0x5c || next === 0x2f || next === 0x62 || next === 0x66 || next === 0x6e || next === 0x72 || next === 0x74) {
        if (i + 2 > end) return null; // the backslash escapes the closing quote
        if (pendingHigh) wellFormed = pendingHigh = false;
        if (next === 0x2f) canonical = false;
        units++;
        escapeUnits++;
        i += 2;
      } else return null; // an escape JSON does not know
      continue;
    }
    if (pendingHigh) wellFormed = pendingHigh = false;
    // A multi-byte character: its lead, then continuation bytes in the ranges RFC 3629 allows.
    if (b < 0xc2) return null;
    if (b < 0xe0) {
      if (i + 2 > end || (bytes[i + 1]! & 0xc0) !== 0x80) return null;
      units++;
      i += 2;
    } else if (b < 0xf0) {
      if (i + 3 > end) return null;
      const c1 = bytes[i + 1]!;
      if ((c1 & 0xc0) !== 0x80 || (bytes[i + 2]! & 0xc0) !== 0x80) return null;
      if ((b === 0xe0 && c1 < 0xa0) || (b === 0xed && c1 > 0x9f)) return null; // overlong; a surrogate
      units++;
      i += 3;
    } else if (b < 0xf5) {
      if (i + 4 > end) return null;
      const c1 = bytes[i + 1]!;
      if ((c1 & 0xc0) !== 0x80 || (bytes[i + 2]! & 0xc0) !== 0x80 || (bytes[i + 3]! & 0xc0) !== 0x80) return null;
      if ((b === 0xf0 && c1 < 0x90) || (b === 0xf4 && c1 > 0x8f)) return null; // overlong; above U+10FFFF
      units += 2; // a surrogate pair in UTF-16
      i += 4;
    } else return null;
  }
  if (pendingHigh) wellFormed = false;
  if (!canonical) return { units, wellFormed, canonical };
  const [contentA, contentB] = hashLiteral(bytes, start, length);
  return { units, wellFormed, canonical, contentA, contentB, jsonUnits: units + escapeUnits };
}
