import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../../src/core/util/canonical-json";
import { sha256Hex } from "../../../src/core/util/sha256";
import { utf8Encode } from "../../../src/core/util/utf8";

describe("sha256Hex", () => {
  it("matches the FIPS 180-4 test vectors", () => {
    expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")).toBe(
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
    );
  });

  it("hashes UTF-8 bytes like Node's crypto, across block boundaries and non-ASCII text", () => {
    for (const text of ["이 디렉터리의 파일", "a".repeat(55), "a".repeat(56), "a".repeat(64), "🤖 emoji ✓", "x".repeat(1000)]) {
      expect(sha256Hex(text)).toBe(createHash("sha256").update(text, "utf8").digest("hex"));
    }
  });

  it("matches Node's crypto for any string (lone surrogates as U+FFFD) and for a multi-megabyte text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => {
        expect(sha256Hex(text)).toBe(createHash("sha256").update(text, "utf8").digest("hex"));
      }),
    );
    const large = "tool output ✓ 🤖\n".repeat(200_000);
    expect(sha256Hex(large)).toBe(createHash("sha256").update(large, "utf8").digest("hex"));
  });

  it("encodes a lone surrogate as U+FFFD", () => {
    expect(Array.from(utf8Encode("\ud800"))).toEqual([0xef, 0xbf, 0xbd]);
  });
});

describe("messageHash input", () => {
  it("hashes the canonical JSON of a message as Node's crypto does", () => {
    const text = canonicalJson({ role: "user", content: [{ type: "text", text: "é", a: 1 }] });
    expect(sha256Hex(text)).toBe(createHash("sha256").update(text, "utf8").digest("hex"));
  });
});
