// Byte-pair encoding of very long pre-tokenizer pieces in O(n log n). ai-tokenizer merges a piece
// by scanning every pair for the lowest rank and splicing arrays after each merge: quadratic in
// the piece's length. Ordinary pieces are words (a few bytes), but a run of one character with no
// whitespace — 100,000 `[` in a tool's output, a long hex string — is one piece, and counting it
// took seconds (a 100,000-character run: 9–18 s). Here a piece longer than LONG_PIECE_CHARS is
// merged with a heap and a linked list instead: the same rule (the pair of lowest rank first, the
// leftmost of equal ranks), so the same tokens; every other piece still goes through the library.
// A text is only split into pieces here when it holds a long run of non-whitespace or whitespace
// characters (every longer piece needs one), so ordinary texts keep the library's single call.
import { largeTextMemo } from "../util/large-text-memo";
import { utf8Encode } from "../util/utf8";

/** Pieces longer than this (in UTF-16 units) are merged here rather than by the library. */
const LONG_PIECE_CHARS = 512;

/** Texts at least this long are counted here piece by piece (see countPieces). */
const PIECE_BY_PIECE_CHARS = 65_536;

/** Distinct merged pieces whose counts are kept (the cache is emptied when full). */
const PIECE_CACHE_SIZE = 100_000;

const NO_RANK = 0xffffffff;

/** What a tokenizer table gives for the long-piece path. */
export interface PieceTables {
  /** The pre-tokenizer pattern (the library's `pat_str`). */
  pattern: string;
  /** Rank of each token that is valid UTF-8, by its text. */
  stringEncoder: Readonly<Record<string, number>>;
  /** Rank of each other token, by its bytes. */
  binaryEncoder: readonly (readonly [Uint8Array, number])[];
}

/** The library calls that stay as they are: tokens of a text with no long piece. */
export interface PlainEncoder {
  encode(text: string): number[];
  count(text: string): number;
  decode(tokens: number[]): string;
}

/**
 * What the engine's `\s` says of each UTF-16 code unit beyond ASCII, asked once per unit: 0 not
 * asked yet, 1 whitespace, 2 not. Asking the regular expression for every character made a
 * one-character string each time (tens of megabytes per counting worker on a large session).
 */
const spaceAnswers = new Uint8Array(0x10000);
const WHITESPACE = /\s/;

/** Is `code` a character the pattern's `\s` matches? (What separates pieces.) */
function isSpace(code: number): boolean {
  if (code === 32 || (code >= 9 && code <= 13)) return true;
  if (code < 128) return false;
  let answer = spaceAnswers[code]!;
  if (answer === 0) {
    answer = WHITESPACE.test(String.fromCharCode(code)) ? 1 : 2;
    spaceAnswers[code] = answer;
  }
  return answer === 1;
}

/**
 * True when `text` holds a run of more than `limit / 2 - 1` characters all whitespace or all not:
 * every piece of the pattern is at most one leading character, a run of non-whitespace and a run
 * of line breaks, so a text without such a run has no piece longer than `limit`.
 */
export function mayHoldLongPiece(text: string, limit = LONG_PIECE_CHARS): boolean {
  const longest = Math.floor(limit / 2) - 1;
  if (text.length <= longest) return false;
  let run = 0;
  let space = false;
  for (let i = 0; i < text.length; i++) {
    const s = isSpace(text.charCodeAt(i));
    run = s === space ? run + 1 : 1;
    space = s;
    if (run > longest) return true;
  }
  return false;
}

