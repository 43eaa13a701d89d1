// Long pre-tokenizer pieces (a run of one character with no whitespace) are merged in O(n log n)
// by src/core/tokens/long-pieces.ts instead of the library's quadratic merge. The tokens must be
// the library's on every text: checked with a low length limit (so that short texts reach the
// long-piece path) over generated texts rich in runs, for both tables, and on a 100,000-character
// run against gpt-tokenizer's counts of the periodic pattern.
import fc from "fast-check";
import { Tokenizer } from "ai-tokenizer";
import * as claudeEncoding from "ai-tokenizer/encoding/claude";
import o200kRanks from "gpt-tokenizer/bpeRanks/o200k_base";
import { O200K_TOKEN_SPLIT_REGEX } from "gpt-tokenizer/encodingParams/constants";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { mayHoldLongPiece, mergeBytePairs, withLongPieces } from "../../../src/core/tokens/long-pieces";
import { o200kEncodingData } from "../../../src/core/tokens/o200kTable";
import { o200kEncoding } from "../../../src/core/tokens/tables";

const o200kData = o200kEncodingData(o200kRanks, O200K_TOKEN_SPLIT_REGEX.source);
const tables = {
  o200k: { plain: new Tokenizer(o200kData), data: o200kData },
  claude: { plain: new Tokenizer({ ...claudeEncoding, special_tokens: {} }), data: claudeEncoding },
};

// Texts of runs: repeated characters and short words, whitespace and line breaks between them.
const runArb = fc
  .tuple(fc.constantFrom("[", "a", "é", " ", "\n", "!", "ab", "1", "{\"", "한", "🙂", "\t", "x y", "/", "Ab"), fc.integer({ min: 1, max: 80 }))
  .map(([unit, times]) => unit.repeat(times));
const textArb = fc.array(fc.oneof(runArb, fc.string({ maxLength: 12 })), { minLength: 1, maxLength: 8 }).map((parts) => parts.join(""));

describe("long pieces", () => {
  for (const [name, { plain, data }] of Object.entries(tables)) {
    it(`${name}: the same tokens as the library on every text, with pieces over 16 characters merged here, counted whole or piece by piece`, () => {
      const pieceTables = { pattern: data.pat_str, stringEncoder: data.stringEncoder, binaryEncoder: data.binaryEncoder };
      const fast = withLongPieces(plain, pieceTables, 16);
      const pieceByPiece = withLongPieces(plain, pieceTables, 16, 0);
      fc.assert(
        fc.property(textArb, (text) => {
          expect(fast.encode(text)).toEqual(plain.encode(text));
          expect(fast.count(text)).toBe(plain.count(text));
          expect(pieceByPiece.count(text)).toBe(plain.count(text));
        }),
        { numRuns: 400, seed: 33 },
      );
    });
  }

  it("a 100,000-character run counts as gpt-tokenizer counts it", () => {
    const encoding = o200kEncoding();
    // A run of spaces is not periodic (the last space goes with the next word); gpt-tokenizer
    // gives 784 for this one (measured: 18 s).
    expect(encoding.count(`x ${" ".repeat(100_000)} y`)).toBe(784);
    for (const unit of ["[", "a", "é", "!"]) {
      // The run's tokens repeat with a short period (a divisor of 1,600): 1,600 more characters
      // add the same tokens each time.
      const small = countTokens(`x ${unit.repeat(3200)} y`);
      const smaller = countTokens(`x ${unit.repeat(1600)} y`);
      expect(encoding.count(`x ${unit.repeat(96_000)} y`), unit).toBe(smaller + 59 * (small - smaller));
    }
  });

  it("a text is only split when it holds a long run", () => {
    expect(mayHoldLongPiece("word ".repeat(10_000))).toBe(false);
    expect(mayHoldLongPiece("[".repeat(300))).toBe(true);
    expect(mayHoldLongPiece(" ".repeat(300))).toBe(true);
  });

  it("tells whitespace from the rest as the pattern's \\s does, for every UTF-16 code unit, asked twice", () => {
    // "a" then the unit, repeated: runs of one when the unit is whitespace, one long run when not.
    for (let round = 0; round < 2; round++) {
      for (let code = 0; code < 0x10000; code++) {
        const unit = String.fromCharCode(code);
        const expected = !/\s/.test(unit);
        if (mayHoldLongPiece(`a${unit}`.repeat(4), 8) !== expected) expect(`U+${code.toString(16)}: ${!expected}`).toBe(`U+${code.toString(16)}: ${expected}`);
      }
    }
  });

  it("merges the lowest rank first, the leftmost of equal ranks", () => {
    // Ranks: "ab" 0, "bc" 0, "abc" 1: the leftmost pair wins the tie, then "c" stays alone.
    const bytes = new TextEncoder().encode("abc");
    const ranks = new Map([["a", 10], ["b", 11], ["c", 12], ["ab", 0], ["bc", 0], ["abc", 1]]);
    const rankOf = (b: Uint8Array, s: number, e: number) => ranks.get(new TextDecoder().decode(b.subarray(s, e))) ?? 0xffffffff;
    expect(mergeBytePairs(bytes, rankOf)).toEqual([1]);
    ranks.delete("abc");
    expect(mergeBytePairs(bytes, rankOf)).toEqual([0, 12]);
  });
});
