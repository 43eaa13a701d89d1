// FNV-1a 32: the three forms of the one hash (UTF-16 units, UTF-8 bytes, 8 hex digits).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fnv1a32, fnv1a32Utf8, fnv1aHex } from "../../../src/core/util/fnv1a";

function referenceOverBytes(bytes: Uint8Array): number {
  let h = 0x811c9dc5;
  for (const byte of bytes) h = Math.imul(h ^ byte, 0x01000193) >>> 0;
  return h;
}

describe("fnv1a", () => {
  it("writes fnv1a32 as 8 lowercase hex digits", () => {
    expect(fnv1aHex("")).toBe("811c9dc5");
    expect(fnv1aHex("a")).toBe("e40c292c");
    expect(fnv1aHex("foobar")).toBe("bf9cf968");
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => {
        expect(fnv1aHex(text)).toMatch(/^[0-9a-f]{8}$/);
        expect(Number.parseInt(fnv1aHex(text), 16)).toBe(fnv1a32(text));
      }),
    );
  });

  it("hashes the UTF-8 bytes of any string in the utf8 form", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => {
        expect(fnv1a32Utf8(text)).toBe(referenceOverBytes(Buffer.from(text, "utf8")));
      }),
    );
  });
});
