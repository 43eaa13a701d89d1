// A request whose large texts are kept as bytes segments exactly as the same request with the
// texts as strings: same hashes, bytes and tokens (chars/4 from the stored lengths, without
// decoding; a counter that reads the characters gets them decoded), same token text and rendering.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { renderCanonical, tokenLengthOf, tokenTextOf } from "../../../src/core/prefix/canonical";
import { createSegmentCache, SegmentListBuilder } from "../../../src/core/prefix/segment-builder";
import type { SegmentView } from "../../../src/core/prefix/types";
import { LARGE_TEXT_BYTES, parseLineKeepingLargeTexts } from "../../../src/core/text/largeLiterals";
import { createTextStore, isStoredText } from "../../../src/core/text/storedText";
import { charsPerFourCounter, type TokenCounter } from "../../../src/core/tokens/counters";

/** A counter that reads the characters (as an exact tokenizer does), not only the length. */
const readingCounter: TokenCounter = {
  id: "test-reading",
  exact: true,
  label: "test",
  count: (text) => text.length + [...text].filter((character) => character === "한" || character === "\n").length,
};

const piece = fc.constantFrom("a", "quote \" and \\", "\n", "\t", "한국어 ", "✓", "😀", "\ud800");
const longText = fc.array(piece, { minLength: 10, maxLength: 100 }).map((parts) => parts.join("").padEnd(LARGE_TEXT_BYTES + 1, "z"));
const message = fc.record({
  role: fc.constantFrom("user", "assistant", "tool"),
  content: fc.array(fc.record({ type: fc.constant("text"), text: fc.oneof(longText, fc.string({ maxLength: 30 })) }), { minLength: 1, maxLength: 3 }),
  signature: fc.option(longText, { nil: undefined }),
});

function storedCopy(value: unknown): unknown {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  return parseLineKeepingLargeTexts(bytes, 0, bytes.length, createTextStore());
}

function segmentsOf(messages: unknown[], counter: TokenCounter, view: SegmentView) {
  const builder = new SegmentListBuilder(counter, createSegmentCache());
  messages.forEach((source, index) => builder.add({ label: `m${index}`, level: "messages", messageIndex: index, source, view }));
  return builder.segments.map(({ hash, bytes, tokens }) => ({ hash, bytes, tokens }));
}

describe("segments of stored texts", () => {
  it("equal the segments of the same texts as strings, under chars/4 and under a counter that reads", () => {
    let runsWithStoredTexts = 0;
    fc.assert(
      fc.property(fc.array(message, { minLength: 1, maxLength: 4 }), (messages) => {
        const stored = messages.map(storedCopy);
        if (stored.some((value) => JSON.stringify(value).includes('"stored-text"'))) runsWithStoredTexts++;
        for (const counter of [charsPerFourCounter, readingCounter]) {
          expect(segmentsOf(stored, counter, "whole")).toEqual(segmentsOf(messages, counter, "whole"));
        }
        for (let i = 0; i < messages.length; i++) {
          expect(tokenTextOf(stored[i])).toBe(tokenTextOf(messages[i]));
          expect(tokenLengthOf(stored[i])).toBe(tokenTextOf(messages[i]).length);
          expect(renderCanonical(stored[i])).toBe(renderCanonical(messages[i]));
        }
      }),
      { numRuns: 100 },
    );
    expect(runsWithStoredTexts).toBeGreaterThan(50);
  });

  it("counts a stored text's chars/4 from its stored length, without decoding it", () => {
    const text = "한국어 ✓\n".repeat(400);
    const stored = storedCopy({ type: "text", text }) as { text: unknown };
    expect(isStoredText(stored.text)).toBe(true);
    // "type" is structure, not text: only the text counts.
    expect(tokenLengthOf(stored)).toBe(text.length);
    expect(segmentsOf([stored], charsPerFourCounter, "whole")[0]!.tokens).toBe(Math.ceil(text.length / 4));
  });

  it("tells apart fresh messages of the same shape whose stored texts differ", () => {
    const messages = ["first ", "second "].map((word) => ({ role: "tool", content: [{ type: "text", text: word.repeat(300) }] }));
    const stored = messages.map(storedCopy);
    const segments = segmentsOf(stored, charsPerFourCounter, "whole");
    expect(segments[0]!.hash).not.toBe(segments[1]!.hash);
    expect(segments).toEqual(segmentsOf(messages, charsPerFourCounter, "whole"));
  });
});
