// What a pi-family session's recorded compactions tell about its settings (settings inference,
// src/core/session/simulate/infer): the cut point bounds keepRecentTokens (PI-K10 … PI-K12), the usage at
// which automatic compaction fired bounds the trigger — pi: reserveTokens = window − threshold
// (CP-PI-1); senpi with its adaptive ratio: window = threshold ÷ ratio (CP-SE-INF-1).
import type { PolicyInference, SimulationResult, TriggerSetting } from "../../../simulate/types";

function operand(result: SimulationResult, name: string): number | null {
  return result.trigger.operands.find((o) => o.name === name)?.value ?? null;
}

const KEEP_RECENT = { parameter: "keepRecentTokens", ruleId: "PI-K10", note: "pi's cut walk and valid cut points (PI-K10 … PI-K12), run by pi's own code" } as const;

function reserveFromThreshold(result: SimulationResult): TriggerSetting {
  const window = result.limits.contextWindow;
  return {
    setting: "reserveTokens",
    target: "parameter",
    label: "reserveTokens",
    ruleId: "CP-PI-1",
    fromThreshold: (threshold) => window - threshold,
    decreasing: true,
    assumes: `context window ${window} (${result.limits.contextWindowSource}); the trigger fixes window − reserveTokens`,
  };
}

export const piInference: PolicyInference = {
  cut: KEEP_RECENT,
  trigger: reserveFromThreshold,
};

export const senpiInference: PolicyInference = {
  cut: KEEP_RECENT,
  trigger(result) {
    const ratio = operand(result, "thresholdRatio");
    if (ratio === null || ratio <= 0) return reserveFromThreshold(result);
    return {
      setting: "contextWindow",
      target: "limit",
      label: "context window",
      ruleId: "CP-SE-INF-1",
      fromThreshold: (threshold) => threshold / ratio,
      decreasing: false,
      assumes: `threshold ratio ${ratio} (CP-SE-INF-1); the trigger fixes ratio × window`,
    };
  },
};
