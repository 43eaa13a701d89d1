// Token view: the pieces join back to the text, their number is the o200k count, multi-byte
// characters split across tokens stay whole, and long texts are truncated.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { o200kCounter } from "../../../src/core/tokens/counters";
import { tokenPieces } from "../../../src/core/tokens/pieces";

describe("tokenPieces", () => {
  it("joins back to the text and counts like o200k", () => {
    const text = "Hello, world! 이 디렉터리의 파일을 확인하고 README를 요약해줘 ✓ 🎉🎉 {\"a\": 1}";
    const result = tokenPieces(text);
    expect(result.pieces.join("")).toBe(text);
    expect(result.tokenCount).toBe(o200kCounter.count(text));
    expect(result.pieces.length).toBeGreaterThan(5);
    expect(result.pieces.every((piece) => !piece.includes("\uFFFD"))).toBe(true);
  });

  it("keeps a U+FFFD that the text itself holds, next to a character split across tokens", () => {
    const text = "\uFFFD\u0C3D";
    expect(tokenPieces(text).pieces.join("")).toBe(text);
  });

  it("keeps characters whole when tokens straddle them (a hieroglyph, then a Telugu letter)", () => {
    // Found by the property below: the tokens of these two characters end inside a character
    // until the last one, over more tokens than a character has bytes.
    const text = "\u{13002}\u0C05";
    const result = tokenPieces(text);
    expect(result.pieces.join("")).toBe(text);
    expect(result.pieces.every((piece) => !piece.includes("\uFFFD"))).toBe(true);
  });

  it("joins back for arbitrary well-formed text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 60 }), (text) => tokenPieces(text).pieces.join("") === text),
      { numRuns: 200 },
    );
  });

  it("truncates to maxTokens", () => {
    const result = tokenPieces("word ".repeat(100), 10);
    expect(result.truncated).toBe(true);
    expect(result.pieces.length).toBe(10);
    expect(result.tokenCount).toBeGreaterThan(10);
  });
});
