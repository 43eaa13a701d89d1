// A text left in the store's source (the session file) keeps its first bytes in the store, and
// the questions about how a text starts (`textStart`, `textHead`, `textStartsWith`,
// `isBlankText`, `trimmedTextStartsWith`) answer from them without reading the source when they
// settle it, with the same answers as the decoded text gives; `copyIntoStore` moves a text into
// the store from the line in memory, and a line's kept texts moved down keep their heads.
import { afterAll, describe, expect, it } from "vitest";
import { copyIntoStore, storeKeptTextsAgain } from "../../../src/core/text/keptPlaces";
import { parseLineKeepingLargeTexts } from "../../../src/core/text/largeLiterals";
import {
  createTextStore,
  decodeStoredText,
  isStoredText,
  releaseTextStore,
  SOURCE_CHUNK,
  storedTextHead,
  storeMark,
  withSourceLine,
  type StoredText,
  type TextStore,
} from "../../../src/core/text/storedText";
import { isBlankText, textHead, textStart, textStartsWith, trimmedTextStartsWith } from "../../../src/core/text/textTests";

/** The "file": every line written so far, one after the other. */
let file = new Uint8Array(0);
let reads = 0;
const stores: TextStore[] = [];
afterAll(() => stores.forEach(releaseTextStore));

function newStore(): TextStore {
  const store = createTextStore(1 << 20, {
    read(offset, length) {
      reads++;
      return file.slice(offset, offset + length);
    },
  });
  stores.push(store);
  return store;
}

/** Appends `line` to the file; its offset there. */
function append(line: Uint8Array): number {
  const offset = file.length;
  const grown = new Uint8Array(offset + line.length);
  grown.set(file);
  grown.set(line, offset);
  file = grown;
  return offset;
}

/** Appends `{"t":<literal>}` to the file and parses it, its large texts left in the file. */
function sourced(store: TextStore, literal: string): StoredText {
  const line = new TextEncoder().encode(`{"t":${literal}}`);
  const offset = append(line);
  const value = (parseLineKeepingLargeTexts(line, 0, line.length, store, undefined, offset) as { t: unknown }).t;
  if (!isStoredText(value) || value.chunk !== SOURCE_CHUNK) throw new Error("not left in the file");
  return value;
}

const filler = "word é ".repeat(300);
const STARTS = [
  `<state_snapshot>${filler}`,
  `\n  <state_snapshot>${filler}`,
  `\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n<state_snapshot>${filler}`,
  `\u00a0<state_snapshot>${filler}`,
  `éééééééééééééééé<tag>${filler}`,
  `😀😀😀😀😀😀😀😀 ${filler}`,
  `${" ".repeat(40)}${filler}`,
  filler,
];
const LITERALS = [...STARTS.map((text) => JSON.stringify(text)), `"\\u003cstate_snapshot>${filler}"`, `"\\ud83d\\ude00\\ud83d\\ude00\\ud83d\\ude00 ${filler}"`];

describe("a text left in the file answers how it starts from its first bytes", () => {
  it("gives the same answers as the decoded text, and reads the file only when the head does not settle it", () => {
    const store = newStore();
    for (const literal of LITERALS) {
      const text = sourced(store, literal);
      const string = JSON.parse(literal) as string;
      const before = reads;
      const start = textStart(text);
      expect(start.length).toBeGreaterThan(0);
      expect(string.startsWith(start), literal.slice(0, 20)).toBe(true);
      expect(storedTextHead(text).length).toBe(32);
      expect(textStartsWith(text, "<state_snapshot>")).toBe(string.startsWith("<state_snapshot>"));
      expect(textHead(text, 3)).toBe(string.slice(0, textHead(text, 3).length));
      expect(textHead(text, 3).length).toBeGreaterThanOrEqual(3);
      const trimmed = trimmedTextStartsWith(text, "<state_snapshot>");
      if (trimmed !== null) expect(trimmed).toBe(string.trimStart().startsWith("<state_snapshot>"));
      // Bytes that are not JSON.stringify's own (`\u003c` for `<`) are read as characters, the
      // prefix's worth, which is more than the head holds.
      if (text.canonical) expect(reads, literal.slice(0, 20)).toBe(before);
      // A blank start needs the rest of the text: that one reads it.
      expect(isBlankText(text)).toBe(string.trim().length === 0);
      expect(decodeStoredText(text)).toBe(string);
      expect(reads).toBeGreaterThan(before);
    }
  });

  it("answers a prefix longer than the head from the head when they differ within it, reading the rest only when they agree", () => {
    const store = newStore();
    const long = "This session is being continued from a previous conversation";
    const other = sourced(store, JSON.stringify(`<system-reminder>${filler}`));
    let before = reads;
    expect(textStartsWith(other, long)).toBe(false);
    expect(reads).toBe(before);
    const summary = sourced(store, JSON.stringify(`${long} that ran out of context. ${filler}`));
    const near = sourced(store, JSON.stringify(`${long.slice(0, 40)}, not the same. ${filler}`));
    before = reads;
    expect(textStartsWith(summary, long)).toBe(true);
    expect(textStartsWith(near, long)).toBe(false);
    expect(reads).toBe(before + 2);
  });

  it("keeps the heads of the kept texts when a line's other texts are given back", () => {
    const store = newStore();
    const line = new TextEncoder().encode(`{"a":${JSON.stringify(`first ${filler}`)},"b":${JSON.stringify(`second ${filler}`)}}`);
    const offset = append(line);
    const mark = storeMark(store);
    const record = parseLineKeepingLargeTexts(line, 0, line.length, store, undefined, offset) as { a: unknown; b: unknown };
    // "a" is made a string again, "b" stays in the file: its head moves down over a's.
    withSourceLine(store, { bytes: line, start: 0, end: line.length, offset }, () => {
      record.a = decodeStoredText(record.a as StoredText);
      storeKeptTextsAgain(store, mark, [{ holder: record, key: "b" }]);
    });
    const b = record.b as StoredText;
    expect(b.chunk).toBe(SOURCE_CHUNK);
    expect(store.used).toBe(32);
    const before = reads;
    expect(textStart(b).startsWith("second word")).toBe(true);
    expect(reads).toBe(before);
  });

  it("copies a text into the store from the line in memory, reading nothing", () => {
    const store = newStore();
    const literal = JSON.stringify(`summary ${filler}`);
    const line = new TextEncoder().encode(`{"t":${literal}}`);
    const offset = append(line);
    const record = parseLineKeepingLargeTexts(line, 0, line.length, store, undefined, offset) as { t: unknown };
    const sourcedBefore = store.sourced;
    const before = reads;
    withSourceLine(store, { bytes: line, start: 0, end: line.length, offset }, () => copyIntoStore(store, [{ holder: record, key: "t" }]));
    const copied = record.t as StoredText;
    expect(copied.chunk).not.toBe(SOURCE_CHUNK);
    expect(copied.headChunk).toBeUndefined();
    expect(store.sourced).toBe(sourcedBefore! - 1);
    expect(decodeStoredText(copied)).toBe(JSON.parse(literal));
    expect(reads).toBe(before);
  });
});
