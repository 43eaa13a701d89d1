// The first characters of a text without decoding a large stored text whole: a prefix of the text
// that holds at least the units asked for, whatever escapes and multi-byte characters it holds.
import { describe, expect, it } from "vitest";
import { createTextStore, decodeStoredText, isStoredText, type StoredText } from "../../../src/core/text/storedText";
import { parseLineKeepingLargeTexts } from "../../../src/core/text/largeLiterals";
import { textHead, textStartsWith } from "../../../src/core/text/textTests";

function stored(text: string, raw?: string): StoredText {
  const line = raw ?? JSON.stringify({ text });
  const bytes = new TextEncoder().encode(line);
  const value = parseLineKeepingLargeTexts(bytes, 0, bytes.length, createTextStore(4096)) as { text: unknown };
  if (!isStoredText(value.text)) throw new Error("the text was not stored");
  return value.text;
}

describe("textHead", () => {
  const samples = [
    "a".repeat(5000),
    `${"é😀\"\\\n\t".repeat(900)}end`,
    `${"\u0001\u2028".repeat(1500)}`,
    `${"日本語".repeat(2000)}`,
  ];
  it("is a prefix of the stored text holding at least the units asked for, far shorter than the text", () => {
    for (const sample of samples) {
      const text = stored(sample);
      expect(decodeStoredText(text)).toBe(sample);
      for (const units of [0, 1, 7, 159, 320, 1000]) {
        const head = textHead(text, units);
        expect(sample.startsWith(head)).toBe(true);
        expect(head.length).toBeGreaterThanOrEqual(Math.min(units, sample.length));
        expect(head.length).toBeLessThanOrEqual((units + 1) * 6);
      }
    }
  });

  it("reads escapes the writer did not canonicalise (\\u escapes of plain letters, escaped slashes)", () => {
    const sample = `<system-reminder>${"b".repeat(4000)}`;
    const raw = `{"text":"\\u003csystem-reminder\\u003e\\/${"b".repeat(4000)}"}`;
    const text = stored(sample, raw);
    expect(text.canonical).toBe(false);
    const decoded = decodeStoredText(text);
    expect(decoded.startsWith("<system-reminder>/")).toBe(true);
    expect(decoded.startsWith(textHead(text, 40))).toBe(true);
    expect(textHead(text, 40).length).toBeLessThan(400);
    expect(textStartsWith(text, "<system-reminder>/")).toBe(true);
    expect(textStartsWith(text, "<system-reminder>x")).toBe(false);
  });

  it("gives a string back as it is", () => {
    expect(textHead("short", 2)).toBe("short");
  });
});
