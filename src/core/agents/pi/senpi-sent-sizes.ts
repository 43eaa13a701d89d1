// The timeline's size of a senpi turn is what senpi sent, not what the session stores: where the
// context reduction (SP-C7 … SP-C10) or the hard-limit emergency prune (SP-C11 … SP-C13) changed
// the request, the turn's incremental sizes (turns.ts) are corrected by the difference between the
// messages they replaced or dropped and the ones sent instead. Run only past the cheap bounds below
// (the reduction's gate, the emergency target), so a session far from its window costs nothing.
import type { AssistantMessage, ContextMessage, ModelRef, PipelineOptions } from "../../model";
import { convertToLlm, llmMessageChars } from "./convert";
import { estimateMessageTokens } from "./estimate";
import type { ProjectedMessage } from "./projection";
import { applySenpiReduction, senpiReductionMayApply } from "./senpi-reduction-step";

export interface SentSizeDelta {
  messages: number;
  chars: number;
  tokens: number;
}

export interface SentSizeInput {
  projected: readonly ProjectedMessage[];
  compactionWithoutUsage: boolean;
  model: ModelRef | null;
  answer: AssistantMessage;
  options: PipelineOptions;
  /** pi's estimate of the stored context (the turn's incremental size), for the cheap bound. */
  estimatedTokens: number;
}

/** Sizes of a message object; the stored messages a reduction replaces are the same objects turn after turn. */
const sizes = new WeakMap<object, { chars: number; tokens: number }>();

function sizeOf(item: ContextMessage): { chars: number; tokens: number } {
  let size = sizes.get(item.message);
  if (!size) {
    size = { chars: llmMessageChars(item.message), tokens: estimateMessageTokens(item.message, { profile: "senpi" }) };
    sizes.set(item.message, size);
  }
  return size;
}

/** What senpi's reduction and emergency prune changed in this turn's context, or null when nothing. */
export function senpiSentSizeDelta(input: SentSizeInput): SentSizeDelta | null {
  if (input.options.profile !== "senpi" || !senpiReductionMayApply(input)) return null;
  const messages = convertToLlm(input.projected, "senpi").messages;
  const sent = applySenpiReduction({ messages, projected: input.projected, compactionWithoutUsage: input.compactionWithoutUsage, model: input.model, answer: input.answer, options: input.options });
  if (sent === messages) return null;
  const kept = new Set<ContextMessage>(sent);
  const original = new Set<ContextMessage>(messages);
  const delta: SentSizeDelta = { messages: sent.length - messages.length, chars: 0, tokens: 0 };
  for (const item of messages) {
    if (kept.has(item)) continue;
    const size = sizeOf(item);
    delta.chars -= size.chars;
    delta.tokens -= size.tokens;
  }
  for (const item of sent) {
    if (original.has(item)) continue;
    const size = sizeOf(item);
    delta.chars += size.chars;
    delta.tokens += size.tokens;
  }
  return delta.messages === 0 && delta.chars === 0 && delta.tokens === 0 ? null : delta;
}
