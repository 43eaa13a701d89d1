// The decompression cap: a small link that inflates far past the cap (a "zip bomb") is rejected
// soon after the cap is passed, without inflating (or allocating) the whole thing.
import { deflateSync } from "fflate";
import { describe, expect, it } from "vitest";
import { DEFAULT_MAX_SHARE_BYTES, decodeShareLink, encodeBase64Url, encodeShareFragment } from "../../../src/core/share";
import { INFLATE_SLICE_BYTES, inflateCapped } from "../../../src/core/share/inflate-capped";
import { samplePayload } from "./helpers";

const MiB = 1024 * 1024;

describe("decompression cap", () => {
  it("rejects a 200 MiB bomb under the default 32 MiB cap, stopping near the cap", () => {
    const bomb = deflateSync(new Uint8Array(200 * MiB), { level: 9 });
    expect(bomb.length).toBeLessThan(300 * 1024); // small link, huge payload
    const result = decodeShareLink(`#v1=${encodeBase64Url(bomb)}`);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("too-large");
    expect(result.error.message).toMatch(/more data than Contextscope accepts/);
    // Stopped within one input slice of the cap: at most ~1032 × slice bytes past it.
    expect(result.error.inflatedBytes).toBeGreaterThan(DEFAULT_MAX_SHARE_BYTES);
    expect(result.error.inflatedBytes).toBeLessThan(DEFAULT_MAX_SHARE_BYTES + 1100 * INFLATE_SLICE_BYTES + 64 * 1024);
  });

  it("honours a configurable cap", () => {
    const payload = samplePayload();
    payload.session.lines = Array.from({ length: 2000 }, (_, i) => `{"type":"message","id":"e${i}","text":"${"x".repeat(100)}"}`);
    const fragment = encodeShareFragment(payload);
    expect(decodeShareLink(fragment).ok).toBe(true);
    const capped = decodeShareLink(fragment, { maxBytes: 64 * 1024 });
    expect(capped.ok).toBe(false);
    if (!capped.ok) {
      expect(capped.error.code).toBe("too-large");
      expect(capped.error.inflatedBytes).toBeLessThan(64 * 1024 + 1100 * INFLATE_SLICE_BYTES + 64 * 1024);
    }
  });

  it("refuses over-long data before decoding it at all", () => {
    const result = decodeShareLink(`#v1=${"A".repeat(200_000)}`, { maxBytes: 1024 });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe("too-large");
      expect(result.error.inflatedBytes).toBeUndefined();
    }
  });

  it("the encoder refuses payloads above the cap", () => {
    const payload = samplePayload();
    payload.session.lines = ["x".repeat(5000)];
    expect(() => encodeShareFragment(payload, { maxBytes: 1000 })).toThrow(/above the 1000-byte cap/);
  });

  it("inflateCapped stops early on a bomb (output counted chunk by chunk)", () => {
    const bomb = deflateSync(new Uint8Array(64 * MiB));
    expect(() => inflateCapped(bomb, MiB)).toThrow(/more than 1048576 bytes/);
    expect(inflateCapped(deflateSync(new Uint8Array(MiB)), MiB)).toHaveLength(MiB);
  });
});