/** A min-heap of numbers (rank × 2^27 + byte position: lowest rank, then leftmost). */
class NumberHeap {
  private items: number[] = [];
  get size(): number {
    return this.items.length;
  }
  push(value: number): void {
    const items = this.items;
    let at = items.length;
    items.push(value);
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (items[parent]! <= value) break;
      items[at] = items[parent]!;
      at = parent;
    }
    items[at] = value;
  }
  pop(): number {
    const items = this.items;
    const top = items[0]!;
    const last = items.pop()!;
    if (items.length > 0) {
      let at = 0;
      for (;;) {
        const left = 2 * at + 1;
        if (left >= items.length) break;
        const right = left + 1;
        const child = right < items.length && items[right]! < items[left]! ? right : left;
        if (items[child]! >= last) break;
        items[at] = items[child]!;
        at = child;
      }
      items[at] = last;
    }
    return top;
  }
}

/** 2^27: byte positions below it (a piece up to 128 MB); ranks times it stay exact doubles. */
const POSITION_SPAN = 134_217_728;

/**
 * The ranks of `bytes` merged as byte-pair encoding does: repeatedly the adjacent pair whose
 * joined bytes have the lowest rank (the leftmost among equal ranks) becomes one part, until no
 * pair has a rank. Parts with no rank are left out, as the library does.
 */
export function mergeBytePairs(bytes: Uint8Array, rankOf: (bytes: Uint8Array, start: number, end: number) => number): number[] {
  const n = bytes.length;
  if (n === 0) return [];
  // Parts are named by their first byte; next[i] is the next part's first byte (n at the end).
  const next = new Int32Array(n);
  const prev = new Int32Array(n);
  const pairRank = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    next[i] = i + 1;
    prev[i] = i - 1;
  }
  const heap = new NumberHeap();
  const rankFrom = (start: number): number => {
    const middle = next[start]!;
    if (middle >= n) return NO_RANK;
    return rankOf(bytes, start, next[middle]!);
  };
  for (let i = 0; i < n - 1; i++) {
    pairRank[i] = rankFrom(i);
    if (pairRank[i] !== NO_RANK) heap.push(pairRank[i]! * POSITION_SPAN + i);
  }
  pairRank[n - 1] = NO_RANK;
  const alive = new Uint8Array(n).fill(1);
  while (heap.size > 0) {
    const top = heap.pop();
    const start = top % POSITION_SPAN;
    const rank = (top - start) / POSITION_SPAN;
    // A stale entry: the part was merged into its left neighbour, or its pair changed since.
    if (alive[start] === 0 || pairRank[start] !== rank) continue;
    const merged = next[start]!;
    alive[merged] = 0;
    next[start] = next[merged]!;
    if (next[start]! < n) prev[next[start]!] = start;
    pairRank[start] = rankFrom(start);
    if (pairRank[start] !== NO_RANK) heap.push(pairRank[start]! * POSITION_SPAN + start);
    const left = prev[start]!;
    if (left >= 0) {
      pairRank[left] = rankFrom(left);
      if (pairRank[left] !== NO_RANK) heap.push(pairRank[left]! * POSITION_SPAN + left);
    }
  }
  const tokens: number[] = [];
  for (let start = 0; start < n; start = next[start]!) {
    const rank = rankOf(bytes, start, next[start]!);
    if (rank !== NO_RANK) tokens.push(rank);
  }
  return tokens;
}

/** Rank lookup of byte slices, keyed by the bytes as a latin-1 string; built on first use. */
function byteRankLookup(tables: PieceTables): (bytes: Uint8Array, start: number, end: number) => number {
  const ranks = new Map<string, number>();
  let longest = 0;
  const add = (bytes: Uint8Array, rank: number) => {
    let key = "";
    for (let i = 0; i < bytes.length; i++) key += String.fromCharCode(bytes[i]!);
    ranks.set(key, rank);
    longest = Math.max(longest, bytes.length);
  };
  for (const text in tables.stringEncoder) add(utf8Encode(text), tables.stringEncoder[text]!);
  for (const [bytes, rank] of tables.binaryEncoder) add(bytes, rank);
  return (bytes, start, end) => {
    if (end - start > longest) return NO_RANK;
    let key = "";
    for (let i = start; i < end; i++) key += String.fromCharCode(bytes[i]!);
    return ranks.get(key) ?? NO_RANK;
  };
}

