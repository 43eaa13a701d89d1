// The one-pass hash + UTF-8 length used on first sight of a segment agrees with the two separate functions.
import fc from "fast-check";
import { expect, it } from "vitest";
import { hashString, hashStringAndUtf8Length } from "../../../src/core/prefix/hash";
import { utf8ByteLength } from "../../../src/core/util/utf8";
it("hash + utf8 in one pass equals the separate functions", () => {
  fc.assert(fc.property(fc.string({ unit: "binary" }), (t) => {
    const r = hashStringAndUtf8Length(t);
    expect(r.hash).toBe(hashString(t));
    expect(r.bytes).toBe(utf8ByteLength(t));
  }));
});
