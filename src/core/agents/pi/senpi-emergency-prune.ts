// senpi's hard-limit emergency prune (SP-C11 … SP-C13): in the same `context` hook as the context
// reduction, right after it, senpi measures the messages it is about to send and, above 95 % of the
// prompt window (the context window minus the output reserve), shortens old tool results and, if
// that is not enough, drops the oldest messages before the newest user message. Like the reduction
// it is never written to the session file; unlike it, it depends on the messages alone (no usage),
// so it is rebuilt wherever senpi's main request is.
// Source: code-yeongyu/senpi 8218060f packages/coding-agent/src/core/extensions/builtin/compaction/
// speculative.ts 62–68, 330–406 (hardLimitEmergencyPrune, pruneToolResults,
// truncateContextMessages), tool-truncation.ts (head/tail truncation, marker), overflow-retry.ts
// 31–68, 107–181 (wire estimate with the CJK weight, pruneOldMessagesToBudget), index.ts 95–101
// (getPromptContextWindow) and 868–892 (the hook).
import type { ContextMessage, ImageBlock, LlmMessage, TextBlock, ToolResultMessage } from "../../model";
import { stringifyWithTexts, textString, textUnits } from "../../text/text";
import { BRANCH_SUMMARY_PREFIX, BRANCH_SUMMARY_SUFFIX, COMPACTION_SUMMARY_PREFIX, COMPACTION_SUMMARY_SUFFIX } from "./convert";
import { utf8ByteLength } from "../../util/utf8";
import { estimateMessageChars } from "./estimate";

/** EMERGENCY_CONTEXT_TARGET_RATIO (speculative.ts:62). */
export const EMERGENCY_TARGET_RATIO = 0.95;
/** SUMMARIZATION_INPUT_BUDGET_RATIO (overflow-retry.ts:68): the tool results' budget. */
const TOOL_BUDGET_RATIO = 0.6;
/** MAX_OUTPUT_RESERVE_RATIO (index.ts:80). */
const MAX_OUTPUT_RESERVE_RATIO = 0.5;
/** tool-truncation.ts:4-6. */
const TRUNCATE_THRESHOLD_BYTES = 4096;
const HEAD_CHARS = 800;
const TAIL_CHARS = 400;
const MARKER = /<truncated:\d+ bytes original[^>]*>/;
/** overflow-retry.ts:31-32: CJK runs count three characters each on top of chars/4. */
const CJK_RUN = /[\u1100-\u11FF\u2E80-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF\uFF00-\uFFEF\u{20000}-\u{2FA1F}]+/gu;
const CJK_WEIGHT = 3;

export interface EmergencyPruneResult {
  messages: ContextMessage[];
  engaged: boolean;
  /** floor(prompt window × 0.95). */
  targetTokens: number;
  /** The estimate senpi compared (before the prune) and after it. */
  tokensBefore: number;
  tokensAfter: number;
  toolResultsTruncated: number;
  messagesDropped: number;
}

/** `getPromptContextWindow` (index.ts:95-101): the window minus min(max output, half the window). */
export function promptContextWindow(contextWindow: number, maxTokens: number | undefined): number {
  if (typeof maxTokens !== "number" || !Number.isFinite(maxTokens) || maxTokens <= 0 || contextWindow <= 0) return contextWindow;
  return contextWindow - Math.min(maxTokens, Math.floor(contextWindow * MAX_OUTPUT_RESERVE_RATIO));
}

function cjkExtra(text: string): number {
  let extra = 0;
  for (const match of text.matchAll(CJK_RUN)) extra += match[0].length * (CJK_WEIGHT - 1);
  return extra;
}

/** The wrapper convertToLlm puts around a summary: senpi measures before it, on the summary alone. */
function wrapperChars(item: ContextMessage): number {
  if (item.provenance.rule === "wrap:compaction-summary") return COMPACTION_SUMMARY_PREFIX.length + COMPACTION_SUMMARY_SUFFIX.length;
  if (item.provenance.rule === "wrap:branch-summary") return BRANCH_SUMMARY_PREFIX.length + BRANCH_SUMMARY_SUFFIX.length;
  return 0;
}

/**
 * `estimateWireTokens` (overflow-retry.ts:42-55): pi's chars/4 plus the CJK correction over the
 * JSON. senpi measures its own messages before conversion: a summary counts its text without the
 * wrapper; a bash run counts here as its rendered text (senpi: command + output).
 */
function wireTokens(item: ContextMessage): number {
  const message = item.message;
  let measured = measures.get(message);
  if (!measured) {
    measured = { chars: estimateMessageChars(message, { profile: "senpi" }), cjk: cjkExtra(stringifyWithTexts(message)) };
    measures.set(message, measured);
  }
  return Math.ceil(Math.max(0, measured.chars - wrapperChars(item)) / 4) + Math.ceil(measured.cjk / 4);
}

/** Every turn measures its whole context: a message object (shared between turns) is measured once. */
const measures = new WeakMap<object, { chars: number; cjk: number }>();

function emergencyEstimate(items: readonly ContextMessage[]): number {
  let total = 0;
  for (const item of items) total += wireTokens(item);
  return total;
}

/** senpi's user-like roles (`user`, `bashExecution`): a real prompt or a bash run, not a summary. */
function isUserLike(item: ContextMessage): boolean {
  return item.message.role === "user" && (item.provenance.rule === "entry" || item.provenance.rule === "render:bash");
}

type Blocks = (TextBlock | ImageBlock)[];

/** `totalTokens` of tool-truncation.ts: ceil(chars/4) of every text block and of every image's data. */
function resultsTokens(results: readonly Blocks[]): number {
  let total = 0;
  for (const content of results) for (const block of content) total += Math.ceil(textUnits(block.type === "text" ? block.text : block.data) / 4);
  return total;
}

