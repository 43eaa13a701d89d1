// deepseek-harness: the model-free tool-result prune before compaction (CP-DH-3) and the provider
// overflow recovery (CP-DH-4), against dsh-compaction-tool-result-pruner's head/marker/tail form.
import { describe, expect, it } from "vitest";
import { simulateCompaction } from "../../../../src/core/session/simulate/index";
import { DEEPSEEK_PRUNE_MARKER, deepseekPruneConfigError, pruneToolResultContent } from "../../../../src/core/agents/deepseek-harness/policy/prune";
import { syntheticSession, words } from "../../simulate/synthetic";

const cfg = { thresholdChars: 20, headChars: 4, tailChars: 3 };

describe("CP-DH-3 tool-result pruner content", () => {
  it("keeps head and tail code points around one marker; within the threshold: unchanged", () => {
    expect(pruneToolResultContent([{ type: "text", text: "a".repeat(20) }], { ...cfg, thresholdChars: 20 })).toBeNull();
    const out = pruneToolResultContent([{ type: "text", text: "0123456789abcdefghijXYZ" }], { thresholdChars: 22, headChars: 4, tailChars: 3 });
    expect(out).toEqual([{ type: "text", text: `0123${DEEPSEEK_PRUNE_MARKER}XYZ` }]);
  });
  it("spans blocks: the marker once, non-text blocks keep their place, emptied text blocks dropped, code points not units", () => {
    const image = { type: "image" as const, data: "AA", mimeType: "image/png" };
    const out = pruneToolResultContent([{ type: "text", text: "😀😀😀😀😀" }, image, { type: "text", text: "middle-only" }, { type: "text", text: "endXYZ" }], { thresholdChars: 21, headChars: 4, tailChars: 3 });
    expect(out).toEqual([{ type: "text", text: `😀😀😀😀${DEEPSEEK_PRUNE_MARKER}` }, image, { type: "text", text: "XYZ" }]);
  });
  it("the package's configuration check", () => {
    expect(deepseekPruneConfigError({ thresholdChars: 8192, headChars: 4096, tailChars: 1024 })).toBeNull();
    expect(deepseekPruneConfigError({ thresholdChars: 100, headChars: 60, tailChars: 20 })).toMatch(/must be at most thresholdChars \(100\)/);
  });
});

// u1, a1(call), tool(40,000 chars), a1', u2, a2, u3 — the big tool result dominates the measure.
const big = "line of tool output\n".repeat(2000);
const session = syntheticSession([
  { role: "user", text: words(50, "alpha") },
  { role: "assistant", text: "reading", calls: [{ id: "t1", name: "bash", args: { command: "cat log" } }] },
  { role: "toolResult", id: "t1", name: "bash", text: big },
  { role: "assistant", text: words(50, "beta"), total: 11000 },
  { role: "user", text: words(50, "gamma") },
  { role: "assistant", text: words(50, "delta"), total: 11500 },
  { role: "user", text: words(50, "epsilon") },
  { role: "assistant", text: "ok", total: 12000 },
]);
const run = (parameters: Record<string, string | number | boolean | null>, contextWindow = 12000) =>
  simulateCompaction({ session, options: { profile: "pi" }, turn: 4, policyId: "deepseek-harness", parameters, limits: { contextWindow }, followingTurns: 0 });

describe("CP-DH-3 prune before the range", () => {
  it("a prune that brings the request below the threshold compacts nothing; the next request carries the marker", () => {
    const r = run({});
    expect(r.trigger.result).toBe(true);
    expect(r.verdict.verdict).toBe("not-triggered");
    expect(r.verdict.ruleId).toBe("CP-DH-3");
    expect(r.summariserRequests).toEqual([]);
    expect(r.partition.pruned).toHaveLength(1);
    expect(JSON.stringify(r.after.request?.body)).toContain("[... tool result middle pruned ...]");
    expect(r.tokens.after).toBeLessThan(r.tokens.before);
  });
  it("with the pruner not mounted the same turn compacts, and the replayed messages are unpruned", () => {
    const r = run({ pruneToolResults: false });
    expect(r.partition.pruned).toEqual([]);
    expect(r.summariserRequests).toHaveLength(1);
    expect(JSON.stringify(r.summariserRequests[0]!.body)).not.toContain("tool result middle pruned");
  });
  it("still over the threshold after the prune: the range is chosen on the pruned surface, the prune event precedes the compaction", () => {
    const r = run({ pruneThresholdChars: 38000, pruneHeadChars: 35000, pruneTailChars: 1000 }, 11000);
    expect(r.partition.pruned).toHaveLength(1);
    expect(r.summariserRequests).toHaveLength(1);
    // The retain walk stops on the tool result; pairing moves the boundary before its call, so
    // only u1 is shadowed and the (synthetic) summary is not smaller than it.
    expect(r.partition.details.boundary).toBe(1);
    expect(r.partition.details.measureAfterPrune).toBeGreaterThanOrEqual(8800);
    expect(r.verdict.verdict).toBe("no-reduction");
    expect((r.after.storedRecord as { events: { type: string }[] }).events[0]!.type).toBe("compaction/prune");
  });
});

describe("CP-DH-4 provider overflow", () => {
  it("compacts once with retain 0, keeping only the newest node, whatever the threshold says", () => {
    const r = run({ providerOverflow: true, pruneToolResults: false }, 1_000_000);
    expect(r.trigger.ruleId).toBe("CP-DH-4");
    expect(r.verdict).toMatchObject({ verdict: "compacted", ruleId: "CP-DH-4" });
    expect(r.partition.details.retainTokens).toBe(0);
    expect(r.after.messages).toHaveLength(2);
  });
  it("maxOverflowRetries 0: the error reaches the turn", () => {
    const r = run({ providerOverflow: true, maxOverflowRetries: 0 }, 1_000_000);
    expect(r.verdict.verdict).toBe("failed");
    expect(r.verdict.message).toMatch(/maxOverflowRetries 0/);
  });
});
