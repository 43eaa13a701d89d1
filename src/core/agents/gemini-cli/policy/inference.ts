// What a Gemini CLI chat's recorded compressions tell about its settings (settings inference,
// src/core/session/simulate/infer). The CLI compresses when the last prompt token count reaches
// model.compressionThreshold × the model's token limit (CP-GM-1), so the count at which a
// compression fired bounds the threshold from above and every turn after which none fired bounds
// it from below. The fraction kept (CP-GM-3) is a share of characters, not a budget the cut
// search can bracket, so it is not inferred.
import type { PolicyInference, TriggerSetting } from "../../../simulate/types";

/**
 * Fractions are reported to four decimals, rounded inwards: every value in the range then
 * reproduces what the recording shows (a setting written with more decimals, within a ten-thousandth
 * of an edge, is the only one left out).
 */
const DECIMALS = 10_000;

function compressionThresholdSetting(tokenLimit: number, limitSource: string): TriggerSetting {
  return {
    setting: "compressionThreshold",
    target: "parameter",
    label: "compression threshold",
    ruleId: "CP-GM-1",
    fromThreshold: (threshold) => threshold / tokenLimit,
    decreasing: false,
    bound(threshold, side) {
      if (tokenLimit <= 0) return null;
      const fraction = threshold / tokenLimit;
      // The CLI reads any positive fraction; above 1 it could never fire.
      const rounded = side === "max" ? Math.floor(fraction * DECIMALS + 1e-9) / DECIMALS : Math.ceil(fraction * DECIMALS - 1e-9) / DECIMALS;
      if (side === "max" && rounded <= 0) return null;
      return rounded;
    },
    assumes: `model token limit ${tokenLimit.toLocaleString("en-US")} (${limitSource})`,
  };
}

export const geminiInference: PolicyInference = {
  trigger(result) {
    const tokenLimit = result.trigger.operands.find((operand) => operand.name === "tokenLimit");
    if (!tokenLimit) return null;
    return compressionThresholdSetting(tokenLimit.value, tokenLimit.source);
  },
};
