// What an opencode session's recorded compactions tell about its settings (settings inference,
// src/core/session/simulate/infer): the recorded tail start bounds the preserved-recent budget (CP-OC-14),
// and the usage at which compaction overflowed bounds the usable tokens (CP-OC-2, CP-OC-3), hence
// the model's context limit (usable + max output) — or its input limit (usable + reserved).
import type { PolicyInference } from "../../../simulate/types";
import { maxOutputTokens } from "./overflow";

export const opencodeInference: PolicyInference = {
  cut: { parameter: "preserveRecentTokens", ruleId: "CP-OC-14", note: "the tail walk over whole turns (CP-OC-14); without the setting opencode derives it from the usable tokens" },
  trigger(result) {
    const output = maxOutputTokens({ context: result.limits.contextWindow, output: result.limits.maxOutputTokens });
    if (result.limits.inputLimit !== null) {
      const reservedParameter = result.parameters.reserved;
      const reserved = typeof reservedParameter === "number" ? reservedParameter : Math.min(20000, output);
      return {
        setting: "inputLimit",
        target: "limit",
        label: "model limit.input",
        ruleId: "CP-OC-2",
        fromThreshold: (threshold) => threshold + reserved,
        decreasing: false,
        assumes: `reserved ${reserved} (CP-OC-2)`,
      };
    }
    return {
      setting: "contextWindow",
      target: "limit",
      label: "model limit.context",
      ruleId: "CP-OC-2",
      fromThreshold: (threshold) => threshold + output,
      decreasing: false,
      assumes: `max output tokens ${output} (CP-OC-1, from the output limit ${result.limits.maxOutputTokens} (${result.limits.maxOutputTokensSource}))`,
    };
  },
};
