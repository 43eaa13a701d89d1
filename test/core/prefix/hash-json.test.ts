// The streaming JSON hash equals hashing JSON.stringify's rendering (hash and UTF-8 bytes), and
// declines values only JSON.stringify renders faithfully.
import fc from "fast-check";
import { expect, it } from "vitest";
import { hashJsonRendering, hashStringAndUtf8Length } from "../../../src/core/prefix/hash";

function expectSameAsRendering(value: unknown) {
  const streamed = hashJsonRendering(value);
  expect(streamed).not.toBeNull();
  expect(streamed).toEqual(hashStringAndUtf8Length(JSON.stringify(value)));
}

it("equals the hash of JSON.stringify for arbitrary JSON-like values", () => {
  const leaf = fc.oneof(fc.string({ unit: "binary" }), fc.double(), fc.integer(), fc.boolean(), fc.constant(null), fc.constant(undefined));
  const value = fc.letrec((tie) => ({
    node: fc.oneof({ depthSize: "small" }, leaf, fc.array(tie("node")), fc.dictionary(fc.string({ unit: "binary" }), tie("node"))),
  })).node;
  fc.assert(fc.property(value.filter((v) => v !== undefined), expectSameAsRendering));
});

it("handles escapes, surrogate pairs, lone surrogates and special numbers", () => {
  expectSameAsRendering({ type: "text", text: 'a"b\\c\n\t\r\b\f\u0001\u001f é 中 😀 \ud800 x\udc00' });
  expectSameAsRendering([NaN, Infinity, -0, 1e21, 1.5e-7, undefined, () => 1]);
  expectSameAsRendering({ skip: undefined, f: () => 1, keep: [undefined], "k\"ey": 1 });
});

it("declines toJSON, class instances and bigint", () => {
  expect(hashJsonRendering({ when: new Date(0) })).toBeNull();
  expect(hashJsonRendering({ n: BigInt(1) })).toBeNull();
  expect(hashJsonRendering(undefined)).toBeNull();
});
