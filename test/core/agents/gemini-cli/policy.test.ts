// The Gemini CLI compression policy on a hand-written chat: the split point (the first user prompt
// after 70 % of the history's characters), the trigger against threshold × token limit, and the
// new-snapshot vs update instruction.
import { describe, expect, it } from "vitest";
import { compressSplitPoint } from "../../../../src/core/agents/gemini-cli/policy/policy";
import { readSessionText } from "../../../../src/core/session/index";
import { simulateCompaction } from "../../../../src/core/session/simulate/index";

const META = { sessionId: "s-1", projectHash: "abc", startTime: "2026-01-01T00:00:00.000Z", kind: "main" };
const user = (id: string, text: string) => ({ id, timestamp: "t", type: "user", content: [{ text }] });
const gemini = (id: string, content: string, input: number) => ({ id, timestamp: "t", type: "gemini", content, model: "gemini-2.5-flash", tokens: { input, output: 1, cached: 0, thoughts: 0, tool: 0, total: input + 1 } });

describe("Gemini CLI compression policy", () => {
  it("splits at the first user prompt at or after the fraction of characters, never at tool results", () => {
    const text = (role: string, size: number) => ({ role, parts: [{ text: "x".repeat(size) }] });
    const calls = { role: "model", parts: [{ functionCall: { name: "ls", args: {} } }] };
    const results = { role: "user", parts: [{ functionResponse: { name: "ls", response: {} } }] };
    // A history that ends with a plain answer is summarised whole.
    expect(compressSplitPoint([text("user", 100), text("model", 100), text("user", 100), text("model", 100)], 0.7)).toBe(4);
    expect(compressSplitPoint([text("user", 100), text("model", 900), text("user", 10), calls], 0.7)).toBe(2);
    // Before the fraction is reached, the last prompt seen; tool results are no split point.
    expect(compressSplitPoint([text("user", 100), text("model", 100), text("user", 100), calls, results, calls], 0.9)).toBe(2);
    expect(compressSplitPoint([text("user", 10), calls, results, calls], 0.5)).toBe(0);
  });

  const lines = [META, user("u1", "a".repeat(400)), gemini("g1", "b".repeat(400), 600000), user("u2", "c".repeat(400)), gemini("g2", "d".repeat(400), 1000), user("u3", "e"), gemini("g3", "f", 1000)];
  const session = readSessionText(lines.map((l) => JSON.stringify(l)).join("\n"), "session-x.jsonl")!;

  it("compresses when the last prompt count reaches threshold × token limit, with both requests", () => {
    const result = simulateCompaction({ session, options: {}, turn: 1, policyId: "gemini-cli", followingTurns: 0 });
    expect(result.trigger.expression).toBe("600000 ≥ 0.5 × 1048576 = 524288 → compress");
    expect(result.verdict.verdict).toBe("compacted");
    expect(result.partition.details.splitPoint).toBe(2);
    const later = simulateCompaction({ session, options: {}, turn: 2, policyId: "gemini-cli", parameters: { tokenLimit: 1000 }, followingTurns: 0 });
    expect(later.trigger.result).toBe(true);
    expect(later.verdict.verdict).toBe("compacted");
    expect(later.summariserRequests.map((r) => r.role)).toEqual(["summary", "verification"]);
    expect(later.summariserRequests[0]!.instructionSlots.map((u) => u.slot)).toEqual(["compressionPrompt", "newSnapshotInstruction"]);
    expect(later.partition.details.splitPoint).toBe(4);
    // Everything summarised: the snapshot and the acknowledgement (described: no compression recorded here).
    const after = later.after.request!.body.contents as { parts: { text: string }[]; role: string }[];
    expect(after.map((c) => c.role)).toEqual(["user", "model"]);
    expect(after[0]!.parts[0]!.text).toBe(later.after.summary!.text);
    expect(after[1]!.parts[0]!.text).toMatch(/instruction not captured/);
  });

  it("does not compress below the threshold", () => {
    const result = simulateCompaction({ session, options: {}, turn: 2, policyId: "gemini-cli", followingTurns: 0 });
    expect(result.trigger.result).toBe(false);
    expect(result.verdict.verdict).toBe("not-triggered");
  });
});
