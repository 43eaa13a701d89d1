// A small per-message sketch that tells the search which messages cannot hold a query, so a search
// over a 1 GB session reads only the few messages that might, instead of every character. The
// sketch is a one-hash Bloom filter of the message's ASCII trigrams, folded to lower case, with a
// bit per 4 characters of text (about 30 MB for 1 GB of distinct text).
//
// It never hides a match of the case-insensitive search (`queryMatcher`, flags "iu"): under that
// flag an ASCII letter matches its other case and exactly two other characters, U+017F (ſ, "s")
// and U+212A (Kelvin sign, "k"), which are folded here too; every other character only ever matches
// non-ASCII characters, so trigrams containing one are left out on both sides. A query without an
// all-ASCII trigram (short, or mostly non-ASCII) cannot be filtered: every message is a candidate.
// A text kept as bytes is sketched from its escaped bytes, never decoded.
import { hex4 } from "../text/measureLiteral";
import { storedTextBytes } from "../text/storedText";
import { textUnits, type Text } from "../text/text";

/**
 * Folded 7-bit code of every UTF-16 code unit, -1 where it is not (and cannot match) ASCII. A
 * table, because the sketch reads every character of the session's distinct text.
 */
const FOLD = (() => {
  const table = new Int8Array(65536).fill(-1);
  for (let code = 0; code < 128; code++) table[code] = code >= 65 && code <= 90 ? code + 32 : code;
  table[0x17f] = 115; // ſ matches "s"
  table[0x212a] = 107; // Kelvin sign matches "k"
  return table;
})();

function bitOf(trigram: number, shift: number): number {
  return Math.imul(trigram, 0x9e3779b1) >>> shift;
}

const MIN_BITS_LOG = 8;
const MAX_BITS_LOG = 24;

/** Bloom filter bits: the power of two nearest a quarter of the text length, at least 256. */
function bitsLogFor(chars: number): number {
  let log = MIN_BITS_LOG;
  while (log < MAX_BITS_LOG && 1 << (log + 2) < chars) log++;
  return log;
}

export interface TrigramSketch {
  bits: Int32Array;
  /** 32 − log2(bit count): a trigram's bit is its hash's top bits. */
  shift: number;
}

/** The sketch of a message's searchable texts (`visitMessageTexts`). */
export function buildSketch(texts: readonly Text[]): TrigramSketch {
  let chars = 0;
  for (const text of texts) chars += textUnits(text);
  const log = bitsLogFor(chars);
  const bits = new Int32Array(1 << (log - 5));
  const shift = 32 - log;
  for (const text of texts) {
    if (typeof text === "string") sketchString(text, bits, shift);
    else sketchLiteral(storedTextBytes(text), bits, shift);
  }
  return { bits, shift };
}

/**
 * Adds the trigrams of a string. `window` holds the last folded characters (7 bits each); `run`
 * how many of them are ASCII.
 */
function sketchString(text: string, bits: Int32Array, shift: number): void {
  let window = 0;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const folded = FOLD[text.charCodeAt(i)]!;
    if (folded < 0) {
      run = 0;
      continue;
    }
    window = ((window << 7) | folded) & 0x1fffff;
    if (++run >= 3) {
      const bit = bitOf(window, shift);
      bits[bit >>> 5]! |= 1 << (bit & 31);
    }
  }
}

/** Escaped characters of a JSON string literal: the code unit `\x` stands for, by byte `x`. */
const ESCAPED = new Int32Array(128).fill(-1);
for (const [letter, unit] of [["\"", 0x22], ["\\", 0x5c], ["/", 0x2f], ["b", 8], ["f", 12], ["n", 10], ["r", 13], ["t", 9]] as const) {
  ESCAPED[letter.charCodeAt(0)] = unit;
}

/**
 * Adds the trigrams of a stored text from its escaped bytes, exactly as `sketchString` over the
 * decoded text: each UTF-16 unit the bytes stand for is folded in turn. The bytes were checked
 * when they were stored (`measureLiteral`), so they are read without checking them again.
 */
function sketchLiteral(bytes: Uint8Array, bits: Int32Array, shift: number): void {
  let window = 0;
  let run = 0;
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    let unit: number;
    if (b < 0x80) {
      if (b !== 0x5c) {
        unit = b;
        i++;
      } else if (bytes[i + 1] === 0x75) {
        unit = hex4(bytes, i + 2);
        i += 6;
      } else {
        unit = ESCAPED[bytes[i + 1]!]!;
        i += 2;
      }
    } else if (b < 0xe0) {
      unit = ((b & 0x1f) << 6) | (bytes[i + 1]! & 0x3f);
      i += 2;
    } else if (b < 0xf0) {
      unit = ((b & 0x0f) << 12) | ((bytes[i + 1]! & 0x3f) << 6) | (bytes[i + 2]! & 0x3f);
      i += 3;
    } else {
      // Beyond U+FFFF: two surrogate units, neither of which folds to ASCII.
      unit = 0xd800;
      i += 4;
    }
    const folded = FOLD[unit]!;
    if (folded < 0) {
      run = 0;
      continue;
    }
    window = ((window << 7) | folded) & 0x1fffff;
    if (++run >= 3) {
      const bit = bitOf(window, shift);
      bits[bit >>> 5]! |= 1 << (bit & 31);
    }
  }
}

/** The query's folded ASCII trigrams (distinct); empty when none can be used. */
export function queryTrigrams(query: string): number[] {
  const out = new Set<number>();
  let window = 0;
  let run = 0;
  for (let i = 0; i < query.length; i++) {
    const folded = FOLD[query.charCodeAt(i)]!;
    if (folded < 0) {
      run = 0;
      continue;
    }
    window = ((window << 7) | folded) & 0x1fffff;
    if (++run >= 3) out.add(window);
  }
  return [...out];
}

/** False when the message cannot contain the query; true when it may (then match it). */
export function sketchMayContain(sketch: TrigramSketch, trigrams: readonly number[]): boolean {
  for (const trigram of trigrams) {
    const bit = bitOf(trigram, sketch.shift);
    if ((sketch.bits[bit >>> 5]! & (1 << (bit & 31))) === 0) return false;
  }
  return true;
}