/**
 * `plain` with long pieces merged in O(n log n): the same tokens and counts as `plain` on every
 * text, without the quadratic time on a long run; long texts are counted piece by piece. `limit`
 * and `pieceByPieceChars` are the constants above but for tests.
 */
export function withLongPieces(plain: PlainEncoder, tables: PieceTables, limit = LONG_PIECE_CHARS, pieceByPieceChars = PIECE_BY_PIECE_CHARS): PlainEncoder {
  let rankOf: ((bytes: Uint8Array, start: number, end: number) => number) | null = null;
  const pattern = new RegExp(tables.pattern, "gu");
  const longPiece = (piece: string): number[] => {
    rankOf ??= byteRankLookup(tables);
    return mergeBytePairs(utf8Encode(piece), rankOf);
  };
  /**
   * Calls `plainPart` on the stretches between long pieces and `long` on each long piece. A
   * stretch is cut after its last piece holding more than whitespace: a whitespace piece's end
   * depends on the character after it (`\s+(?!\S)`), so the whitespace pieces just before a long
   * piece are passed one by one, each the piece it was in the whole text.
   */
  const walk = (text: string, plainPart: (text: string) => void, long: (piece: string) => void): void => {
    pattern.lastIndex = 0;
    let from = 0;
    let solidEnd = 0;
    let trailingSpaces: string[] = [];
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      const piece = match[0];
      if (piece.length === 0) {
        pattern.lastIndex++;
        continue;
      }
      if (piece.length <= limit) {
        if (/\S/.test(piece)) {
          solidEnd = match.index + piece.length;
          trailingSpaces = [];
        } else trailingSpaces.push(piece);
        continue;
      }
      if (solidEnd > from) plainPart(text.slice(from, solidEnd));
      for (const space of trailingSpaces) plainPart(space);
      long(piece);
      from = solidEnd = match.index + piece.length;
      trailingSpaces = [];
    }
    if (from < text.length) plainPart(text.slice(from));
  };
  // Tokens of each piece the library had to merge (the direct lookups need no cache).
  const pieceCounts = new Map<string, number>();
  /**
   * Tokens of a long text, piece by piece: the library's count builds the array of every token
   * (16 million numbers for 50 MB) only to take its length.
   */
  const countPieces = (text: string): number => {
    pattern.lastIndex = 0;
    let total = 0;
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      const piece = match[0];
      if (piece.length === 0) {
        pattern.lastIndex++;
        continue;
      }
      if (tables.stringEncoder[piece] !== undefined && Object.hasOwn(tables.stringEncoder, piece)) total += 1;
      else if (piece.length > limit) total += longPiece(piece).length;
      else {
        let count = pieceCounts.get(piece);
        if (count === undefined) {
          count = plain.count(piece);
          if (pieceCounts.size >= PIECE_CACHE_SIZE) pieceCounts.clear();
          pieceCounts.set(piece, count);
        }
        total += count;
      }
    }
    return total;
  };
  // A large text carried by every turn is counted once (its content is the key).
  const largeCounts = largeTextMemo<number>();
  return {
    decode: (tokens) => plain.decode(tokens),
    count(text) {
      if (text.length >= pieceByPieceChars) return largeCounts.get(text, countPieces);
      if (!mayHoldLongPiece(text, limit)) return plain.count(text);
      let total = 0;
      walk(
        text,
        (part) => (total += plain.count(part)),
        (piece) => (total += longPiece(piece).length),
      );
      return total;
    },
    encode(text) {
      if (!mayHoldLongPiece(text, limit)) return plain.encode(text);
      const tokens: number[] = [];
      const append = (more: number[]) => {
        for (const token of more) tokens.push(token);
      };
      walk(
        text,
        (part) => append(plain.encode(part)),
        (piece) => append(longPiece(piece)),
      );
      return tokens;
    },
  };
}
