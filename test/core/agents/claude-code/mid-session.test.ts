// A transcript that starts mid-session (its first entry's parent is not in the file, as when a
// file was cut or copied from the middle): the warning and the token story name it, and what the
// recorded usage counts beyond the rebuilt request is called earlier conversation, not "system
// prompt and tools" alone. Truth: the recorded usage written in the lines below.
import { expect, it } from "vitest";
import { analyzeSession, readSessionText } from "../../../../src/core/session/index";
import { analyzeSessionPrefixes } from "../../../../src/core/session/sessionPrefixes";
import { notInFileSentence } from "../../../../src/ui/tokenStory";
import { assistant, user } from "./helpers";

const RECORDED_PROMPT = 136758;

function midSession(parentOfFirst: string | null) {
  const lines = [
    user("u1", parentOfFirst, "Go on with the refactoring."),
    assistant("a1", "u1", "msg_1", [{ type: "text", text: "Done." }], { input_tokens: 8, cache_creation_input_tokens: 100, cache_read_input_tokens: RECORDED_PROMPT - 108, output_tokens: 5 }),
  ];
  return readSessionText(lines.map((line) => JSON.stringify(line)).join("\n"), "mid.jsonl");
}

it("names a file that starts mid-session, and its missing earlier conversation", () => {
  const session = midSession("parent-not-in-file");
  const analysis = analyzeSession(session, {});
  expect(analysis.startsMidSession).toBe(true);
  expect(analysis.warnings.map((w) => w.reason)).toContain(
    "this file starts mid-session: the parent parent-not-in-file of its first entry is not in it, so the earlier conversation is missing",
  );
  const [report] = analyzeSessionPrefixes(session, {}, { prefix: { tokenizer: "estimate" } });
  const missing = report!.unrecorded!.tokens;
  // The recorded prompt minus the rebuilt request: nearly all of the 136,758 the usage counts.
  expect(missing).toBeGreaterThan(RECORDED_PROMPT - 100);
  expect(missing).toBeLessThan(RECORDED_PROMPT);
  expect(notInFileSentence(missing, analysis.startsMidSession)).toMatch(/^this file starts mid-session: ≈ 136\.\dk tokens of earlier conversation are not in it/);
});

it("a file that starts at the root is not called mid-session", () => {
  const analysis = analyzeSession(midSession(null), {});
  expect(analysis.startsMidSession).toBeUndefined();
  expect(notInFileSentence(30000, analysis.startsMidSession)).toBe("≈ 30.0k tokens not in the file: system prompt and tools, inferred from recorded usage");
});
