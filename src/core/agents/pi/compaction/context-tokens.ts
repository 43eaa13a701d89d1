// pi's context-size arithmetic used by compaction (PI-K3, PI-K4): the last successful usage plus
// chars/4 estimates of everything after it.
import type { PiProfileId } from "../profile";
import type { AgentMessage, RecordedUsage, SessionEntry } from "../../../model";
import { messageOfEntry } from "./entry-messages";
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

/**
 * Whether a response came after the latest compaction on the branch (pi-mono 83378aad,
 * packages/coding-agent/src/core/agent-session.ts `getContextUsage`): the last assistant entry
 * after the latest compaction entry that is not aborted or an error, with a positive usage. The
 * kept messages' responses lie before the compaction entry: they were measured on the context
 * before it.
 */
export function respondedSinceLatestCompaction(path: readonly SessionEntry[]): boolean {
  let compaction = -1;
  for (let i = path.length - 1; i >= 0; i--) {
    if (path[i]!.type === "compaction") {
      compaction = i;
      break;
    }
  }
  if (compaction < 0) return true;
  for (let i = path.length - 1; i > compaction; i--) {
    const message = messageOfEntry(path[i]!, { includeCompactions: false });
    if (message?.role !== "assistant") continue;
    if (message.stopReason === "aborted" || message.stopReason === "error") continue;
    return message.usage !== undefined && calculateContextTokens(message.usage) > 0;
  }
  return false;
}

export interface CurrentContextEstimate extends ContextTokenEstimate {
  /** True when no response came after the latest compaction: pi does not check the threshold. */
  noResponseSinceCompaction: boolean;
}

/**
 * The context size pi's automatic check sees at the end of a branch path. Right after a
 * compaction pi has no usage it trusts (its footer shows the context as unknown and
 * `_checkCompaction` skips a response from before the compaction); the size is then the chars/4
 * estimate of every message of the context.
 */
export function currentContextTokens(path: readonly SessionEntry[], messages: readonly AgentMessage[], profile: PiProfileId = "pi"): CurrentContextEstimate {
  if (respondedSinceLatestCompaction(path)) return { ...estimateContextTokens(messages, profile), noResponseSinceCompaction: false };
  let trailingTokens = 0;
  for (const message of messages) trailingTokens += estimateMessageTokens(message, { profile });
  return { tokens: trailingTokens, usageIndex: -1, usageTokens: 0, trailingTokens, noResponseSinceCompaction: true };
}
