import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../../../src/core/agents/claude-code/canonical-json";
import { sha256Hex, utf8Encode } from "../../../../src/core/agents/claude-code/sha256";

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

  it("encodes a lone surrogate as U+FFFD", () => {
    expect(Array.from(utf8Encode("\ud800"))).toEqual([0xef, 0xbf, 0xbd]);
  });
});

describe("canonicalJson", () => {
  it("sorts keys at every depth, keeps array order and non-ASCII text", () => {
    expect(canonicalJson({ role: "user", content: [{ type: "text", text: "é", a: 1 }] })).toBe(
      '{"content":[{"a":1,"text":"é","type":"text"}],"role":"user"}',
    );
  });
});
