// A line's stored texts made strings again except at the reader's places: every other text,
// however deep in objects and arrays, comes back as the string JSON.parse gives, the kept ones
// stay stored (stored again from the line's mark), and a list is walked by index, not through an
// iterator (a packed row's list of thousands of small strings made an iterator result per item).
import { describe, expect, it } from "vitest";
import { keepStoredTextsOnlyAt, type StoredTextPlace } from "../../../src/core/text/keptPlaces";
import { LARGE_TEXT_BYTES, parseLineKeepingLargeTexts } from "../../../src/core/text/largeLiterals";
import { createTextStore, decodeStoredText, isStoredText, storeMark } from "../../../src/core/text/storedText";

const encoder = new TextEncoder();

function text(letter: string): string {
  return letter.repeat(LARGE_TEXT_BYTES + 10);
}

function parsedLine(value: unknown) {
  const line = JSON.stringify(value);
  const store = createTextStore(4096);
  const mark = storeMark(store);
  const bytes = encoder.encode(line);
  const raw = parseLineKeepingLargeTexts(bytes, 0, bytes.length, store) as Record<string, unknown>;
  return { raw, store, mark, expected: JSON.parse(line) as Record<string, unknown> };
}

describe("keepStoredTextsOnlyAt", () => {
  it("makes every text but the kept ones strings again, in objects and in lists of lists", () => {
    const { raw, store, mark, expected } = parsedLine({ a: text("a"), list: ["x", [text("b"), { c: text("c") }], text("d")], keep: { t: text("k") } });
    const keep = raw.keep as Record<string, unknown>;
    expect(isStoredText(keep.t)).toBe(true);
    const places: StoredTextPlace[] = [{ holder: keep, key: "t" }];
    keepStoredTextsOnlyAt(raw, places, store, mark);
    expect(isStoredText(keep.t)).toBe(true);
    expect(decodeStoredText(keep.t as never)).toBe(text("k"));
    keep.t = decodeStoredText(keep.t as never);
    expect(raw).toEqual(expected);
    // Only the kept text's bytes stay in the store.
    expect(store.used).toBeLessThan(2 * (LARGE_TEXT_BYTES + 10));
  });

  it("walks a list by index, not through its iterator", () => {
    const { raw, store, mark, expected } = parsedLine({ rows: [text("a"), "small", [text("b")]] });
    const rows = raw.rows as unknown[];
    const refuse = () => {
      throw new Error("iterated");
    };
    for (const list of [rows, rows[2] as unknown[]]) {
      Object.defineProperty(list, "keys", { value: refuse });
      Object.defineProperty(list, Symbol.iterator, { value: refuse });
    }
    keepStoredTextsOnlyAt(raw, [], store, mark);
    expect([...Array.prototype.values.call(rows)].map((item) => (Array.isArray(item) ? [...Array.prototype.values.call(item)] : item))).toEqual(expected.rows);
  });
});
