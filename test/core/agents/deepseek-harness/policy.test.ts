// compaction-policies.md §3 (deepseek-harness): table rows 1–11 and the configuration table.
import { describe, expect, it } from "vitest";
import type { RequestHeader } from "../../../../src/core/model";
import { simulateCompaction } from "../../../../src/core/session/simulate/index";
import { selectRange } from "../../../../src/core/agents/deepseek-harness/policy/range";
import { frameCheckpoint } from "../../../../src/core/agents/deepseek-harness/policy/checkpoint";
import { DEEPSEEK_DEFAULTS } from "../../../../src/core/agents/deepseek-harness/policy/config";
import { deepseekBudget } from "../../../../src/core/agents/deepseek-harness/policy/config";
import { COMPACTION_ENGINE_OPENING } from "../../../../src/core/agents/deepseek-harness/policy/instruction";
import { classifyDeepseekRequest } from "../../../../src/core/agents/deepseek-harness/policy/instruction";
import { buildTurnRequest } from "../../../../src/core/session/pipeline";
import { DEEPSEEK_SECTIONS } from "../../../../src/core/agents/deepseek-harness/policy/instruction";
import { syntheticSession, words } from "../../simulate/synthetic";

const header: RequestHeader = {
  api: "openai-completions",
  systemPrompt: "SYSTEM S",
  tools: [{ name: "bash", description: "run", parameters: { type: "object", properties: {} } }],
  extraSettings: {},
  source: "test",
};

// Turn 3's surface: u1, a1, u2, a2, u3; retain 500 tokens reaches a2 → M1..M3 shadowed, a2 and u3 kept.
const session = syntheticSession([
  { role: "user", text: words(100, "alpha") },
  { role: "assistant", text: words(100, "beta"), total: 500 },
  { role: "user", text: words(100, "gamma") },
  { role: "assistant", text: words(100, "delta"), total: 800 },
  { role: "user", text: words(200, "epsilon") },
  { role: "assistant", text: "ok", total: 1200 },
]);

function run(params: Record<string, string | number | boolean | null> = {}, h: RequestHeader | null = header, extra = {}) {
  return simulateCompaction({ session, options: { profile: "pi", header: h }, turn: 3, policyId: "deepseek-harness", parameters: { retainTokens: 500, ...params }, limits: { contextWindow: 1000 }, followingTurns: 0, ...extra });
}

describe("§3 configuration table and CP-DH-1/2", () => {
  it("row 3: window 1,000,000 / 128,000 → threshold and retain", () => {
    expect(deepseekBudget(1_000_000, DEEPSEEK_DEFAULTS)).toEqual({ ok: true, thresholdTokens: 800_000, retainTokens: 160_000 });
    expect(deepseekBudget(128_000, DEEPSEEK_DEFAULTS)).toEqual({ ok: true, thresholdTokens: 102_400, retainTokens: 20_480 });
  });
  it("row 4: retainTokens 120,000 with window 128,000 → configuration error (and the simulation fails)", () => {
    const budget = deepseekBudget(128_000, { ...DEEPSEEK_DEFAULTS, retainTokens: 120_000 });
    expect(budget.ok).toBe(false);
    const r = run({ retainTokens: 900 });
    expect(r.verdict.verdict).toBe("failed");
    expect(r.verdict.message).toMatch(/configuration error/);
    expect(deepseekBudget(null, DEEPSEEK_DEFAULTS).ok).toBe(false);
  });
});

describe("§3 range (CP-DH-5)", () => {
  it("row 5: nodes [u 125k, a, u 125k, a, u 125k, a], retain 100k → compact the first four, keep two", () => {
    const nodes = [125_000, 10, 125_000, 10, 125_000, 10].map((tokens) => ({ tokens, toolCallIds: [], toolResultFor: null }));
    const r = selectRange(nodes, 100_000);
    expect(r).toMatchObject({ kind: "range", boundary: 4, retainStart: 4 });
  });
  it("row 6: a boundary right after an assistant tool call whose result is kept moves before that call", () => {
    const nodes = [
      { tokens: 500, toolCallIds: [], toolResultFor: null },
      { tokens: 10, toolCallIds: ["c1"], toolResultFor: null },
      { tokens: 100, toolCallIds: [], toolResultFor: "c1" },
      { tokens: 10, toolCallIds: [], toolResultFor: null },
    ];
    const r = selectRange(nodes, 100);
    expect(r).toMatchObject({ kind: "range", boundary: 1, retainStart: 2, movedForPairing: true });
    expect(selectRange(nodes, 10_000).kind).toBe("nothing-to-compact");
  });
});

