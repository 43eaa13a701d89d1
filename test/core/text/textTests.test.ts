// The text tests that answer from a stored text's bytes (`textIncludes`, `trimmedTextStartsWith`)
// agree with the same question asked of the text's string, on texts whose bytes settle it and on
// texts that must be decoded (escapes, non-canonical bytes, leading blanks, look-alike escapes).
import { afterAll, describe, expect, it } from "vitest";
import { parseLineKeepingLargeTexts } from "../../../src/core/text/largeLiterals";
import { createTextStore, decodeStoredText, isStoredText, releaseTextStore, type StoredText } from "../../../src/core/text/storedText";
import { textIncludes, trimmedTextStartsWith } from "../../../src/core/text/textTests";

const store = createTextStore(1 << 20);
afterAll(() => releaseTextStore(store));

/** A stored text read from `literal` (the JSON string literal as written, quotes included). */
function stored(literal: string): StoredText {
  const bytes = new TextEncoder().encode(`{"t":${literal}}`);
  const value = (parseLineKeepingLargeTexts(bytes, 0, bytes.length, store) as { t: unknown }).t;
  if (!isStoredText(value)) throw new Error("not stored");
  return value;
}

const filler = "word é ".repeat(300);
const LITERALS = [
  JSON.stringify(`<state_snapshot>${filler}`),
  JSON.stringify(`${filler}<state_snapshot>${filler}`),
  JSON.stringify(`${filler}<state_snap\nshot>`),
  JSON.stringify(`\n  <state_snapshot>${filler}`),
  JSON.stringify(`\u00a0<state_snapshot>${filler}`),
  `"\\u003cstate_snapshot>${filler}"`,
  `"${filler}\\u003cstate_snapshot>"`,
  `"${filler}\\n<state_snapshot>"`,
  JSON.stringify(filler),
];

describe("text tests on stored texts", () => {
  it("textIncludes agrees with the decoded text's includes", () => {
    for (const literal of LITERALS) {
      const text = stored(literal);
      const string = decodeStoredText(text);
      for (const part of ["<state_snapshot>", "n<state", "é", "snap\nshot", "word é word"]) expect(textIncludes(text, part), `${literal.slice(0, 30)} / ${part}`).toBe(string.includes(part));
    }
  });

  it("trimmedTextStartsWith answers from the bytes only when the first character is kept by trimStart", () => {
    for (const literal of LITERALS) {
      const text = stored(literal);
      const string = decodeStoredText(text);
      const answer = trimmedTextStartsWith(text, "<state_snapshot>");
      if (answer !== null) expect(answer).toBe(string.trimStart().startsWith("<state_snapshot>"));
      // Undecided only when the literal's first byte is a blank, an escape or outside ASCII.
      else expect(/^[\x21-\x5b\x5d-\x7e]/.test(literal.slice(1))).toBe(false);
    }
    expect(trimmedTextStartsWith(stored(LITERALS[0]!), "<state_snapshot>")).toBe(true);
    expect(trimmedTextStartsWith(stored(LITERALS[3]!), "<state_snapshot>")).toBeNull();
  });
});
