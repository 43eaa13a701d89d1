// What a Codex rollout's recorded compactions tell about its settings (settings inference,
// src/core/session/simulate/infer): the retained user messages bound their token budget (CP-CX-INF-3),
// and the usage at which automatic compaction fired bounds `model_auto_compact_token_limit`,
// which is the threshold itself (CP-CX-INF-1).
import type { PolicyInference } from "../../../simulate/types";

export const codexInference: PolicyInference = {
  cut: { parameter: "userMessageTokenBudget", ruleId: "CP-CX-INF-3", note: "the newest user messages kept within the budget (CP-CX-INF-3)" },
  trigger: () => ({
    setting: "autoCompactTokenLimit",
    target: "parameter",
    label: "model_auto_compact_token_limit",
    ruleId: "CP-CX-INF-1",
    fromThreshold: (threshold) => threshold,
    decreasing: false,
    assumes: null,
  }),
};
