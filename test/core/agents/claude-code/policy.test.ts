// The claude-code policy (inferred from the recording, docs/compaction-policies/claude-code.md) on
// fixture claude/print-autocompact-manualcompact: the trigger arithmetic (CP-CC-INF-1/2), the kept
// messages (CP-CC-INF-3), the summariser request shape (FM-CC-16) against recorded requests 009
// (automatic) and 015 (manual), instruction slots and captured request fields, and the focus.
import { describe, expect, it } from "vitest";
import { DESCRIBED_SLOT_MARKER, getPolicy, simulateCompaction } from "../../../../src/core/session/simulate/index";
import { readCapturedClaudeRequest } from "../../../../src/core/agents/claude-code/policy/slots";
import { fixtureCase } from "../../../support/fixtures";

const fixture = fixtureCase("claude/print-autocompact-manualcompact");
const options = { profile: "pi" as const };
const AUTO = "09498dd3-ca58-431b-9ead-33cea7249e55";
const MANUAL = "654d4815-2908-496a-998e-badfe7b19592";

function run(turn: number, extra: Record<string, unknown> = {}) {
  return simulateCompaction({ session: fixture.session, options, turn, policyId: "claude-code", parameters: { autoCompactWindow: 100000 }, followingTurns: 0, ...extra });
}

describe("claude-code trigger (CP-CC-INF-1, CP-CC-INF-2)", () => {
  it("fires only after turn 8: preTokens 95084 = usage 95068 + round(65/4) for the pending prompt, threshold 100000 − 20000 − 13000", () => {
    const r = run(8);
    expect(r.trigger.left).toBe(95084);
    expect(r.trigger.expression).toBe("95084 ≥ 100000 − 20000 − 13000 = 67000 → compact");
    expect(r.verdict.verdict).toBe("compacted");
    const fired = Array.from({ length: 15 }, (_, i) => i + 1).filter((turn) => run(turn).trigger.result);
    expect(fired).toEqual([8]);
  });
  it("without the window override the model's window applies; manual skips the trigger", () => {
    const r = simulateCompaction({ session: fixture.session, options, turn: 13, policyId: "claude-code", limits: { contextWindow: 200000 }, followingTurns: 0 });
    expect(r.trigger.right).toBe(200000 - 20000 - 13000);
    expect(r.verdict.verdict).toBe("not-triggered");
    expect(run(13, { manual: true }).verdict.verdict).toBe("compacted");
  });
});

describe("claude-code partition (CP-CC-INF-3)", () => {
  it("automatic: keeps the last answer and the pending prompt (the recorded preservedMessages)", () => {
    const r = run(8, { recordedCompactionEntryId: AUTO });
    expect(r.partition.keptIds).toEqual(["6b37389b-8084-4b00-a806-f473d94e20d8", "3b431d23-9e08-43ae-82e8-798187941a74"]);
    // Summarised: every message of turn 8's request (the data part holds them plus the answer).
    expect(r.partition.summarised[0]!.messageEnd).toBe((r.summariserRequests[0]!.dataPart as unknown[]).length - 1);
  });
  it("manual: keeps the last answer only", () => {
    expect(run(13, { manual: true, recordedCompactionEntryId: MANUAL }).partition.keptIds).toEqual(["f02e83cf-c474-428c-919b-81b537cc7a86"]);
  });
});

describe("claude-code summariser request (FM-CC-16) against the recordings", () => {
  for (const [turn, entryId, number, manual] of [[8, AUTO, 9, false], [13, MANUAL, 15, true]] as const) {
    it(`request ${number}: data part equal without captures; whole body equal with the slots from the recording`, () => {
      const recorded = fixture.request(number);
      const captured = readCapturedClaudeRequest(recorded, `${number}.json`)!;
      const bare = run(turn, { recordedCompactionEntryId: entryId, manual });
      const request = bare.summariserRequests[0]!;
      expect(request.dataPart).toEqual(captured.dataPart);
      const messages = request.body.messages as { role: string; content: unknown }[];
      expect(messages[messages.length - 1]!.role).toBe("user");
      expect(String(messages[messages.length - 1]!.content)).toContain(DESCRIBED_SLOT_MARKER);
      expect(bare.findings.some((f) => f.id === "instruction-slot-described")).toBe(true);
      const filled = run(turn, { recordedCompactionEntryId: entryId, manual, instructions: captured.values });
      expect(JSON.stringify(filled.summariserRequests[0]!.body)).toBe(JSON.stringify(recorded));
      expect(filled.summariserRequests[0]!.instructionSlots.every((use) => use.filledFrom === "captured")).toBe(true);
    });
  }

  it("moves the message cache breakpoint to the answer's last block; system, tools and parameters are the main request's", () => {
    const r = run(8);
    const main = fixture.request(8);
    const body = r.summariserRequests[0]!.body;
    for (const key of ["tools", "max_tokens", "thinking", "context_management", "output_config"]) expect(body[key]).toEqual(main[key]);
    const messages = body.messages as { content: unknown }[];
    const marked = messages.filter((m) => JSON.stringify(m).includes("cache_control"));
    expect(marked).toHaveLength(1);
    expect(marked[0]).toBe(messages[messages.length - 2]);
    expect(r.summariserRequests[0]!.cache!.sharedPrefixTokens).toBeGreaterThan(0);
  });

  it("a focus is appended after the prompt (CP-CC-INF-5) and is read back from a capture", () => {
    const captured = readCapturedClaudeRequest(fixture.request(15), "015.json")!;
    const r = run(13, { manual: true, focus: "Only the store module", instructions: captured.values });
    const body = r.summariserRequests[0]!.body;
    const last = (body.messages as { content: string }[]).at(-1)!.content;
    expect(last.endsWith("\n\nAdditional Instructions:\nOnly the store module")).toBe(true);
    expect(readCapturedClaudeRequest(body, "x")!.focus).toBe("Only the store module");
    expect(r.findings.some((f) => f.id === "user-text-in-system-slot")).toBe(false);
  });

  it("readCaptured rejects a main request and a non-Claude body", () => {
    expect(readCapturedClaudeRequest(fixture.request(8), "008.json")).toBeNull();
    expect(readCapturedClaudeRequest({ messages: [] }, "x")).toBeNull();
    expect(getPolicy("claude-code").extractInstructions!(fixture.request(9), "009.json")!.slots.compactPrompt).toMatch(/<summary>/);
  });

  it("after the compaction: continuation message (recorded), the kept answer and prompt", () => {
    const r = run(8, { recordedCompactionEntryId: AUTO });
    const messages = r.after.request!.body.messages as { role: string; content: unknown }[];
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(String(messages[0]!.content)).toMatch(/^This session is being continued from a previous conversation/);
    expect(r.after.summary!.source).toBe("recorded");
    expect(r.tokens.after).toBeLessThan(r.tokens.before);
  });

  it("refuses a session of another agent", () => {
    const pi = fixtureCase("pi/print-openai-autocompact");
    expect(() => simulateCompaction({ session: pi.session, options, turn: 2, policyId: "claude-code" })).toThrow(/works on a Claude Code transcript/);
  });
});
