// senpi's speculative compaction (SP-K6 … SP-K8, code-yeongyu/senpi 8218060f
// extensions/builtin/compaction/policy.ts, index.ts:809-866, speculative.ts:418-454) in the senpi
// policy, on a session written here in senpi's format: the warm job starts at the prompt whose
// usage + pending prompt passes window × ratio × 0.75, prepares the cut on the branch as it was
// then (a split turn → one turn-prefix replay request), and the later blocking compaction applies
// that cut and request.
import { describe, expect, it } from "vitest";
import { simulateCompaction } from "../../../../../src/core/session/simulate/index";
import { effectiveKeepRecentTokens, effectiveThresholdRatio, findSpeculativeStart } from "../../../../../src/core/agents/pi/policies/senpi-speculative";
import { getBranchPath, getPiSessionCache } from "../../../../../src/core/agents/pi/sessionCache";
import { resolveLeafId } from "../../../../../src/core/agents/pi/tree";
import { sessionOf, user, assistant, toolResult } from "../sessionBuilder";

const usage = (input: number) => ({ input, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: input + 10 });
const answer = (id: string, text: string, input: number) => assistant(id, text, { provider: "fake", model: "fake-model", usage: usage(input) });
const call = (id: string, callId: string, input: number) =>
  assistant(id, "", { provider: "fake", model: "fake-model", usage: usage(input), content: [{ type: "toolCall", id: callId, name: "bash", arguments: { command: `cat ${callId}` } }], stopReason: "toolUse" });

// Window 20000, ratio 0.5: blocking at 10000, warm job from 7500.
const session = sessionOf([
  user("u1", "read the readme"),
  call("c1", "k1", 3000),
  toolResult("r1", "k1", "R".repeat(2000)),
  answer("a1", "answer one", 4000),
  user("u2", "read the changelog"),
  call("c2", "k2", 5000),
  toolResult("r2", "k2", "C".repeat(1600)),
  answer("a2", "answer two", 8000), // prompt u3 starts at 8010 + 2 ≥ 7500: warm job
  user("u3", "read the faq"),
  call("c3", "k3", 9000),
  toolResult("r3", "k3", "F".repeat(1600)),
  answer("a3", "answer three", 10500), // prompt 4 would start past 10000: blocking compaction
]);
const options = { profile: "senpi" as const, modelOverrides: { "fake/fake-model": { contextWindow: 20000, maxTokens: 4000 } } };
const simulate = (speculative: boolean) =>
  simulateCompaction({ session, options, turn: 6, policyId: "senpi", parameters: { reserveTokens: 4000, keepRecentTokens: 300, speculative }, followingTurns: 0 });

describe("SP-K6 start threshold", () => {
  it("the warm job starts at the first prompt past window × ratio × fraction, before the blocking threshold", () => {
    const cache = getPiSessionCache(session);
    const path = getBranchPath(cache, resolveLeafId(cache.tree, null)).entries;
    const search = findSpeculativeStart(path, 20000, 0.5, 0.75, 4000);
    expect(search.start?.promptEntryId).toBe("u3");
    expect(search.start?.sentBeforeTurn).toBe(5);
    expect(search.start?.tokens).toBe(8010 + Math.ceil("read the faq".length / 4));
    expect(search.start?.path.map((e) => e.id).at(-1)).toBe("a2");
    // With a lower fraction the earlier prompt u2 (4010 + 5 tokens) already qualifies.
    expect(findSpeculativeStart(path, 20000, 0.5, 0.4, 4000).start?.promptEntryId).toBe("u2");
  });

  it("SP-K7: the adaptive ratio and the keep-recent cap follow senpi's policy.ts", () => {
    expect([16000, 28000, 64000, 128000, 200000].map(effectiveThresholdRatio)).toEqual([0.45, 0.5, 0.55, 0.6, 0.65]);
    expect(effectiveKeepRecentTokens(20000, 28000, 0.5)).toBe(12600);
    expect(effectiveKeepRecentTokens(20000, 1000, 0.5)).toBe(1024);
    expect(effectiveKeepRecentTokens(800, 28000, 0.5)).toBe(800);
  });
});