describe("§3 summariser request (CP-DH-7, CP-DH-8)", () => {
  it("row 1: header {S, T}, shadowed M1..M3 → {system S, tools T, messages [M1, M2, M3, user(INSTR)]}", () => {
    const r = run();
    expect(r.partition.summarised[0]!.messageEnd).toBe(3);
    const body = r.summariserRequests[0]!.body as { messages: { role: string; content: unknown }[]; tools: unknown[]; max_completion_tokens: number };
    expect(body.messages[0]).toEqual({ role: "system", content: "SYSTEM S" });
    expect(body.tools).toHaveLength(1);
    expect(body.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "user", "user"]);
    // The head is byte-identical to the routed request (turn 3's main request) up to the range end.
    const routed = buildTurnRequest(session, { profile: "pi", header }, 3).body as { messages: unknown[] };
    expect(JSON.stringify(body.messages.slice(0, 4))).toBe(JSON.stringify(routed.messages.slice(0, 4)));
    expect(JSON.stringify(body.messages[4]!.content)).toContain("compaction engine");
    expect(body.max_completion_tokens).toBe(8192);
    // Byte-identical head: the routed request's first messages.
    expect(r.summariserRequests[0]!.cache!.sharedPrefixTokens).toBeGreaterThan(0);
    expect(r.summariserRequests[0]!.focusPlacement).toBeNull();
  });
  it("row 2: header without system and tools → the request has neither", () => {
    const r = run({}, { ...header, systemPrompt: undefined, tools: undefined });
    const body = r.summariserRequests[0]!.body as { messages: { role: string }[] };
    expect("tools" in body).toBe(false);
    expect(body.messages.some((m) => m.role === "system")).toBe(false);
  });
  it("row 11: a configured summarisation model that differs from the routed one → used, finding cache reuse forfeited", () => {
    const r = run({ summarizationProvider: "deepseek", summarizationModel: "deepseek-v4-flash" });
    expect((r.summariserRequests[0]!.body as { model: string }).model).toBe("deepseek-v4-flash");
    expect(r.findings.some((f) => f.id === "cache-reuse-forfeited")).toBe(true);
    expect(run().findings.some((f) => f.id === "cache-reuse-forfeited")).toBe(false);
  });
});

describe("§3 output, verdicts, events", () => {
  it("compacted: the checkpoint replaces the shadowed range; events in order", () => {
    const r = run({}, header, { summary: { kind: "text", text: "## Primary Request and Intent\n- short" } });
    expect(r.verdict.verdict).toBe("compacted");
    expect(r.after.messages[0]!.provenance.ruleId).toBe("CP-DH-14");
    expect(r.after.messages).toHaveLength(3);
    const events = (r.after.storedRecord!.events as { type: string }[]).map((e) => e.type);
    expect(events).toEqual(["compaction/start", "compaction/summary", "user/message", "compaction/end"]);
  });
  it("row 7: framed checkpoint ≥ shadowed tokens → no-reduction, compaction/end carries the error", () => {
    const r = run({}, header, { summary: { kind: "placeholder", tokens: 2000 } });
    expect(r.verdict.verdict).toBe("no-reduction");
    expect(r.verdict.message).toMatch(/^summary is not smaller than the shadowed content \(\d+ estimated framed tokens >= \d+\)$/);
    const events = r.after.storedRecord!.events as { type: string; error?: unknown }[];
    expect(events[events.length - 1]!.error).toBeDefined();
  });
  it("row 8: finish max-tokens → failed, code MAX_TOKENS, nothing replaced", () => {
    const r = run({ finish: "max-tokens" });
    expect(r.verdict).toMatchObject({ verdict: "failed", code: "MAX_TOKENS" });
    expect(r.after.messages).toHaveLength(0);
  });
  it("CP-DH-3: still at or above the threshold after the attempts → post-compaction-over-budget with the harness message", () => {
    const r = simulateCompaction({ session, options: { profile: "pi", header }, turn: 3, policyId: "deepseek-harness", parameters: { retainTokens: 200, thresholdRatio: 0.3, retainRatio: 0.1 }, limits: { contextWindow: 1000 }, summary: { kind: "text", text: "x" }, followingTurns: 0 });
    expect(r.verdict.verdict).toBe("post-compaction-over-budget");
    expect(r.verdict.message).toMatch(/^compaction still above threshold after \d+ compaction attempts \(\d+ estimated tokens >= threshold 300\)$/);
  });
  it("row 9: classifier — opening words or the eight sections in order; versions", () => {
    expect(classifyDeepseekRequest(`${COMPACTION_ENGINE_OPENING} for the assistant.\nRules:\n- preserve exact paths`)).toEqual({ compaction: true, version: "v0" });
    expect(classifyDeepseekRequest(`${COMPACTION_ENGINE_OPENING} that writes English engineering checkpoints.`).version).toBe("v1");
    expect(classifyDeepseekRequest(`${COMPACTION_ENGINE_OPENING}.\nRules:\n- Write concise English engineering prose.`).version).toBe("v2");
    expect(classifyDeepseekRequest(`Please summarise.\n${DEEPSEEK_SECTIONS.join("\n")}`).compaction).toBe(true);
    expect(classifyDeepseekRequest("Please summarise the chat.").compaction).toBe(false);
  });
  it("row 10: checkpoint from blocks [A, B] → [PREAMBLE + \\n\\n<compacted-summary>, A, B, </compacted-summary>]", () => {
    expect(frameCheckpoint("PRE", ["A", "B"]).content).toEqual([
      { type: "text", text: "PRE\n\n<compacted-summary>" },
      { type: "text", text: "A" },
      { type: "text", text: "B" },
      { type: "text", text: "</compacted-summary>" },
    ]);
  });
  it("English register: v0's instruction raises the finding, v2's does not", () => {
    expect(run({ instructionVersion: "v0" }).findings.some((f) => f.id === "checkpoint-not-english-register")).toBe(true);
    expect(run({ instructionVersion: "v2" }).findings.some((f) => f.id === "checkpoint-not-english-register")).toBe(false);
  });
});
