// The streaming JSON hash counts exactly the UTF-8 bytes of JSON.stringify's rendering, equals the
// hash of that rendering for values made of short strings, tells apart values whose renderings
// differ (long strings are hashed over their UTF-8 bytes, with escapes and lone surrogates), and
// declines values only JSON.stringify renders faithfully.
import fc from "fast-check";
import { expect, it } from "vitest";
import { hashJsonRendering, hashStringAndUtf8Length } from "../../../src/core/prefix/hash";
import { CHUNK_UNITS } from "../../../src/core/util/utf8-chunks";

const utf8Length = (text: string) => new TextEncoder().encode(text).length;

function renderedBytes(value: unknown): number {
  // JSON.stringify writes lone surrogates as \uXXXX, so its rendering is ASCII there.
  return utf8Length(JSON.stringify(value));
}

const leafString = fc.oneof(fc.string({ unit: "binary" }), fc.string({ unit: "binary", minLength: 64, maxLength: 400 }));
const jsonValue = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: "small" }, leafString, fc.double(), fc.integer(), fc.boolean(), fc.constant(null), fc.constant(undefined), fc.array(tie("node")), fc.dictionary(fc.string({ unit: "binary" }), tie("node"))),
})).node;

it("counts the UTF-8 bytes of JSON.stringify's rendering for arbitrary JSON-like values", () => {
  fc.assert(
    fc.property(jsonValue.filter((v) => v !== undefined), (value) => {
      expect(hashJsonRendering(value)?.bytes).toBe(renderedBytes(value));
    }),
  );
});

it("equals the hash of the rendering when every string is short", () => {
  const short = fc.letrec((tie) => ({
    node: fc.oneof({ depthSize: "small" }, fc.string({ unit: "binary", maxLength: 63 }), fc.double(), fc.integer(), fc.constant(null), fc.array(tie("node")), fc.dictionary(fc.string({ unit: "binary", maxLength: 63 }), tie("node"))),
  })).node;
  fc.assert(
    fc.property(short, (value) => {
      expect(hashJsonRendering(value)).toEqual(hashStringAndUtf8Length(JSON.stringify(value)));
    }),
  );
});

it("gives equal values equal hashes and different long strings different ones", () => {
  fc.assert(
    fc.property(fc.string({ unit: "binary", minLength: 64, maxLength: 3000 }), fc.nat(), fc.integer({ min: 1, max: 0xffff }), (text, at, unit) => {
      const index = at % text.length;
      const copy = JSON.parse(JSON.stringify({ role: "tool", content: text })) as unknown;
      expect(hashJsonRendering(copy)).toEqual(hashJsonRendering({ role: "tool", content: text }));
      const changed = text.slice(0, index) + String.fromCharCode(unit) + text.slice(index + 1);
      if (JSON.stringify(changed) !== JSON.stringify(text)) expect(hashJsonRendering([changed])!.hash).not.toBe(hashJsonRendering([text])!.hash);
    }),
  );
});

it("handles escapes, surrogate pairs, lone surrogates, U+FFFD and special numbers in long and short strings", () => {
  const tricky = 'a"b\\c\n\t\r\b\f\u0001\u001f é 中 😀 \ud800 x\udc00 \ufffd';
  for (const text of [tricky, tricky.repeat(10), "x".repeat(63) + "\ud800", "\ufffd".repeat(70), "😀".repeat(CHUNK_UNITS), "a" + "😀".repeat(CHUNK_UNITS)]) {
    const value = { type: "text", text };
    expect(hashJsonRendering(value)!.bytes).toBe(renderedBytes(value));
  }
  // A lone surrogate and the U+FFFD it encodes to render differently, so they hash differently.
  const lone = "y".repeat(80) + "\ud800";
  const replaced = "y".repeat(80) + "\ufffd";
  expect(hashJsonRendering(lone)!.hash).not.toBe(hashJsonRendering(replaced)!.hash);
  // A string read in chunks hashes the same as itself every time, and unlike a shifted copy.
  const long = "한국어 노트 ✓ \"q\" ".repeat(CHUNK_UNITS / 4);
  expect(hashJsonRendering(long)).toEqual(hashJsonRendering(long.split("").join("")));
  expect(hashJsonRendering(long)!.hash).not.toBe(hashJsonRendering(` ${long.slice(1)}`)!.hash);
  const numbers = [NaN, Infinity, -0, 1e21, 1.5e-7, undefined, () => 1];
  expect(hashJsonRendering(numbers)).toEqual(hashStringAndUtf8Length(JSON.stringify(numbers)));
  expect(hashJsonRendering({ skip: undefined, f: () => 1, keep: [undefined], "k\"ey": 1 })).toEqual(hashStringAndUtf8Length('{"keep":[null],"k\\"ey":1}'));
});

it("declines toJSON, class instances and bigint", () => {
  expect(hashJsonRendering({ when: new Date(0) })).toBeNull();
  expect(hashJsonRendering({ n: BigInt(1) })).toBeNull();
  expect(hashJsonRendering(undefined)).toBeNull();
});
