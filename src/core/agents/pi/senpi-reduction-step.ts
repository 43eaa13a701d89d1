// When senpi's context reduction (senpi-context-reduction.ts) ran on a main request: the usage
// senpi's `getContextUsage` reported at that moment (code-yeongyu/senpi 8218060f
// packages/coding-agent/src/core/agent-session.ts:7830-7877) against the model's context window.
// The usage follows from the file (recorded assistant usage + chars/4 of the messages after it;
// right after a compaction, chars/4 of the whole context); the window does not, so the step runs
// only when the model's window is known — a catalogue model or the user's model edit — never on
// the catalogue's default guess. The hard-limit emergency prune follows it, as in senpi's hook.
import type { AssistantMessage, ContextMessage, ModelRef, PipelineOptions, SessionEntry } from "../../model";
import { notInCatalogue, resolveModel } from "../../models/catalogue";
import { calculateContextTokens } from "./compaction/context-tokens";
import { estimateMessageTokens } from "./estimate";
import type { ProjectedMessage } from "./projection";
import { reduceSenpiContext, senpiReductionApplies } from "./senpi-context-reduction";
import { EMERGENCY_TARGET_RATIO, promptContextWindow, senpiEmergencyPrune } from "./senpi-emergency-prune";
import { turnApi } from "./turnModel";

/** The option that turns the rebuild of senpi's context reduction off (`false`: messages as stored). */
export const SENPI_CONTEXT_REDUCTION = "senpiContextReduction";

/** The context tokens an answer's usage reports; 0 for anything else (a message entry may hold no message object at all). */
export function validUsageTokens(message: ProjectedMessage["message"] | null | undefined): number {
  if (typeof message !== "object" || message === null || message.role !== "assistant" || !message.usage) return 0;
  if (message.stopReason === "aborted" || message.stopReason === "error") return 0;
  return calculateContextTokens(message.usage);
}

/**
 * senpi's `getContextUsage().tokens` for a context: after a compaction with no answer since, the
 * sum of the message estimates; otherwise the last valid usage plus the estimates after it.
 */
export function senpiContextUsage(messages: readonly ProjectedMessage[], compactionWithoutUsage: boolean): number {
  let trailing = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const projected = messages[i]!;
    if (projected.hidden) continue;
    const usage = compactionWithoutUsage ? 0 : validUsageTokens(projected.message);
    if (usage > 0) return usage + trailing;
    trailing += estimateMessageTokens(projected.message, { profile: "senpi" });
  }
  return trailing;
}

/** True when the newest compaction on `path` has no successful answer with usage after it. */
export function compactionWithoutUsage(path: readonly SessionEntry[]): boolean {
  for (let i = path.length - 1; i >= 0; i--) {
    const entry = path[i]!;
    if (entry.type === "compaction") return true;
    if (entry.type === "message" && validUsageTokens(entry.raw.message as AssistantMessage | null) > 0) return false;
  }
  return false;
}

export interface SenpiReductionInput {
  messages: ContextMessage[];
  projected: readonly ProjectedMessage[];
  compactionWithoutUsage: boolean;
  model: ModelRef | null;
  answer: AssistantMessage;
  options: PipelineOptions;
}

/**
 * The context senpi sent: reduced when the gate held (SP-C7), then the hard-limit emergency prune
 * (SP-C11 … SP-C13, senpi-emergency-prune.ts) over the prompt window, which the claude-sdk-oauth
 * lane alone skips.
 */
export function applySenpiReduction(input: SenpiReductionInput): ContextMessage[] {
  if (input.options.agentOptions?.[SENPI_CONTEXT_REDUCTION] === false) return input.messages;
  const model = resolveModel(input.model, turnApi(input.answer, input.options), input.options.modelOverrides);
  if (notInCatalogue(model)) return input.messages;
  const usage = senpiContextUsage(input.projected, input.compactionWithoutUsage);
  const reduced = senpiReductionApplies(usage, model.contextWindow, input.model?.provider, input.answer.api) ? reduceSenpiContext(input.messages).messages : input.messages;
  if (input.model?.provider === "claude-sdk-oauth") return reduced;
  return senpiEmergencyPrune(reduced, promptContextWindow(model.contextWindow, model.maxTokens)).messages;
}

/**
 * A cheap bound before building a turn's whole context: false when neither the reduction's gate
 * holds nor the emergency prune can engage. Its estimate is at most three times pi's chars/4 (the
 * CJK weight) plus one per message, so below that the 95 % target is out of reach.
 */
export function senpiReductionMayApply(input: Omit<SenpiReductionInput, "messages"> & { estimatedTokens: number }): boolean {
  if (input.options.agentOptions?.[SENPI_CONTEXT_REDUCTION] === false) return false;
  const model = resolveModel(input.model, turnApi(input.answer, input.options), input.options.modelOverrides);
  if (notInCatalogue(model)) return false;
  const usage = senpiContextUsage(input.projected, input.compactionWithoutUsage);
  if (senpiReductionApplies(usage, model.contextWindow, input.model?.provider, input.answer.api)) return true;
  if (input.model?.provider === "claude-sdk-oauth") return false;
  return 3 * input.estimatedTokens + input.projected.length > Math.floor(promptContextWindow(model.contextWindow, model.maxTokens) * EMERGENCY_TARGET_RATIO);
}
