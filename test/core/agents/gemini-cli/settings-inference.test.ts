// Settings inference for Gemini CLI's chat compression on its shared recording: the compression
// that fired at 600,000 prompt tokens bounds model.compressionThreshold from above, the turn
// before it (15,416 tokens, no compression) from below; both bounds are fractions of the model's
// token limit, rounded inwards to four decimals, so the trigger still fires (and still does not)
// at the bound itself.
import { expect, it } from "vitest";
import { geminiInference } from "../../../../src/core/agents/gemini-cli/policy/inference";
import { inferSettings, simulateCompaction, type SimulationResult } from "../../../../src/core/session/simulate/index";
import { describeShared } from "../../../support/fixtures";

function setting(tokenLimit: number) {
  const result = { trigger: { operands: [{ name: "tokenLimit", value: tokenLimit, source: "parameter tokenLimit" }] } } as unknown as SimulationResult;
  return geminiInference.trigger!(result)!;
}

it("maps a threshold to the fraction of the token limit, rounded inwards", () => {
  const limit = 1_048_576;
  expect(setting(limit).bound!(600000, "max")).toBe(0.5722);
  expect(setting(limit).bound!(15417, "min")).toBe(0.0148);
  expect(setting(1000).bound!(500, "max")).toBe(0.5);
  expect(setting(1000).bound!(500, "min")).toBe(0.5);
  expect(setting(limit).assumes).toBe("model token limit 1,048,576 (parameter tokenLimit)");
});

it("a result without a token limit names no setting", () => {
  expect(geminiInference.trigger!({ trigger: { operands: [] } } as unknown as SimulationResult)).toBeNull();
});

describeShared("Gemini CLI settings inference (p-resume-autocompress)", (shared) => {
  const fixture = shared.case("gemini-cli/p-resume-autocompress");
  const options = { profile: "gemini-cli" } as const;
  const inference = inferSettings(fixture.session, options, "gemini-cli");
  const threshold = inference.settings.find((s) => s.setting === "compressionThreshold")!;

  it("bounds compressionThreshold by the compression and the turn before it, and keeps the default that fits", () => {
    expect(inference.consistent).toBe(true);
    expect([threshold.min, threshold.max, threshold.value]).toEqual([0.0148, 0.5722, 0.5]);
    expect(threshold.bounds.map((b) => [b.side, b.turn, b.compaction])).toEqual([["min", 6, null], ["max", 7, 1]]);
    expect(inference.progress.complete).toBe(true);
  });

  it("the trigger fires after turn 7 at the upper bound and not after turn 6 at the lower one", () => {
    const fires = (turn: number, compressionThreshold: number) =>
      simulateCompaction({ session: fixture.session, options, turn, policyId: "gemini-cli", parameters: { compressionThreshold }, followingTurns: 0 }).trigger.result;
    expect(fires(7, threshold.max!)).toBe(true);
    expect(fires(7, threshold.max! + 0.0001)).toBe(false);
    expect(fires(6, threshold.min!)).toBe(false);
  });
});
