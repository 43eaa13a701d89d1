// jsonLength gives JSON.stringify's length without building the text (the simulator's chars/4
// estimates of requests that can hold a 50 MB string): checked on arbitrary JSON-like values,
// strings with every escape, lone surrogates, and a large string measured twice.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonLength } from "../../../src/core/simulate/json-length";
import { commonPrefixLength } from "../../../src/core/simulate/prefix";

describe("jsonLength", () => {
  it("equals JSON.stringify's length on any value", () => {
    const valueArb = fc.anything({ withBoxedValues: false, withMap: false, withSet: false, withBigInt: false, withDate: true, withObjectString: true, withNullPrototype: true, withSparseArray: true, withTypedArray: false });
    fc.assert(
      fc.property(valueArb, (value) => {
        expect(jsonLength(value)).toBe(JSON.stringify(value)?.length);
      }),
      { numRuns: 2000, seed: 33 },
    );
    fc.assert(fc.property(fc.string({ unit: "binary" }), (text) => {
        expect(jsonLength(text)).toBe(JSON.stringify(text).length);
      }), { numRuns: 2000, seed: 33 });
  });

  it("escapes, lone surrogates and a large string", () => {
    for (const text of ['"\\\b\f\n\r\t\u0000\u001f\u007f', "\ud800", "a\udc00b", "🙂", "\ud83d\ude42\ud83d"]) expect(jsonLength(text)).toBe(JSON.stringify(text).length);
    const large = `${"x\n".repeat(300_000)}"`;
    expect(jsonLength({ a: [large, large] })).toBe(JSON.stringify({ a: [large, large] }).length);
  });
});

describe("commonPrefixLength", () => {
  it("finds the first difference inside and across blocks", () => {
    const base = "a".repeat(10_000);
    for (const at of [0, 1, 4095, 4096, 4097, 8191, 9999]) expect(commonPrefixLength(base, `${base.slice(0, at)}b${base.slice(at + 1)}`)).toBe(at);
    expect(commonPrefixLength(base, base)).toBe(10_000);
    expect(commonPrefixLength(base, base.slice(0, 5000))).toBe(5000);
  });
});