function marker(bytes: number): string {
  return `<truncated:${bytes} bytes original; middle elided to save context - re-run this tool with a narrower range (read offset/limit or a filtered command) to retrieve the elided content>`;
}

/** `truncateTextBlock`: a text block over 4096 UTF-8 bytes without a marker → head 800 + marker + tail 400. */
function headTail(content: Blocks): Blocks {
  let changed = false;
  const out = content.map((block) => {
    if (block.type !== "text") return block;
    // Cutting a text needs its characters: a stored one is decoded here (this step runs only
    // when a turn is over the context window).
    const text = textString(block.text);
    const bytes = utf8ByteLength(text);
    if (bytes <= TRUNCATE_THRESHOLD_BYTES || MARKER.test(text)) return block;
    changed = true;
    return { ...block, text: `${text.slice(0, HEAD_CHARS)}\n${marker(bytes)}\n${text.slice(text.length - TAIL_CHARS)}` };
  });
  return changed ? out : content;
}

/** `reduceMarkedTextToMarker`: a marked text block becomes the marker alone. */
function markerOnly(content: Blocks): Blocks {
  let changed = false;
  const out = content.map((block) => {
    if (block.type !== "text") return block;
    const text = textString(block.text);
    const found = text.match(MARKER);
    if (!found || text === found[0]) return block;
    changed = true;
    return { ...block, text: found[0] };
  });
  return changed ? out : content;
}

/** `prePruneToolOutputsToBudget` over every tool result, then `truncateOversizedToolResults` again. */
function pruneToolResults(items: readonly ContextMessage[], budget: number): ContextMessage[] {
  const indexes = items.flatMap((item, i) => (item.message.role === "toolResult" ? [i] : []));
  let results = indexes.map((i) => (items[i]!.message as ToolResultMessage).content);
  if (resultsTokens(results) > budget) {
    results = results.map(headTail);
    if (resultsTokens(results) > budget) results = results.map(markerOnly);
  }
  results = results.map(headTail);
  const out = items.slice();
  indexes.forEach((index, k) => {
    const item = out[index]!;
    const message = item.message as ToolResultMessage;
    if (results[k] === message.content) return;
    out[index] = {
      message: { ...message, content: results[k]! },
      provenance: { ...item.provenance, rule: "prune:emergency-truncated", ruleId: "SP-C12", explanation: "senpi's hard-limit emergency prune cut the middle of this tool result (the request was over 95 % of the prompt window)" },
    };
  });
  return out;
}

function toolCallIds(message: LlmMessage): Set<string> {
  return new Set(message.role === "assistant" ? message.content.flatMap((b) => (b.type === "toolCall" ? [b.id] : [])) : []);
}

/**
 * `pruneOldMessagesToBudget` (overflow-retry.ts:107-181): while over the target, drop — before the
 * newest user message — the oldest tool pair (an assistant with tool calls and their results) or
 * stray tool result, else the oldest other message.
 */
function pruneOldMessages(items: ContextMessage[], target: number): ContextMessage[] {
  let out = items;
  let total = emergencyEstimate(out);
  while (total > target) {
    let boundary = out.length;
    for (let i = out.length - 1; i >= 0; i--) {
      if (isUserLike(out[i]!)) {
        boundary = i;
        break;
      }
    }
    const drop = new Set<number>();
    const pair = (i: number) => {
      const ids = toolCallIds(out[i]!.message);
      drop.add(i);
      out.forEach((item, j) => {
        if (item.message.role === "toolResult" && ids.has(item.message.toolCallId)) drop.add(j);
      });
    };
    for (let i = 0; i < boundary && drop.size === 0; i++) {
      const m = out[i]!.message;
      if (m.role === "assistant" && toolCallIds(m).size > 0) pair(i);
      else if (m.role === "toolResult") drop.add(i);
    }
    for (let i = 0; i < boundary && drop.size === 0; i++) {
      const m = out[i]!.message;
      if (m.role === "toolResult") continue;
      if (m.role === "assistant" && toolCallIds(m).size > 0) pair(i);
      else drop.add(i);
    }
    if (drop.size === 0) break;
    let removed = 0;
    for (const i of drop) removed += wireTokens(out[i]!);
    out = out.filter((_, i) => !drop.has(i));
    total -= removed;
  }
  return out;
}

/**
 * `hardLimitEmergencyPrune` without a latch (speculative.ts:375-406): senpi keeps one latch per
 * process, so after an engaged request it keeps pruning down to 85 %; which requests shared a
 * process is not in the file, so each request is rebuilt on its own (the 95 % rule).
 */
export function senpiEmergencyPrune(items: ContextMessage[], window: number): EmergencyPruneResult {
  const targetTokens = Math.floor(window * EMERGENCY_TARGET_RATIO);
  const tokensBefore = emergencyEstimate(items);
  const base = { targetTokens, tokensBefore, toolResultsTruncated: 0, messagesDropped: 0 };
  if (!(tokensBefore > targetTokens)) return { ...base, messages: items, engaged: false, tokensAfter: tokensBefore };
  const pruned = pruneToolResults(items, window * TOOL_BUDGET_RATIO);
  const truncated = pruned.filter((item, i) => item !== items[i]).length;
  const prunedTokens = emergencyEstimate(pruned);
  if (prunedTokens <= targetTokens) return { ...base, messages: pruned, engaged: true, tokensAfter: prunedTokens, toolResultsTruncated: truncated };
  const dropped = pruneOldMessages(pruned, targetTokens);
  return { ...base, messages: dropped, engaged: true, tokensAfter: emergencyEstimate(dropped), toolResultsTruncated: truncated, messagesDropped: pruned.length - dropped.length };
}
