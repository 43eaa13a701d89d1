// What a session's recorded compactions tell about deepseek-harness settings (settings inference,
// src/core/session/simulate/infer), when the harness's policy is run on another agent's session: the
// recorded cut bounds `retainTokens` (CP-DH-2, CP-DH-5: a larger retain budget keeps a longer
// tail), and the usage at which it fired bounds `thresholdRatio`, since
// thresholdTokens = floor(window × thresholdRatio) (CP-DH-1). The ratio is a real number: each
// bound is the exact edge, to six decimals.
import type { PolicyInference } from "../../../simulate/types";

/** Decimals of an inferred ratio. */
const RATIO_SCALE = 1e6;

export const deepseekInference: PolicyInference = {
  cut: { parameter: "retainTokens", ruleId: "CP-DH-5", note: "the retain walk from the newest node, moved back to keep tool calls with their results (CP-DH-5); node prices are chars/4 (CP-DH-5 [INF])" },
  trigger(result) {
    // The overflow path (CP-DH-4) does not consult the threshold.
    if (result.parameters.providerOverflow === true) return null;
    const window = result.limits.contextWindow;
    if (!(window > 0)) return null;
    return {
      setting: "thresholdRatio",
      target: "parameter",
      label: "thresholdRatio",
      ruleId: "CP-DH-1",
      fromThreshold: (threshold) => threshold / window,
      decreasing: false,
      bound(threshold, side) {
        // floor(window × r) ≤ T ⟺ r < (T + 1) / window; floor(window × r) ≥ T ⟺ r ≥ T / window.
        if (side === "max") return (Math.ceil(((threshold + 1) / window) * RATIO_SCALE - 1e-9) - 1) / RATIO_SCALE;
        return Math.ceil((threshold / window) * RATIO_SCALE - 1e-9) / RATIO_SCALE;
      },
      assumes: `context window ${window} (${result.limits.contextWindowSource}); the trigger fixes floor(window × thresholdRatio)`,
    };
  },
};
