// pi's context-size arithmetic used by compaction (PI-K3, PI-K4): the last successful usage plus
// chars/4 estimates of everything after it.
import type { PiProfileId } from "../profile";
import type { AgentMessage, RecordedUsage } from "../../../model";
import { estimateMessageTokens } from "../estimate";

/** PI-K3: totalTokens, or the sum of the parts when totalTokens is 0/absent. */
export function calculateContextTokens(usage: RecordedUsage): number {
  return usage.totalTokens || usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
}

export interface ContextTokenEstimate {
  tokens: number;
  /** Index of the assistant message whose usage anchors the estimate, or -1. */
  usageIndex: number;
  usageTokens: number;
  trailingTokens: number;
}

/** PI-K4 `estimateContextTokens(messages)`. */
export function estimateContextTokens(messages: readonly AgentMessage[], profile: PiProfileId = "pi"): ContextTokenEstimate {
  let usageIndex = -1;
  let usageTokens = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role !== "assistant" || !message.usage) continue;
    if (message.stopReason === "aborted" || message.stopReason === "error") continue;
    const tokens = calculateContextTokens(message.usage);
    // senpi additionally requires a positive usage (PI-K4).
    if (profile === "senpi" && !(tokens > 0)) continue;
    usageIndex = i;
    usageTokens = tokens;
    break;
  }
  let trailingTokens = 0;
  for (let i = usageIndex + 1; i < messages.length; i++) trailingTokens += estimateMessageTokens(messages[i]!, { profile });
  return { tokens: usageTokens + trailingTokens, usageIndex, usageTokens, trailingTokens };
}
