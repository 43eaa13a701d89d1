// The deepseek-harness pipeline against the recorded session: every conversation request and the
// title request rebuilt from the session file alone equal the recorded bodies byte for byte (as
// JSON text); the compaction request equals request 013 once the instruction text (a constant of
// the harness's code, never logged) comes from the captured request. A failed compaction is a
// failed compaction row, never a turn; a fork child opened with its parent is its thread.
import { beforeAll, describe, expect, it } from "vitest";
import type { Session } from "../../../../src/core/model";
import { analyzeSession, buildTurnRequest, countTurns, simulateCompaction } from "../../../../src/core/session/index";
import { linkSessions } from "../../../../src/core/session/threads";
import { compactionRequest } from "../../../../src/core/agents/deepseek-harness/auxiliary";
import { harnessIndex } from "../../../../src/core/agents/deepseek-harness/sessionIndex";
import { deepseekHarnessAgent } from "../../../../src/core/agents/deepseek-harness/agent";
import { DESCRIBED_SLOT_MARKER } from "../../../../src/core/simulate/instruction-slots";
import { readForked, readRecorded, recorded } from "./helpers";

const OPTIONS = {};

describe("deepseek-harness pipeline (headless-deepseek-manualcompact)", () => {
  let session: Session;
  beforeAll(async () => {
    session = await readRecorded();
  });

  it("finds one turn per conversation request", () => {
    expect(recorded.requests("main")).toHaveLength(14);
    expect(countTurns(session, OPTIONS)).toBe(14);
  });

  it("rebuilds every conversation request byte for byte from the session file", () => {
    const mismatches: string[] = [];
    recorded.requests("main").forEach((request, k) => {
      const built = buildTurnRequest(session, OPTIONS, k + 1);
      if (JSON.stringify(built.body) !== JSON.stringify(request.body)) mismatches.push(request.id);
      expect(built.notRecorded).toEqual([]);
    });
    expect(mismatches).toEqual([]);
  });

  it("rebuilds the title request (002) as an auxiliary request", () => {
    const analysis = analyzeSession(session, OPTIONS);
    expect(analysis.auxiliary?.map((event) => [event.purpose, event.beforeTurn, event.label])).toEqual([
      ["title", 1, "Session title request"],
      ["summary", 12, "Compaction request (/compact)"],
    ]);
    const title = deepseekHarnessAgent.auxiliary.build(session, OPTIONS, 0).request;
    expect(JSON.stringify(title.body)).toBe(JSON.stringify(recorded.request(2)));
  });

  it("rebuilds the compaction request (013) with the recorded instruction text, and marks it described without", () => {
    const expected = recorded.request(13) as { messages: { content: string }[] };
    const record = harnessIndex(session).compactions[0]!;
    const instruction = expected.messages[expected.messages.length - 1]!.content;
    const filled = compactionRequest(session, OPTIONS, record, { slots: { "compactionInstruction.v2": instruction }, sources: {} });
    expect(JSON.stringify(filled.body)).toBe(JSON.stringify(expected));
    const described = deepseekHarnessAgent.auxiliary.build(session, OPTIONS, 1).request;
    const messages = described.body.messages as { content: string }[];
    expect(messages[messages.length - 1]!.content.startsWith(DESCRIBED_SLOT_MARKER)).toBe(true);
    expect(JSON.stringify(messages.slice(0, -1))).toBe(JSON.stringify(expected.messages.slice(0, -1)));
    expect(described.notRecorded).toEqual(["compaction instruction"]);
  });

  it("shows the manual compaction before turn 12 with what it kept, and turn 12 after it", () => {
    const analysis = analyzeSession(session, OPTIONS);
    const compactions = analysis.timeline.filter((item) => item.kind === "compaction");
    expect(compactions).toEqual([expect.objectContaining({ entryId: "seq-208", beforeTurn: 12, tokensBefore: 1096, firstKeptEntryId: "seq-202" })]);
    expect(compactions[0]).not.toHaveProperty("failed");
    expect(analysis.turns.filter((turn) => turn.afterCompaction).map((turn) => turn.turn)).toEqual([12]);
    expect(analysis.turns[0]!.usage).toEqual({ input: 8026, output: 20, cacheRead: 0, cacheWrite: 0, totalTokens: 8046 });
    expect(analysis.turns[0]!.stopReason).toBe("tool-calls");
    const points = deepseekHarnessAgent.recorded.points!(session, OPTIONS);
    expect(points).toEqual([{ entryId: "seq-208", turn: 11, manual: true, recordedKept: ["seq-202"] }]);
  });

  it("re-runs the recorded compaction with the deepseek-harness policy in the harness's wire shape", () => {
    const result = simulateCompaction({ session, options: OPTIONS, turn: 11, policyId: "deepseek-harness", manual: true, recordedCompactionEntryId: "seq-208", parameters: { retainTokens: 30 } });
    const request = result.summariserRequests[0]!;
    const expected = recorded.request(13) as { messages: unknown[] };
    const body = request.body as { messages: unknown[]; max_tokens: number; reasoning_effort: string };
    expect(body.max_tokens).toBe(8192);
    expect(body.reasoning_effort).toBe("high");
    // The policy's own range: the same head (system, first messages) as the harness's request.
    expect(JSON.stringify(body.messages.slice(0, 5))).toBe(JSON.stringify(expected.messages.slice(0, 5)));
    expect(result.after.summary?.source).toBe("recorded");
    // The window the session logged for the route (request/context), not the catalogue's default.
    expect(result.limits).toMatchObject({ contextWindow: 1_000_000, contextWindowSource: "session" });
  });
});

