import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { firstDifferingIndex, utf8ByteLength } from "../../../src/core/util/utf8";
import { charsPerFourCounter, counterForApi, o200kCounter } from "../../../src/core/tokens/counters";

describe("utf8ByteLength", () => {
  it("equals Buffer.byteLength for any string", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => {
        expect(utf8ByteLength(text)).toBe(Buffer.byteLength(text, "utf8"));
      }),
    );
  });
  it("counts a range", () => {
    expect(utf8ByteLength("a한😀b", 1, 4)).toBe(3 + 4);
  });
});

describe("firstDifferingIndex", () => {
  it("finds the first differing code unit, never inside a surrogate pair", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), fc.string({ unit: "binary" }), fc.string({ unit: "binary" }), (common, a, b) => {
        const index = firstDifferingIndex(common + a, common + b);
        expect(index).toBeGreaterThanOrEqual(common.length - 1);
        expect((common + a).slice(0, index)).toBe((common + b).slice(0, index));
      }),
    );
    expect(firstDifferingIndex("x".repeat(10000) + "a", "x".repeat(10000) + "b")).toBe(10000);
    expect(firstDifferingIndex("ab😀", "ab😃")).toBe(2);
  });
});

describe("token counters", () => {
  it("uses exact o200k for OpenAI shapes and labelled estimates otherwise (TK-1, TK-3)", () => {
    expect(counterForApi("openai-completions")).toBe(o200kCounter);
    expect(counterForApi("openai-responses").exact).toBe(true);
    expect(counterForApi("anthropic-messages").exact).toBe(false);
    expect(counterForApi("google-generative-ai").label).toMatch(/estimate/);
    expect(counterForApi("openai-completions", { tokenizer: "estimate" })).toBe(charsPerFourCounter);
    expect(o200kCounter.count("hello world")).toBe(2);
    expect(charsPerFourCounter.count("hello")).toBe(2);
    expect(counterForApi("anthropic-messages", { claudeFactor: 2 }).count("hello world")).toBe(4);
  });
});
