// A Claude Code compaction summary left in the file would be read back from it once per
// compaction: every later request opens with it, and its provenance asks whether it starts with
// the continuation sentence, longer than the head a text left in the file keeps in the store. The
// reader copies a summary's texts into the store while their line is in memory; other large texts
// stay in the file, and the requests read the file no more for the summary.
import { afterAll, describe, expect, it } from "vitest";
import { buildTurnContext } from "../../../../src/core/session/pipeline";
import { decodeStoredText, isStoredText, SOURCE_CHUNK, type StoredText } from "../../../../src/core/text/storedText";
import { readSessionAsBytes, releaseBytesReads } from "../../../support/readAsBytes";
import { assistant, boundary, toText, user } from "./helpers";

afterAll(releaseBytesReads);

const big = "word ".repeat(400);
const SUMMARY = `This session is being continued from a previous conversation that ran out of context. ${big}`;

function session(summaryContent: unknown) {
  const text = toText([
    user("u1", null, `first prompt ${big}`),
    assistant("a1", "u1", "m1", [{ type: "text", text: `answer ${big}` }]),
    boundary("b1", "a1"),
    user("u2", "b1", summaryContent, { isCompactSummary: true }),
    user("u3", "u2", `next prompt ${big}`),
    assistant("a2", "u3", "m2", [{ type: "text", text: "done" }]),
  ]);
  return readSessionAsBytes(text, "s.jsonl", { inSource: true });
}

function entryRaw(id: string, kept: ReturnType<typeof session>): Record<string, unknown> {
  return kept.entries.find((entry) => entry.id === id)!.raw;
}

describe("a Claude Code compaction summary read from a file", () => {
  for (const [shape, content] of [
    ["a string", SUMMARY],
    ["a text block", [{ type: "text", text: SUMMARY }]],
  ] as const) {
    it(`is copied into the store (its content ${shape}), other large texts stay in the file`, () => {
      const kept = session(content);
      const message = entryRaw("u2", kept).message as { content: unknown };
      const text = (typeof content === "string" ? message.content : (message.content as { text: unknown }[])[0]!.text) as StoredText;
      expect(isStoredText(text)).toBe(true);
      expect(text.chunk).not.toBe(SOURCE_CHUNK);
      expect(decodeStoredText(text)).toBe(SUMMARY);
      const prompt = (entryRaw("u3", kept).message as { content: unknown }).content as StoredText;
      expect(prompt.chunk).toBe(SOURCE_CHUNK);
      const context = buildTurnContext(kept, { profile: "pi" }, 2);
      expect(context.messages[0]!.provenance.rule).toBe("summary:compaction");
    });
  }
});
