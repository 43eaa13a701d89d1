// The search index's sketch of a text kept as bytes is read from its escaped bytes: it must equal
// the sketch of the decoded text, bit for bit, whatever the literal holds (escapes JSON.stringify
// writes and those it does not, \u escapes in either case, lone surrogates, the two non-ASCII
// characters that fold to ASCII letters, characters of two, three and four bytes).
import { describe, expect, it } from "vitest";
import { buildSketch } from "../../../src/core/search/trigramSketch";
import { createTextStore, decodeStoredText, releaseTextStore } from "../../../src/core/text/storedText";
import { storeLiteralBytes } from "../../support/stored-texts";

const encoder = new TextEncoder();

/** Literals as they may stand in a session file (the inside of a JSON string, quotes excluded). */
const LITERALS = [
  JSON.stringify("Read the FILE src/app.ts then run `npm test` — ok ✓").slice(1, -1),
  JSON.stringify("한국어 tokens KELVIN \u212A and long s \u017F: Straße, naïve, emoji 🎉 after").slice(1, -1),
  "line one\\nline two\\t\\\"quoted\\\" back\\\\slash \\/ slash \\b\\f\\r",
  "\\u0041\\u0042C abc \\u00e9t\\u00C9 \\u212a\\u017F upper \\u004B\\u004c\\u004D",
  "lone \\ud83d high, lone \\udc00 low, pair \\ud83c\\udf89 done ABC",
  JSON.stringify("x".repeat(3000) + " The Quick Brown Fox " + "y".repeat(2000)).slice(1, -1),
];

describe("the trigram sketch of a text kept as bytes", () => {
  it.each(LITERALS.map((literal, index) => [index, literal] as const))("equals the decoded text's sketch (literal %i)", (_index, literal) => {
    const store = createTextStore();
    const stored = storeLiteralBytes(store, encoder.encode(literal));
    const text = decodeStoredText(stored);
    expect(text).toBe(JSON.parse(`"${literal}"`));
    const fromBytes = buildSketch([stored]);
    const fromString = buildSketch([text]);
    expect(fromBytes.shift).toBe(fromString.shift);
    expect([...fromBytes.bits]).toEqual([...fromString.bits]);
    expect(fromBytes.bits.some((word) => word !== 0)).toBe(true);
    // Mixed with strings, in order, as a message's texts are.
    expect([...buildSketch(["head ", stored, " tail"]).bits]).toEqual([...buildSketch(["head ", text, " tail"]).bits]);
    releaseTextStore(store);
  });
});
