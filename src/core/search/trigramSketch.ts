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

/** The sketch of a message's searchable strings (`visitMessageStrings`). */
export function buildSketch(strings: readonly string[]): TrigramSketch {
  let chars = 0;
  for (const text of strings) chars += text.length;
  const log = bitsLogFor(chars);
  const bits = new Int32Array(1 << (log - 5));
  const shift = 32 - log;
  for (const text of strings) {
    // `window` holds the last folded characters (7 bits each); `run` how many of them are ASCII.
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
  return { bits, shift };
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
