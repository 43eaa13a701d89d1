import { describe, expect, it } from "vitest";
import type { ContextMessage, LlmMessage } from "../../../../src/core/model";
import {
  applySenpiSteps,
  dropFailedTurns,
  foldEnvironment,
  insertToolResultUserWords,
  SenpiTally,
} from "../../../../src/core/agents/pi/senpi";

let n = 0;
const cm = (message: LlmMessage, extra: Partial<ContextMessage["provenance"]> = {}): ContextMessage => ({
  message,
  provenance: { rule: "entry", entryId: `e${++n}`, ...extra },
});
const userMsg = (text: string) => cm({ role: "user", content: [{ type: "text", text }], timestamp: 1 });
const call = (id: string, stopReason = "toolUse") =>
  cm({ role: "assistant", content: [{ type: "toolCall", id, name: "bash", arguments: {} }], stopReason, timestamp: 2 });
const result = (id: string, details?: unknown) =>
  cm({ role: "toolResult", toolCallId: id, toolName: "bash", content: [{ type: "text", text: "out" }], isError: false, details, timestamp: 3 });
const env = () =>
  cm({ role: "user", content: [{ type: "text", text: "<environment_context>\n  <cwd>/w</cwd>\n</environment_context>" }], timestamp: 4 }, {
    rule: "render:custom",
    customType: "environment-context",
  });

function tallyCount(messages: ContextMessage[]): { count: number; dropped: number } {
  const tally = new SenpiTally();
  for (const message of messages) tally.feed(message);
  return { count: tally.messageCount, dropped: tally.droppedCount };
}

describe("senpi post-processing (test table rows 24–26)", () => {
  it("row 24: a failed assistant and its tool result are dropped as failed-turn", () => {
    const input = [userMsg("go"), call("c1", "error"), result("c1"), userMsg("again")];
    const out = dropFailedTurns(input);
    expect(out.messages.map((m) => m.message.role)).toEqual(["user", "user"]);
    expect(out.dropped.map((d) => [d.message.role, d.reason, d.ruleId])).toEqual([
      ["assistant", "failed-turn", "SP-C3"],
      ["toolResult", "failed-turn", "SP-C3"],
    ]);
    expect(tallyCount(input)).toEqual({ count: 2, dropped: 2 });
  });

  it("row 24b: a tool result whose id a kept assistant also declared stays", () => {
    const input = [call("c1", "aborted"), call("c1"), result("c1")];
    expect(dropFailedTurns(input).messages).toHaveLength(2);
  });

  it("row 25: user words after the run, as [label] + text blocks; converting twice yields one", () => {
    const input = [userMsg("q"), call("c1"), result("c1"), result("c2", { userWords: [{ label: "answer", text: "yes" }] }), call("c3")];
    const once = insertToolResultUserWords(input);
    expect(once).toHaveLength(6);
    const inserted = once[4]!;
    expect(inserted.message).toEqual({
      role: "user",
      content: [
        { type: "text", text: "[answer]" },
        { type: "text", text: "yes" },
      ],
      timestamp: 3,
    });
    expect(inserted.provenance).toMatchObject({ rule: "user-words", ruleId: "SP-C4" });
    expect(insertToolResultUserWords(once)).toHaveLength(6); // idempotent
    expect(tallyCount(input).count).toBe(6);
    expect(tallyCount(once).count).toBe(6);
    // a run at the very end still gets its words
    expect(insertToolResultUserWords(input.slice(0, 4))).toHaveLength(5);
    expect(tallyCount(input.slice(0, 4)).count).toBe(5);
  });

  it("row 26: an environment message folds into the next user message as its leading block", () => {
    const prompt = userMsg("hello");
    const out = foldEnvironment([env(), prompt]);
    expect(out).toHaveLength(1);
    const content = (out[0]!.message as { content: { text: string }[] }).content;
    expect(content.map((b) => b.text)).toEqual(["<environment_context>\n  <cwd>/w</cwd>\n</environment_context>", "hello"]);
    expect(out[0]!.provenance).toMatchObject({ rule: "fold:environment", ruleId: "SP-C6", entryId: prompt.provenance.entryId });
    expect(tallyCount([env(), prompt]).count).toBe(1);
  });

  it("SP-C6: stays standalone before another environment message or a non-user message", () => {
    expect(foldEnvironment([env(), env(), userMsg("x")])).toHaveLength(2);
    expect(tallyCount([env(), env(), userMsg("x")]).count).toBe(2);
    expect(foldEnvironment([env(), call("c")])).toHaveLength(2);
    expect(foldEnvironment([userMsg("x"), env()])).toHaveLength(2);
  });

  it("SP-C5: the notes hook runs only when notes are on, between user words and the fold", () => {
    const seen: number[] = [];
    const notesStep = (messages: ContextMessage[]) => {
      seen.push(messages.length);
      return [...messages, userMsg("note")];
    };
    const input = [env(), userMsg("a"), call("c1"), result("c1", { userWords: [{ label: "l", text: "t" }] })];
    expect(applySenpiSteps(input, { notes: false, notesStep }).messages).toHaveLength(4);
    expect(seen).toEqual([]);
    const withNotes = applySenpiSteps(input, { notes: true, notesStep });
    expect(seen).toEqual([5]); // after user words (+1), before the environment fold
    expect(withNotes.messages).toHaveLength(5);
  });

  it("SP-C2: images before a failed turn that names an image rejection are replaced", () => {
    const image = cm({ role: "user", content: [{ type: "text", text: "see" }, { type: "image", data: "AAA", mimeType: "image/png" }], timestamp: 1 });
    const failed = cm({ role: "assistant", content: [], stopReason: "error", errorMessage: "400 image too large", timestamp: 2 });
    const out = applySenpiSteps([image, failed, userMsg("retry")]);
    expect(out.messages).toHaveLength(2);
    expect((out.messages[0]!.message as { content: { type: string }[] }).content.map((b) => b.type)).toEqual(["text", "text"]);
    expect(out.messages[0]!.provenance.inferred).toBe("SP-C2");
    expect(out.dropped.map((d) => d.reason)).toEqual(["image-replaced", "failed-turn"]);
    expect(tallyCount([image, failed, userMsg("retry")])).toEqual({ count: 2, dropped: 2 });
  });
});
