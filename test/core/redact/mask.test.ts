// The masking format: public prefix kept, short values hidden entirely, at most 4 + 4 characters
// shown, never more than a quarter of the value, the hidden count stated, deterministic.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FULL_MASK_BELOW, MAX_VISIBLE_EDGE, redactValue, visibleEdge } from "../../../src/core/redact";

describe("redactValue", () => {
  it("keeps the vendor prefix and 4 + 4 characters of a long token", () => {
    const token = `sk-proj-Abcd${"x".repeat(40)}9xQz`;
    expect(redactValue(token, { prefixLength: 8 })).toBe("sk-proj-Abcd\u2026[redacted 40 chars]\u20269xQz");
  });

  it("hides short values entirely", () => {
    expect(redactValue("hunter2")).toBe("[redacted 7 chars]");
    expect(redactValue("a")).toBe("[redacted 1 char]");
    expect(redactValue("x".repeat(FULL_MASK_BELOW - 1))).toBe(`[redacted ${FULL_MASK_BELOW - 1} chars]`);
  });

  it("shows 2, 3, then 4 characters at each end as values grow", () => {
    expect(visibleEdge(15)).toBe(0);
    expect(visibleEdge(16)).toBe(2);
    expect(visibleEdge(24)).toBe(3);
    expect(visibleEdge(32)).toBe(4);
    expect(visibleEdge(10_000)).toBe(MAX_VISIBLE_EDGE);
    expect(redactValue("ABCDEFGHIJKLMNOP")).toBe("AB\u2026[redacted 12 chars]\u2026OP");
  });

  it("never cuts a surrogate pair in half", () => {
    // 35 UTF-16 units: 4 would be shown at the start, but the 4th is the first half of an emoji.
    expect(redactValue(`xxx\u{1F600}${"y".repeat(30)}`)).toBe("xxx\u2026[redacted 28 chars]\u2026yyyy");
    expect(redactValue(`${"y".repeat(30)}\u{1F600}xxx`)).toBe("yyyy\u2026[redacted 28 chars]\u2026xxx");
  });

  it("full style hides everything after the prefix", () => {
    expect(redactValue("ghp_" + "a".repeat(36), { prefixLength: 4, style: "full" })).toBe("ghp_[redacted 36 chars]");
  });

  it("is deterministic and never shows more than 8 characters nor a quarter of the value", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 300 }), (value) => {
        const masked = redactValue(value);
        expect(redactValue(value)).toBe(masked);
        const edge = visibleEdge(value.length);
        expect(2 * edge).toBeLessThanOrEqual(Math.max(8, 0));
        expect(2 * edge).toBeLessThanOrEqual(value.length / 4);
        const marker = /\[redacted (\d+) chars?\]/.exec(masked);
        expect(marker).not.toBeNull();
        const hidden = Number(marker![1]);
        expect(hidden).toBeGreaterThanOrEqual(value.length - 2 * edge);
        expect(hidden).toBeLessThanOrEqual(value.length);
        if (edge > 0) {
          const [head, tail] = masked.split(/\u2026\[redacted \d+ chars?\]\u2026/) as [string, string];
          expect(value.startsWith(head)).toBe(true);
          expect(value.endsWith(tail)).toBe(true);
          expect(head.length + hidden + tail.length).toBe(value.length);
        }
      }),
    );
  });
});
