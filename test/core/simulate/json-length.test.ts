// jsonLength gives JSON.stringify's length without building the text (the simulator's chars/4
// estimates of requests that can hold a 50 MB string): checked on arbitrary JSON-like values,
// strings with every escape, lone surrogates, and a large string measured twice.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonLength } from "../../../src/core/simulate/json-length";
import { commonPrefixLength } from "../../../src/core/simulate/prefix";
import { measureLiteral } from "../../../src/core/text/measureLiteral";
import { createTextStore, SOURCE_CHUNK, storeBytes, type StoredText } from "../../../src/core/text/storedText";
import { storeLiteralBytes } from "../../support/stored-texts";

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
    // Around the length up to which a string is scanned rather than written (and far past it).
    for (const length of [63, 64, 65, 66, 1000]) {
      for (const tail of ["", "\n", '"', "\ud800", "\udc00", "🙂", "\u0001"]) {
        const text = "a".repeat(length - tail.length) + tail;
        expect(jsonLength(text), JSON.stringify(text)).toBe(JSON.stringify(text).length);
      }
    }
    const large = `${"x\n".repeat(300_000)}"`;
    expect(jsonLength({ a: [large, large] })).toBe(JSON.stringify({ a: [large, large] }).length);
  });
});

describe("jsonLength of a stored text", () => {
  it("equals the length of the text's JSON, measured on reading or counted on its bytes wherever they start", () => {
    const encoder = new TextEncoder();
    const texts = ["", "a", "abc", "abcd", "abcde", "plain ascii text ".repeat(40), "é", "日本語のテキスト", "🙂 tóm tắt 🙂", "mixed 한국어 and ascii\n\t\"", "\u0001 control"];
    fc.assert(fc.property(fc.string({ unit: "grapheme", maxLength: 80 }), (text) => void texts.push(text)), { numRuns: 300, seed: 7 });
    for (const text of texts) {
      const literal = encoder.encode(JSON.stringify(text).slice(1, -1));
      // In a store's chunk (a text starts on a 32-bit word there) and in its source at every
      // offset in a word (a text read from the file starts anywhere).
      expect(jsonLength(storeLiteralBytes(createTextStore(), literal)), JSON.stringify(text)).toBe(JSON.stringify(text).length);
      for (let shift = 0; shift < 4; shift++) {
        const file = new Uint8Array(shift + literal.length);
        file.set(literal, shift);
        const store = createTextStore(1024, { read: (offset, length) => file.subarray(offset, offset + length) });
        const place = storeBytes(store, file, shift, file.length, shift);
        expect(place.chunk).toBe(SOURCE_CHUNK);
        const stored: StoredText = { kind: "stored-text", store: store.id, ...place, ...measureLiteral(file, shift, literal.length)! };
        expect(stored.jsonUnits, JSON.stringify(text)).toBeDefined();
        expect(jsonLength(stored), `${JSON.stringify(text)} at ${shift}`).toBe(JSON.stringify(text).length);
        expect(jsonLength({ output: stored })).toBe(JSON.stringify({ output: text }).length);
        // Without the length measured on reading (a text stored before it was): its bytes are counted.
        const { jsonUnits: _measured, ...unmeasured } = stored;
        expect(jsonLength(unmeasured), `${JSON.stringify(text)} at ${shift}, counted`).toBe(JSON.stringify(text).length);
      }
    }
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
