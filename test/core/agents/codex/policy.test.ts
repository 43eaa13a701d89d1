// The codex policy (inferred from the recording, docs/compaction-policies/codex.md) on fixture
// codex/exec-autocompact: the trigger (FM-CX-14, CP-CX-INF-1), the summarised range and retained
// user messages (CP-CX-INF-2/3), the summariser request (FM-CX-15) against recorded request 009,
// the request fields filled from a capture, and the replacement history after it (FM-CX-17).
import { describe, expect, it } from "vitest";
import { DESCRIBED_SLOT_MARKER, simulateCompaction } from "../../../../src/core/session/simulate/index";
import { readCapturedCodexRequest } from "../../../../src/core/agents/codex/policy/slots";
import { retainedUserMessages } from "../../../../src/core/agents/codex/policy/policy";
import { fixtureCase } from "../../../support/fixtures";

const fixture = fixtureCase("codex/exec-autocompact");
const options = { profile: "pi" as const };
const COMPACTION = "L74";

function run(turn: number, extra: Record<string, unknown> = {}) {
  return simulateCompaction({ session: fixture.session, options, turn, policyId: "codex", parameters: { autoCompactTokenLimit: 13500 }, followingTurns: 0, ...extra });
}

describe("codex trigger (FM-CX-14, CP-CX-INF-1)", () => {
  it("with the fixture's limit 13500 it fires after turn 8 only (total_tokens 13679; turn 6 ended at 13055)", () => {
    expect(run(8).trigger.expression).toBe("13679 ≥ 13500 → compact");
    const fired = Array.from({ length: 15 }, (_, i) => i + 1).filter((turn) => run(turn).trigger.result);
    expect(fired).toEqual([8]);
  });
  it("without a configured limit: floor(0.9 × model_context_window recorded on task_started)", () => {
    const r = simulateCompaction({ session: fixture.session, options, turn: 8, policyId: "codex", followingTurns: 0 });
    expect(r.trigger.right).toBe(Math.floor(0.9 * 258400));
    expect(r.verdict.verdict).toBe("not-triggered");
  });
});

describe("codex summariser request (FM-CX-15) against request 009", () => {
  it("data part equal without captures; the prompt slot is described", () => {
    const recorded = fixture.request(9);
    const r = run(8, { recordedCompactionEntryId: COMPACTION });
    const request = r.summariserRequests[0]!;
    expect(request.dataPart).toEqual(readCapturedCodexRequest(recorded, "009.json")!.dataPart);
    expect(request.body.tools).toEqual([]);
    expect(request.body.parallel_tool_calls).toBe(false);
    const input = request.body.input as { role?: string; id?: string; content: { text: string }[] }[];
    expect(input.at(-1)!.role).toBe("user");
    expect("id" in input.at(-1)!).toBe(false);
    expect(input.at(-1)!.content[0]!.text).toContain(DESCRIBED_SLOT_MARKER);
    const metadata = JSON.parse((request.body.client_metadata as Record<string, string>)["x-codex-turn-metadata"]!) as Record<string, unknown>;
    expect(metadata.request_kind).toBe("compaction");
    expect(metadata.turn_id).toBe("01a228c5-0c4b-7772-97cf-b8c4e050ee8f");
    expect(metadata.compaction).toEqual({ trigger: "auto", reason: "context_limit", implementation: "responses", phase: "pre_turn", strategy: "memento" });
    expect("model" in metadata).toBe(false);
  });

  it("whole body equal when the prompt and the unrecorded request fields come from the recorded request", () => {
    const recorded = fixture.request(9);
    const captured = readCapturedCodexRequest(recorded, "009.json")!;
    const r = run(8, { recordedCompactionEntryId: COMPACTION, instructions: captured.values });
    expect(JSON.stringify(r.summariserRequests[0]!.body)).toBe(JSON.stringify(recorded));
  });

  it("readCaptured rejects main requests (they carry tools)", () => {
    expect(readCapturedCodexRequest(fixture.request(8), "008.json")).toBeNull();
    expect(readCapturedCodexRequest({ input: [], tools: [] }, "x")).toBeNull();
  });
});

describe("codex kept messages and replacement history (CP-CX-INF-3, FM-CX-17)", () => {
  it("keeps the four real user prompts (not the environment context), as the recording's replacement_history", () => {
    const r = run(8, { recordedCompactionEntryId: COMPACTION });
    expect(r.partition.keptIds).toEqual([
      "msg_01a228c5-016e-7471-8c77-67b0178f2e68",
      "msg_01a228c5-0535-7942-88fb-56c79958b766",
      "msg_01a228c5-0771-7de0-8ff9-82ec9ea337d6",
      "msg_01a228c5-09ce-75f1-9bd4-bd7c90ed9210",
    ]);
  });

  it("the request after it equals request 010 without its new prompt (item ids aside): users, re-injected context, last user, summary", () => {
    const r = run(8, { recordedCompactionEntryId: COMPACTION });
    const withoutId = (item: Record<string, unknown>) => JSON.stringify({ ...item, id: undefined });
    const ours = r.after.request!.body.input as Record<string, unknown>[];
    const theirs = (fixture.request(10).input as Record<string, unknown>[]).slice(0, -1);
    expect(ours.map(withoutId)).toEqual(theirs.map(withoutId));
    expect(r.after.summary!.source).toBe("recorded");
  });

  it("the user-message budget keeps the newest messages first", () => {
    const item = (text: string) => ({ type: "message", role: "user", content: [{ type: "input_text", text }] });
    const history = [item("a".repeat(400)), item("<environment_context>x</environment_context>"), item("b".repeat(40)), item("PREFIX summary")];
    expect(retainedUserMessages(history, 20, "PREFIX").map((i) => (i.content as { text: string }[])[0]!.text)).toEqual(["b".repeat(40)]);
    expect(retainedUserMessages(history, 1000, null)).toHaveLength(3);
  });
});
