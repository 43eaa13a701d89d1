// What a hermes-agent session's recorded compressions tell about its settings (settings
// inference, src/core/session/simulate/infer). The recorded tail start bounds `tail_token_budget`
// (CP-HA-10: a larger budget walks the tail further back), which hermes derives as
// int(threshold_tokens × summary_target_ratio) (CP-HA-4); the prompt tokens at which it fired bound
// `threshold_tokens`, hence the model's context length (CP-HA-2, CP-HA-3). The threshold is a
// floored, clamped function of the context length, so each bound is found by searching hermes' own
// arithmetic (hermesThresholds), not by inverting a formula.
import type { PolicyInference, SimulationResult, TriggerSetting } from "../../../simulate/types";
import { HERMES_DEFAULTS, hermesThresholds } from "./trigger";

/** Highest context length searched (the threshold is monotone inside each CP-HA-2 band). */
const CONTEXT_SEARCH_MAX = 2 ** 31 - 1;

function numberOf(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/** The CP-HA-2 band the session's context length is in: below it the percent is raised to 0.75. */
function band(context: number): [number, number] {
  return context < HERMES_DEFAULTS.largeContextLength ? [HERMES_DEFAULTS.minimumContextLength, HERMES_DEFAULTS.largeContextLength - 1] : [HERMES_DEFAULTS.largeContextLength, CONTEXT_SEARCH_MAX];
}

function contextSetting(result: SimulationResult): TriggerSetting {
  const maxTokens = numberOf(result.parameters.maxTokens);
  const percent = numberOf(result.parameters.thresholdPercent) ?? HERMES_DEFAULTS.thresholdPercent;
  const thresholdAt = (context: number): number => hermesThresholds({ contextLength: context, maxTokens, thresholdPercent: percent }).thresholdTokens;
  const [lo, hi] = band(result.limits.contextWindow);
  return {
    setting: "contextWindow",
    target: "limit",
    label: "model context_length",
    ruleId: "CP-HA-3",
    fromThreshold: (threshold) => threshold / Math.max(percent, HERMES_DEFAULTS.raisedPercent),
    decreasing: false,
    bound(threshold, side) {
      if (side === "max") {
        // The highest context whose threshold is still ≤ threshold.
        if (thresholdAt(lo) > threshold) return null;
        let a = lo;
        let b = hi;
        while (a < b) {
          const mid = Math.ceil((a + b) / 2);
          if (thresholdAt(mid) <= threshold) a = mid;
          else b = mid - 1;
        }
        return a;
      }
      // The lowest context whose threshold is ≥ threshold.
      if (thresholdAt(hi) < threshold) return null;
      let a = lo;
      let b = hi;
      while (a < b) {
        const mid = Math.floor((a + b) / 2);
        if (thresholdAt(mid) >= threshold) b = mid;
        else a = mid + 1;
      }
      return a;
    },
    assumes: `threshold_percent ${percent}, max_tokens ${maxTokens ?? "None"}, context_length in ${lo}–${hi} (the CP-HA-2 band of the session's ${result.limits.contextWindow}; hermes needs at least ${HERMES_DEFAULTS.minimumContextLength}, CP-HA-1)`,
  };
}

export const hermesInference: PolicyInference = {
  cut: {
    parameter: "tailTokenBudget",
    ruleId: "CP-HA-10",
    position: "count",
    note: "hermes' tail walk (soft ceiling 1.5 × tail_token_budget, at least max(3, min(protect_last_n, 8)) messages, tool groups and the latest user turn kept, CP-HA-10); tail_token_budget = int(threshold_tokens × summary_target_ratio) (CP-HA-4)",
  },
  trigger: contextSetting,
};
