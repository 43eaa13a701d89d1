// Reproduction bundles: format, detection, round trip, errors, and link size levels.
import { describe, expect, it } from "vitest";
import {
  BROWSER_URL_LIMIT,
  LINK_WARN_CHARS,
  bundleFileName,
  decodeBundle,
  encodeBundle,
  encodeShareFragment,
  isBundle,
  linkSizeInfo,
} from "../../../src/core/share";
import { samplePayload } from "./helpers";

describe("bundles", () => {
  it("has the documented wrapper and round trips", () => {
    const payload = samplePayload({ header: { api: "anthropic-messages", source: "h.json", extraSettings: {}, systemPrompt: "sys" } });
    const text = encodeBundle(payload);
    expect(text.startsWith('{"contextscope":"bundle","v":2,"payload":{')).toBe(true);
    expect(text.endsWith("\n")).toBe(true);
    expect(JSON.parse(text)).toEqual({ contextscope: "bundle", v: 2, payload });
    expect(decodeBundle(text)).toEqual({ ok: true, version: 2, payload });
    // A bundle written by an earlier build (version 1 throughout) still opens, as the current shape.
    const v1 = JSON.stringify({ contextscope: "bundle", v: 1, payload: { ...payload, v: 1 } });
    expect(decodeBundle(v1)).toEqual({ ok: true, version: 1, payload });
  });

  it("isBundle recognises bundles (with BOM or pretty-printed) and nothing else", () => {
    const pretty = JSON.stringify({ contextscope: "bundle", v: 2, payload: samplePayload() }, null, 2);
    expect(isBundle(encodeBundle(samplePayload()))).toBe(true);
    expect(isBundle(`\uFEFF${pretty}`)).toBe(true);
    expect(decodeBundle(`\uFEFF${pretty}`).ok).toBe(true);
    expect(isBundle('{"type":"session","version":3}\n')).toBe(false);
    expect(isBundle('{"payload":{},"contextscope":"bundle"}')).toBe(false);
    expect(isBundle("")).toBe(false);
    expect(isBundle(encodeShareFragment(samplePayload()))).toBe(false);
  });

  it("gives clear errors", () => {
    const good = encodeBundle(samplePayload());
    const code = (text: string, options = {}) => {
      const result = decodeBundle(text, options);
      return result.ok ? "ok" : result.error.code;
    };
    expect(code('{"type":"session"}')).toBe("not-a-link");
    expect(code(good.replace('"v":2', '"v":7'))).toBe("unknown-version");
    expect(code(good.slice(0, good.length - 20))).toBe("corrupted");
    expect(code(good.replace('"payload":', '"extra":1,"payload":'))).toBe("invalid-payload");
    expect(code(good.replace('"v":2', '"v":"2"'))).toBe("invalid-payload");
    expect(code(good.replace('"payload":{', '"payload":{"__proto__":{"x":1},'))).toBe("invalid-payload");
    expect(code(good, { maxChars: 100 })).toBe("too-large");
    expect(code('{"contextscope":"bundle","v":1}')).toBe("invalid-payload");
  });

  it("names the file after the session and turn", () => {
    expect(bundleFileName(samplePayload({ turn: 12 }))).toBe("2026-01-01_session-turn-12.contextscope.json");
    expect(bundleFileName(samplePayload({ turn: null }))).toBe("2026-01-01_session.contextscope.json");
  });
});

describe("linkSizeInfo", () => {
  it("reports the three levels at the documented limits", () => {
    expect(linkSizeInfo("#v1=abc")).toMatchObject({ fragmentChars: 7, urlChars: 7, level: "ok", exceedsBrowserLimit: false, exceedsWarnThreshold: false });
    const long = linkSizeInfo(`#v1=${"a".repeat(LINK_WARN_CHARS)}`);
    expect(long.level).toBe("long");
    expect(long.message).toMatch(/chat apps/);
    const tooLong = linkSizeInfo("#".repeat(BROWSER_URL_LIMIT - 99), { pageUrlChars: 100 });
    expect(tooLong.level).toBe("too-long");
    expect(tooLong.exceedsBrowserLimit).toBe(true);
    expect(tooLong.message).toMatch(/reproduction bundle/);
    expect(linkSizeInfo("#".repeat(BROWSER_URL_LIMIT - 100), { pageUrlChars: 100 }).level).toBe("long");
    expect(BROWSER_URL_LIMIT).toBe(1024 * 1024);
    expect(LINK_WARN_CHARS).toBe(32 * 1024);
  });
});
