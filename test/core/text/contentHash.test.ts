// hashLiteral (src/core/text/contentHash.ts) reads the words of a literal from the buffer's
// aligned 32-bit words: it gives the lanes of the plain definition (the literal's bytes with its
// quotes, read as little-endian words, then the last bytes one by one, then the byte count) for
// every length and every offset in its buffer, in views that start inside their buffer or end
// at its end, where the word after the last cannot be read.
import { describe, expect, it } from "vitest";
import { CONTENT_FINISH_A, CONTENT_MIX_A, CONTENT_MIX_B, CONTENT_SEED_A, CONTENT_SEED_B, hashLiteral } from "../../../src/core/text/contentHash";

/** The definition, a byte at a time. */
function plainHash(bytes: Uint8Array, start: number, length: number): [number, number] {
  const stream = [0x22, ...bytes.subarray(start, start + length), 0x22];
  let laneA = CONTENT_SEED_A;
  let laneB = CONTENT_SEED_B;
  const whole = stream.length & ~3;
  for (let at = 0; at < whole; at += 4) {
    const word = stream[at]! | (stream[at + 1]! << 8) | (stream[at + 2]! << 16) | (stream[at + 3]! << 24);
    laneA = Math.imul(laneA ^ word, CONTENT_MIX_A);
    laneB = Math.imul(laneB ^ word, CONTENT_MIX_B);
  }
  for (let at = whole; at < stream.length; at++) {
    laneA = Math.imul(laneA ^ stream[at]!, CONTENT_MIX_A);
    laneB = Math.imul(laneB ^ stream[at]!, CONTENT_MIX_B);
  }
  return [Math.imul(laneA ^ stream.length, CONTENT_FINISH_A), laneB];
}

function filled(size: number, seed: number): Uint8Array {
  return new Uint8Array(size).map((_, i) => (i * 131 + seed * 29 + 7) & 255);
}

describe("hashLiteral", () => {
  it("gives the plain definition's lanes at every offset and length", () => {
    for (let size = 0; size <= 40; size++) {
      const bytes = filled(size, size);
      for (let start = 0; start <= size; start++) {
        for (let length = 0; start + length <= size; length++) expect(hashLiteral(bytes, start, length)).toEqual(plainHash(bytes, start, length));
      }
    }
  });

  it("reads views that start inside their buffer and end at its end", () => {
    for (let before = 0; before < 8; before++) {
      for (let length = 0; length < 70; length++) {
        const buffer = filled(before + length, length);
        const view = buffer.subarray(before);
        expect(hashLiteral(view, 0, length)).toEqual(plainHash(view, 0, length));
        // A view of a buffer whose byte length is not a multiple of four, the literal up to its end.
        const odd = new Uint8Array(buffer.buffer, 0, before + length);
        expect(hashLiteral(odd, before, length)).toEqual(plainHash(odd, before, length));
      }
    }
  });

  it("hashes a long literal as the definition does", () => {
    const bytes = filled(200_003, 3);
    for (const start of [0, 1, 2, 3]) expect(hashLiteral(bytes, start, 200_000)).toEqual(plainHash(bytes, start, 200_000));
  });
});
