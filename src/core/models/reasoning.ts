// Whether a turn's model reasons, told once for every view: the model's facts say so, or the
// session itself does — a turn recorded with a thinking level (pi's "xhigh", Codex's effort)
// used reasoning whatever the catalogue assumed, so "reasoning no" never stands beside
// "thinking xhigh".
import type { ModelInfo } from "../model";

/** Thinking levels that mean no reasoning was asked for. */
const NO_THINKING = new Set(["", "off", "none", "disabled", "unknown"]);

/** True when the recorded thinking level asked for reasoning. */
function recordedThinking(thinkingLevel: string | null | undefined): boolean {
  return typeof thinkingLevel === "string" && !NO_THINKING.has(thinkingLevel.trim().toLowerCase());
}

/** The model's reasoning fact for a turn, and whether the session's recorded thinking level gave it. */
export function turnReasoning(model: Pick<ModelInfo, "reasoning">, thinkingLevel: string | null | undefined): { reasoning: boolean; fromThinking: boolean } {
  if (model.reasoning) return { reasoning: true, fromThinking: false };
  const fromThinking = recordedThinking(thinkingLevel);
  return { reasoning: fromThinking, fromThinking };
}
