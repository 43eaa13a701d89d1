import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { firstDifferingIndex, utf8ByteLength, utf8Decode, utf8Encode } from "../../../src/core/util/utf8";
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

describe("utf8Encode / utf8Decode", () => {
  it("encodes any string as Buffer (and TextEncoder) do, lone surrogates as U+FFFD", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => {
        const bytes = utf8Encode(text);
        expect(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).equals(Buffer.from(text, "utf8"))).toBe(true);
        expect(bytes.byteLength).toBe(utf8ByteLength(text));
      }),
    );
    expect(Array.from(utf8Encode("a\u00e9\u4e00\ud83d\ude00\udc00"))).toEqual([
      0x61, 0xc3, 0xa9, 0xe4, 0xb8, 0x80, 0xf0, 0x9f, 0x98, 0x80, 0xef, 0xbf, 0xbd,
    ]);
  });
  it("decodes what it encodes, and invalid bytes as U+FFFD", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (text) => {
        expect(utf8Decode(utf8Encode(text))).toBe(text);
      }),
    );
    expect(utf8Decode(new Uint8Array([0x61, 0xff, 0x62]))).toBe("a\ufffdb");
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
