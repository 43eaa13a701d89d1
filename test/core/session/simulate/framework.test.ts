// The simulator framework (CP-0-1 … CP-0-4): registry, limits, parameters, summary sources,
// instruction slots, prefix comparison, whole-session replay and policy comparison.
import { describe, expect, it } from "vitest";
import {
  cacheEffect,
  comparePolicies,
  commonPrefixLength,
  DESCRIBED_SLOT_MARKER,
  fillSlot,
  findPrefixBreak,
  getPolicy,
  makeVerdict,
  mergeSlotValues,
  placeholderSummary,
  POLICIES,
  replaySession,
  resolveLimits,
  resolveSummary,
  simulateCompaction,
  VERDICTS,
  withoutRecordedCompactions,
} from "../../../../src/core/session/simulate/index";
import { resolveModel } from "../../../../src/core/models/catalogue";
import { fixtureCase } from "../../../support/fixtures";

const print = fixtureCase("pi/print-openai-autocompact");

describe("policy registry", () => {
  it("knows every policy id (claude-code and codex inferred from recordings); unknown ids are rejected", () => {
    for (const id of ["pi", "senpi", "deepseek-harness", "hermes", "opencode", "claude-code", "codex"]) expect(getPolicy(id).id).toBe(id);
    expect(() => getPolicy("nope")).toThrow(/unknown policy/);
    for (const policy of POLICIES.filter((p) => ["pi", "senpi", "deepseek-harness", "claude-code", "codex"].includes(p.id))) {
      for (const p of policy.parameters) if (p.inferred) expect(p.inferred).toBe(p.ruleId);
      expect(policy.checkedVerdicts.every((v) => VERDICTS.includes(v))).toBe(true);
    }
  });
  it("CP-0-4: unchecked verdicts are listed as not checked", () => {
    const v = makeVerdict(getPolicy("pi"), "compacted", "CP-PI-5");
    expect(v.notChecked).toContain("cycle-guard-stop");
    expect(v.checked).not.toContain("cycle-guard-stop");
  });
});

describe("CP-0-1 limits", () => {
  it("default to the model's values and can be overridden, with their source", () => {
    const model = resolveModel({ provider: "openai", modelId: "gpt-4o" }, "openai-completions");
    const base = resolveLimits(model);
    expect(base.contextWindow).toBe(model.contextWindow);
    const over = resolveLimits(model, { contextWindow: 1234, inputLimit: 99 });
    expect(over).toMatchObject({ contextWindow: 1234, contextWindowSource: "override", inputLimit: 99, maxOutputTokens: model.maxTokens });
  });
});

describe("CP-0-3 summary text", () => {
  it("prefers user text, then the recorded summary, then a labelled placeholder of the chosen size", () => {
    const session = print.session;
    expect(resolveSummary({ session, source: { kind: "text", text: "mine" }, recorded: "rec", headings: [] }).source).toBe("text");
    expect(resolveSummary({ session, source: undefined, recorded: "rec", headings: [] }).text).toBe("rec");
    const p = resolveSummary({ session, source: { kind: "placeholder", chars: 500 }, recorded: null, headings: ["## Goal", "## Next Steps"] });
    expect(p.source).toBe("placeholder");
    expect(p.text.length).toBe(500);
    expect(p.text).toContain("## Goal");
    expect(p.label).toMatch(/not model output/);
  });
  it("default placeholder size: the mean recorded summary length, else 2000 characters", () => {
    const mean = resolveSummary({ session: print.session, source: { kind: "placeholder" }, recorded: null, headings: ["## Goal"] });
    const recorded = print.session.entries.filter((e) => e.type === "compaction").map((e) => String(e.raw.summary).length);
    expect(mean.text.length).toBe(Math.round(recorded.reduce((a, b) => a + b, 0) / recorded.length));
    const none = resolveSummary({ session: { ...print.session, entries: [] }, source: undefined, recorded: null, headings: ["## Goal"] });
    expect(none.text.length).toBe(2000);
    expect(placeholderSummary(["## A"], 100).startsWith("[placeholder")).toBe(true);
  });
});

describe("instruction slots (issue item 6)", () => {
  const spec = { slot: "s", label: "the slot", description: "(what it says)", ruleId: "X-1" };
  it("a captured slot is used as is, an empty slot holds our description behind a visible marker", () => {
    expect(fillSlot(spec, { slots: { s: "REAL" }, sources: { s: "009.json" } })).toEqual({ text: "REAL", captured: true, use: { slot: "s", filledFrom: "captured", source: "009.json" } });
    const described = fillSlot(spec, undefined);
    expect(described.text.startsWith(DESCRIBED_SLOT_MARKER)).toBe(true);
    expect(described.text).toContain("(what it says)");
    expect(described.use.filledFrom).toBe("description");
  });
  it("merging keeps the first value of a slot", () => {
    expect(mergeSlotValues({ slots: { a: "1" } }, { slots: { a: "2", b: "3" } }).slots).toEqual({ a: "1", b: "3" });
  });
});

describe("prefix comparison and cache estimate", () => {
  it("finds the first differing message and counts the shared prefix", () => {
    const a = { system: "S", messages: [{ role: "user", content: "one" }, { role: "assistant", content: "two" }] };
    const b = { system: "S", messages: [{ role: "user", content: "one" }, { role: "user", content: "summary" }] };
    expect(findPrefixBreak(a, b, "r")!.messageIndex).toBe(1);
    expect(findPrefixBreak(a, { ...a, messages: [...a.messages, { role: "user", content: "3" }] }, "r")).toBeNull();
    expect(findPrefixBreak(a, { ...b, system: "T" }, "r")!.messageIndex).toBe(-1);
    expect(commonPrefixLength("abcd", "abxd")).toBe(2);
    expect(cacheEffect("ref", null, a).note).toMatch(/^cold/);
    expect(cacheEffect("ref", a, a).sharedPrefixTokens).toBe(cacheEffect("ref", a, a).totalTokens);
  });
});

describe("whole-session replay and policy comparison (issue item 5)", () => {
  const params = { reserveTokens: 11600, keepRecentTokens: 1800 };
  it("recorded compactions are removed before the replay", () => {
    const stripped = withoutRecordedCompactions(print.session);
    expect(stripped.entries.some((e) => e.type === "compaction")).toBe(false);
    expect(stripped.entries.find((e) => e.id === "746ac1d7")!.parentId).toBe("7c0b24df");
  });
  it("pi fires where the recorded session compacted first (after turn 8) and reports totals", () => {
    const replay = replaySession(print.session, { profile: "pi" }, "pi", { parameters: params, limits: { contextWindow: 16000 } });
    expect(replay.turns).toHaveLength(15);
    expect(replay.compactions[0]).toBe(8);
    expect(replay.turns.slice(0, 7).every((t) => !t.fired)).toBe(true);
    expect(replay.totals.tokensSent).toBe(replay.turns.reduce((a, t) => a + t.tokensSent, 0));
    const never = replaySession(print.session, { profile: "pi" }, "pi", { parameters: params, limits: { contextWindow: 1_000_000 } });
    expect(never.compactions).toEqual([]);
    const cmp = comparePolicies(replay, never);
    expect(cmp.difference.compactions).toBe(-replay.compactions.length);
    expect(cmp.b.tokensSent).toBeGreaterThan(cmp.a.tokensSent);
  });
  it("simulateCompaction rejects a turn that does not exist", () => {
    expect(() => simulateCompaction({ session: print.session, options: { profile: "pi" }, turn: 99, policyId: "pi" })).toThrow(/does not exist/);
  });
});
