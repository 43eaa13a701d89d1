// pi's context size at the end of a branch: only a response given after the latest compaction
// counts (pi-mono 83378aad, agent-session.ts `getContextUsage` and `_checkCompaction`).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readSessionText, simulateCompaction } from "../../../../../src/core/session/index";
import { currentContextTokens, estimateContextTokens, respondedSinceLatestCompaction } from "../../../../../src/core/agents/pi/compaction/context-tokens";
import type { AgentMessage, RecordedUsage, SessionEntry } from "../../../../../src/core/model";

function usage(totalTokens: number): RecordedUsage {
  return { input: totalTokens, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens };
}
function entry(id: string, type: string, raw: Record<string, unknown>): SessionEntry {
  return { id, parentId: null, type, timestamp: "2026-03-14T09:28:13.736Z", line: 0, raw: { type, id, ...raw } };
}

const keptAnswer: AgentMessage = { role: "assistant", content: [{ type: "text", text: "kept answer" }], usage: usage(175017), stopReason: "stop" };
const summary: AgentMessage = { role: "compactionSummary", summary: "s".repeat(400), tokensBefore: 175017 };
const question: AgentMessage = { role: "user", content: "q".repeat(40) };
const failed: AgentMessage = { role: "assistant", content: [], usage: usage(0), stopReason: "error" };
const answer: AgentMessage = { role: "assistant", content: [{ type: "text", text: "new" }], usage: usage(12000), stopReason: "stop" };

// File order: the kept answer lies before the compaction entry; the projected context puts the summary first.
const keptEntry = entry("a", "message", { message: keptAnswer });
const compactionEntry = entry("c", "compaction", { summary: summary.summary, firstKeptEntryId: "a", tokensBefore: 175017 });
const questionEntry = entry("q", "message", { message: question });

describe("context tokens after a compaction", () => {
  it("right after a compaction, a kept response's usage (measured before it) does not count", () => {
    const path = [keptEntry, compactionEntry, questionEntry];
    const messages = [summary, keptAnswer, question];
    // pi's bare estimateContextTokens anchors on the kept answer: the old context size.
    expect(estimateContextTokens(messages).tokens).toBeGreaterThan(175000);
    expect(respondedSinceLatestCompaction(path)).toBe(false);
    const now = currentContextTokens(path, messages);
    expect(now.noResponseSinceCompaction).toBe(true);
    expect(now.usageIndex).toBe(-1);
    expect(now.tokens).toBeLessThan(200);
  });

  it("an error response after the compaction is no usage either", () => {
    const path = [keptEntry, compactionEntry, questionEntry, entry("f", "message", { message: failed })];
    expect(currentContextTokens(path, [summary, keptAnswer, question, failed]).noResponseSinceCompaction).toBe(true);
  });

  it("a response after the compaction anchors the estimate as before", () => {
    const path = [keptEntry, compactionEntry, questionEntry, entry("n", "message", { message: answer }), entry("q2", "message", { message: question })];
    const now = currentContextTokens(path, [summary, keptAnswer, question, answer, question]);
    expect(now.noResponseSinceCompaction).toBe(false);
    expect(now.usageTokens).toBe(12000);
    expect(now.tokens).toBe(12000 + 10);
  });

  it("with no compaction, the last usage counts", () => {
    expect(currentContextTokens([keptEntry, questionEntry], [keptAnswer, question]).usageTokens).toBe(175017);
  });
});

describe("the pi policy's trigger right after a compaction", () => {
  it("the built-in sample with its first answer after the compaction failed: not the 31,649 tokens measured before it", () => {
    const text = readFileSync("public/samples/pi-english-compaction.jsonl", "utf8");
    let seen = false;
    const lines = text.split("\n").map((line) => {
      if (line.trim() === "") return line;
      const entry = JSON.parse(line) as { type: string; message?: Record<string, unknown> };
      if (entry.type === "compaction") seen = true;
      if (seen && entry.message?.role === "assistant") {
        seen = false;
        Object.assign(entry.message, { stopReason: "error", content: [], usage: usage(0) });
        return JSON.stringify(entry);
      }
      return line;
    });
    // Truth from the file: the compaction recorded tokensBefore 31,649, the context it replaced.
    expect(text).toContain('"tokensBefore":31649');
    const session = readSessionText(lines.join("\n"), "sample.jsonl");
    const { trigger } = simulateCompaction({ session, options: { profile: "pi" }, turn: 31, policyId: "pi", followingTurns: 0, triggerOnly: true });
    expect(trigger.left).toBeLessThan(31649);
    expect(trigger.result).toBe(false);
    expect(trigger.operands[0]!.source).toContain("no response since the latest compaction");
  });
});