describe("SP-K8 the warm result applied at the blocking compaction", () => {
  it("without the warm job the cut is computed at the point (inside turn u3)", () => {
    const r = simulate(false);
    expect(r.partition.details.firstKeptEntryId).toBe("a3");
    expect(r.summariserRequests[0]!.sentBeforeTurn).toBeUndefined();
  });

  it("with it, the cut and the single turn-prefix request come from the branch at prompt u3's start", () => {
    const r = simulate(true);
    expect(r.verdict.verdict).toBe("compacted");
    expect(r.partition.details.firstKeptEntryId).toBe("a2");
    expect(r.partition.details.isSplitTurn).toBe(true);
    expect(r.summariserRequests).toHaveLength(1);
    const request = r.summariserRequests[0]!;
    expect(request.role).toBe("turn-prefix");
    expect(request.form).toBe("replay");
    expect(request.sentBeforeTurn).toBe(5);
    // The replayed source runs up to the snapshot's cut: turn 1, then u2's prefix up to r2.
    const data = request.dataPart as { role: string; tool_call_id?: string; content?: unknown }[];
    expect(data.at(-1)).toMatchObject({ role: "tool", tool_call_id: "k2" });
    expect(JSON.stringify(data)).not.toContain("read the faq");
    // Everything from a2 on is kept, including prompt u3's turn.
    expect(r.partition.kept[0]!.entryIds).toEqual(["a2", "u3", "c3", "r3", "a3"]);
    const stored = r.after!.storedRecord as { firstKeptEntryId: string; details: { origin: string; promptVariant: string } };
    expect(stored.firstKeptEntryId).toBe("a2");
    expect(stored.details.origin).toBe("speculative");
    expect(stored.details.promptVariant).toBe("turn_prefix");
    expect(r.findings.find((f) => f.id === "senpi-speculative")!.message).toContain("warm job started at prompt u3");
  });
});

describe("SP-K8 on a recording: a compaction senpi stored with origin speculative", () => {
  it("its summariser request is placed before the turn of the prompt whose estimate equals the recorded tokensBefore", async () => {
    const { rebuildRecordedCompaction } = await import("../../../../../src/core/session/simulate/index");
    const warm = simulate(true).after!.storedRecord as { tokensBefore: number };
    const entries = [
      user("u1", "read the readme"),
      call("c1", "k1", 3000),
      toolResult("r1", "k1", "R".repeat(2000)),
      answer("a1", "answer one", 4000),
      user("u2", "read the changelog"),
      call("c2", "k2", 5000),
      toolResult("r2", "k2", "C".repeat(1600)),
      answer("a2", "answer two", 8000),
      user("u3", "read the faq"),
      call("c3", "k3", 9000),
      toolResult("r3", "k3", "F".repeat(1600)),
      answer("a3", "answer three", 10500),
      {
        id: "cmp1",
        type: "compaction",
        summary: "## Original Request\nread files",
        firstKeptEntryId: "a2",
        tokensBefore: warm.tokensBefore,
        details: { schema: "senpi.compaction.summary.v1", promptVariant: "turn_prefix", origin: "speculative" },
        fromHook: true,
      },
      user("u4", "thanks"),
      answer("a4", "bye", 3000),
    ];
    const recorded = sessionOf(entries);
    const rebuilt = rebuildRecordedCompaction(recorded, options, "cmp1");
    expect(rebuilt.keptMatches).toBe(true);
    expect(rebuilt.requests).toHaveLength(1);
    expect(rebuilt.requests[0]!.sentBeforeTurn).toBe(5);
    expect(rebuilt.requests[0]!.role).toBe("turn-prefix");
    // Same request as the one the warm job sent in the simulation.
    expect(JSON.stringify(rebuilt.requests[0]!.dataPart)).toBe(JSON.stringify(simulate(true).summariserRequests[0]!.dataPart));
    // Not speculative: placed at the compaction.
    const core = sessionOf(entries.map((e) => (e.id === "cmp1" ? { ...e, details: { ...(e.details as object), origin: "core-route" } } : e)));
    expect(rebuildRecordedCompaction(core, options, "cmp1").requests[0]!.sentBeforeTurn).toBeUndefined();
  });
});
