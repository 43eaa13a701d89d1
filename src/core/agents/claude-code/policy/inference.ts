// What a Claude Code session's recorded compactions tell about its settings (settings inference,
// src/core/session/simulate/infer): the usage at which automatic compaction fired bounds the
// auto-compact window, threshold = window − reserve − buffer (CP-CC-INF-1). The kept messages
// (last answer and pending prompt, CP-CC-INF-3) depend on no budget, so there is no cut setting.
import type { PolicyInference } from "../../../simulate/types";

export const claudeCodeInference: PolicyInference = {
  trigger(result) {
    const value = (name: string): number => result.trigger.operands.find((o) => o.name === name)?.value ?? 0;
    const reserve = value("reserve");
    const buffer = value("buffer");
    return {
      setting: "autoCompactWindow",
      target: "parameter",
      label: "auto-compact window (CLAUDE_CODE_AUTO_COMPACT_WINDOW)",
      ruleId: "CP-CC-INF-1",
      fromThreshold: (threshold) => threshold + reserve + buffer,
      decreasing: false,
      assumes:
        result.partition.details.preserveMessages === false
          ? `reserve ${reserve} and buffer ${buffer} (CP-CC-INF-1); the boundaries record no preserved messages (an older Claude Code, e.g. 2.0.76 or 2.1.17): its threshold is assumed to follow the same formula, which only the recorded 2.1.332 confirms`
          : `reserve ${reserve} and buffer ${buffer} (CP-CC-INF-1)`,
    };
  },
};