describe("deepseek-harness failed compaction and fork child (fork-failed-compaction)", () => {
  it("shows a failed compaction as a failed compaction row, not a turn and not an auxiliary request", () => {
    const parent = readForked("session-parent-1");
    const analysis = analyzeSession(parent, OPTIONS);
    expect(analysis.turns).toHaveLength(3);
    const rows = analysis.timeline.map((item) => (item.kind === "turn" ? `turn ${item.turn}` : item.kind));
    expect(rows).toEqual(["turn 1", "turn 2", "compaction", "turn 3"]);
    const failed = analysis.timeline.find((item) => item.kind === "compaction");
    expect(failed).toMatchObject({ beforeTurn: 3, failed: "summary is not smaller than the shadowed content (221 estimated framed tokens >= 221)" });
    expect(analysis.auxiliary).toEqual([]);
    expect(deepseekHarnessAgent.recorded.points!(parent, OPTIONS)).toEqual([]);
    expect(deepseekHarnessAgent.recorded.rebuildPolicy(parent, (failed as { entryId: string }).entryId)).toBeNull();
  });

  it("links the fork child to its parent as a thread started by the fork call; its own requests start after the seed", () => {
    const parent = readForked("session-parent-1");
    const child = readForked("session-child-1");
    const linked = linkSessions([child, parent]);
    expect(linked.unlinked).toEqual([]);
    expect(linked.session.header?.id).toBe("session-parent-1");
    expect(linked.session.threads?.map((thread) => [thread.id, thread.label, thread.parentThreadId, thread.spawnedBy])).toEqual([
      ["session-child-1", "test checker (fork)", null, { entryId: "seq-5", toolCallId: "call_1", toolName: "subagent_fork" }],
    ]);
    expect(countTurns(child, OPTIONS)).toBe(1);
    const request = buildTurnRequest(child, OPTIONS, 1).body as { messages: { role: string; content: string }[] };
    // The seeded prefix (the parent's prompt and fork call) is on the child's surface.
    expect(request.messages.map((message) => message.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(request.messages[3]!.content).toBe("Check the tests and report.");
  });
});
