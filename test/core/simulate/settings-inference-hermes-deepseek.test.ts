// Settings inference for the hermes-agent and deepseek-harness policies. hermes: the exact
// context-length edges of its floored, clamped threshold (own arithmetic), and on the shared
// state.db (a compression written by hand: fired far below any threshold hermes computes, so taken
// as manual; its 4-message tail needs protect_last_n ≤ 4). deepseek-harness on a pi session: the
// thresholdRatio edges are exact (one millionth past either edge flips the trigger), and the two
// recorded cuts disagree on retainTokens, named.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { hermesInference } from "../../../src/core/agents/hermes/policy/inference";
import { hermesThresholds } from "../../../src/core/agents/hermes/policy/trigger";
import { inferSettings, replayRecordedCompactions, simulateCompaction, type SimulationResult } from "../../../src/core/session/simulate/index";
import { describeShared, fixtureCase } from "../../support/fixtures";
import { folderTexts, readDb } from "../agents/hermes/storage/helpers";

function hermesSetting(contextWindow: number, parameters: Record<string, unknown> = {}) {
  return hermesInference.trigger!({ limits: { contextWindow }, parameters } as unknown as SimulationResult)!;
}

describe("hermes: context_length from the threshold", () => {
  const threshold = (context: number) => hermesThresholds({ contextLength: context, maxTokens: null, thresholdPercent: 0.5 }).thresholdTokens;

  it("gives the exact highest and lowest context of a threshold (CP-HA-2, CP-HA-3)", () => {
    const setting = hermesSetting(200000);
    // int(0.75 × C) ≤ 150000 up to C = 200001; ≥ 150000 from C = 200000.
    expect(setting.bound!(150000, "max")).toBe(200001);
    expect(threshold(200001)).toBe(150000);
    expect(threshold(200002)).toBe(150001);
    expect(setting.bound!(150000, "min")).toBe(200000);
    expect(threshold(199999)).toBe(149999);
  });

  it("a threshold below what the smallest context gives is unreachable; the band above 512000 uses the percent itself", () => {
    expect(hermesSetting(200000).bound!(54399, "max")).toBeNull();
    expect(hermesSetting(1000000).bound!(500000, "max")).toBe(1000001);
    expect(hermesSetting(1000000).assumes).toContain("512000–");
  });
});

describe("hermes on a pi session (own committed fixture)", () => {
  const fixture = fixtureCase("pi/print-openai-autocompact");
  const inference = inferSettings(fixture.session, { profile: "pi" }, "hermes", { parameters: { protectFirstN: 0 }, limits: { contextWindow: 64000 } });

  it("bounds the tail budget by each recorded cut and names the two that disagree", () => {
    const tail = inference.settings.find((s) => s.setting === "tailTokenBudget")!;
    expect(tail.conflict).toBe("tailTokenBudget: compaction 2 (after turn 12) needs ≥ 526, compaction 1 (after turn 8) needs ≤ 351");
    const keeps = (tailTokenBudget: number) => replayRecordedCompactions(fixture.session, { profile: "pi" }, "hermes", { parameters: { protectFirstN: 0, tailTokenBudget }, limits: { contextWindow: 64000 } }).map((l) => l.keptMatches);
    expect(keeps(351)[0]).toBe(true);
    expect(keeps(352)[0]).toBe(false);
    expect(keeps(526)[1]).toBe(true);
    expect(keeps(525)[1]).toBe(false);
  });

  it("compactions far below any threshold hermes computes are taken as manual, and listed so", () => {
    expect(inference.recordsManual).toBe(false);
    expect(inference.compactions.map((c) => [c.index, c.turn, c.manual])).toEqual([[1, 8, "assumed"], [2, 12, "assumed"]]);
  });
});

describe("deepseek-harness on a pi session", () => {
  const fixture = fixtureCase("pi/print-openai-autocompact");
  const inference = inferSettings(fixture.session, { profile: "pi" }, "deepseek-harness");
  const fires = (turn: number, thresholdRatio: number) =>
    simulateCompaction({ session: fixture.session, options: { profile: "pi" }, turn, policyId: "deepseek-harness", parameters: { thresholdRatio, retainRatio: 0.001 }, followingTurns: 0 }).trigger.result;

  it("bounds thresholdRatio by the first compaction and the turn before it, to the millionth", () => {
    const ratio = inference.settings.find((s) => s.setting === "thresholdRatio")!;
    expect([ratio.min, ratio.max]).toEqual([0.020102, 0.022312]);
    expect(ratio.bounds.map((b) => [b.side, b.compaction, b.turn])).toEqual([["min", null, 7], ["max", 1, 8]]);
    expect(fires(8, ratio.max!)).toBe(true);
    expect(fires(8, ratio.max! + 1e-6)).toBe(false);
    expect(fires(7, ratio.min!)).toBe(false);
    expect(fires(7, ratio.min! - 1e-6)).toBe(true);
  });

  it("names the compactions whose cuts need different retainTokens", () => {
    const retain = inference.settings.find((s) => s.setting === "retainTokens")!;
    expect(retain.conflict).toBe("retainTokens: compaction 1 (after turn 8) needs ≥ 1721, compaction 2 (after turn 12) needs ≤ 1298");
    expect(inference.consistent).toBe(false);
    const at = (retainTokens: number) => replayRecordedCompactions(fixture.session, { profile: "pi" }, "deepseek-harness", { parameters: { retainTokens, thresholdRatio: 0.5, retainRatio: 0.001 } });
    expect(at(1721)[0]!.keptMatches).toBe(true);
    expect(at(1720)[0]!.keptMatches).toBe(false);
    expect(at(1298)[1]!.keptMatches).toBe(true);
  });
});

describeShared("hermes settings inference on the shared state.db", (shared) => {
  const dir = shared.path("hermes-storage");
  const load = () => readDb(new Uint8Array(readFileSync(`${dir}/state.db`)), { wal: new Uint8Array(readFileSync(`${dir}/state.db-wal`)), sideFiles: folderTexts(`${dir}/sessions`), sessionId: "20261201_090624_dbb368" });

  it("with protect_last_n 20 no tail budget keeps the recorded 4-message tail: the reason is named", async () => {
    const inference = inferSettings(await load(), { profile: "pi" }, "hermes");
    const tail = inference.settings.find((s) => s.setting === "tailTokenBudget")!;
    expect(tail.conflict).toMatch(/no tailTokenBudget reproduces the recorded cut .*: 0 keeps 11 messages \(the record keeps 7\)/);
    expect(inference.notes.join("\n")).toMatch(/compaction 1 \(after turn 10\) fired at 435 tokens, below every threshold .*: taken as manual/);
  });

  it("with protect_last_n 3 the tail budget is 0–65 and the replay keeps what hermes kept", async () => {
    const session = await load();
    const inference = inferSettings(session, { profile: "pi" }, "hermes", { parameters: { protectLastN: 3 } });
    const tail = inference.settings.find((s) => s.setting === "tailTokenBudget")!;
    expect([tail.min, tail.max, tail.conflict]).toEqual([0, 65, null]);
    const [line] = replayRecordedCompactions(session, { profile: "pi" }, "hermes", { parameters: { ...inference.parameters, protectLastN: 3 }, limits: inference.limits });
    expect(line!.keptMatches).toBe(true);
  });
});
