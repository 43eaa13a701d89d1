// senpi's speculative compaction (SP-K6 … SP-K8): at the start of a prompt whose context is past
// `speculativeFraction` (0.75) of the compaction threshold but not yet at it, senpi's built-in
// compaction extension prepares a compaction of the branch AS IT IS THEN (cut point, split turn,
// prompt variant) and sends its summariser request in the background; the next blocking compaction
// (the prompt that reaches the threshold) applies that warm result as long as the summarised prefix
// is unchanged. The compaction written later therefore carries the cut of the earlier prompt
// start, and its summariser request was sent before that prompt's first main request.
// Source: code-yeongyu/senpi 8218060f packages/coding-agent/src/core/extensions/builtin/compaction/
// policy.ts (thresholds), index.ts:809-866 (before_agent_start), index.ts:358-377 and 463-509
// (start and consumption of the warm job), speculative.ts:418-454 (snapshot) and
// compaction/warm-anchor.ts:41-53 (validity).
import type { SessionEntry, UserMessage } from "../../../model";
import { isText, textUnits } from "../../../text/text";
import { estimateContextTokens } from "../compaction/context-tokens";
import { isAssistantEntry } from "../tree";
import { projectPath } from "../projection";
import { compactionWithoutUsage, senpiContextUsage } from "../senpi-reduction-step";

/** policy.ts:4-11. */
const MIN_RATIO = 0.4;
const MAX_RATIO = 0.7;
const MIN_EFFECTIVE_KEEP_RECENT_TOKENS = 1024;
/** index.ts:81 — tokens counted per pending image. */
const IMAGE_PROMPT_TOKENS = 1200;

/** `computeAdaptiveThresholdRatio` without a prior yield (policy.ts:52-66). */
function adaptiveThresholdRatio(contextWindow: number): number {
  if (!(contextWindow > 0)) return 0.5;
  if (contextWindow <= 16_000) return 0.45;
  if (contextWindow <= 32_000) return 0.5;
  if (contextWindow <= 64_000) return 0.55;
  if (contextWindow <= 128_000) return 0.6;
  return 0.65;
}

/** `computeEffectiveThreshold(window)` without a prior yield: the adaptive ratio clamped to [0.4, 0.7] (policy.ts:75-85). */
export function effectiveThresholdRatio(contextWindow: number): number {
  return Math.min(MAX_RATIO, Math.max(MIN_RATIO, adaptiveThresholdRatio(contextWindow)));
}

/**
 * SP-K7 `computeEffectiveKeepRecentTokens` (policy.ts:87-95), applied by every extension snapshot
 * (speculative.ts:434-438): the keep-recent budget never exceeds the room left under the threshold.
 */
export function effectiveKeepRecentTokens(setting: number, contextWindow: number, thresholdRatio: number, margin = 0.05): number {
  const capped = Math.floor(contextWindow * (1 - thresholdRatio - margin));
  return Math.min(setting, Math.max(MIN_EFFECTIVE_KEEP_RECENT_TOKENS, capped));
}

function promptTokens(message: UserMessage): number {
  if (isText(message.content)) return Math.ceil(textUnits(message.content) / 4);
  // The length of the text blocks joined, measured without joining them.
  let units = 0;
  let images = 0;
  for (const block of message.content) {
    if (block.type === "text") units += textUnits(block.text);
    else if (block.type === "image") images += 1;
  }
  return Math.ceil(units / 4) + images * IMAGE_PROMPT_TOKENS;
}

interface SpeculativeStart {
  /** The branch the warm job prepared: everything before the prompt's user message. */
  path: SessionEntry[];
  promptEntryId: string;
  /** The first main request of that prompt (the warm request was sent alongside it). */
  sentBeforeTurn: number;
  /** usage + pending prompt tokens at the prompt start. */
  tokens: number;
  startThreshold: number;
  blockingThreshold: number;
}

export interface SpeculativeSearch {
  start: SpeculativeStart | null;
  /** Why there is none, or the arithmetic of the one found. */
  note: string;
}

/**
 * The prompt start (a user message after the newest compaction, before the point) at which senpi
 * would have started the warm job: the first one where usage + pending prompt ≥ window × ratio ×
 * fraction. One whose tokens already reach the blocking threshold (or the hard limit) would have
 * compacted there instead, so the search stops with none.
 */
export function findSpeculativeStart(path: readonly SessionEntry[], contextWindow: number, ratio: number, fraction: number, reserveTokens: number): SpeculativeSearch {
  let lastCompaction = -1;
  path.forEach((entry, i) => {
    if (entry.type === "compaction") lastCompaction = i;
  });
  const startThreshold = contextWindow * ratio * fraction;
  const blockingThreshold = contextWindow * ratio;
  let turnsBefore = 0;
  for (let i = 0; i < path.length; i++) {
    const entry = path[i]!;
    if (isAssistantEntry(entry)) turnsBefore += 1;
    if (i <= lastCompaction || entry.type !== "message") continue;
    const message = entry.raw.message as { role?: string } | undefined;
    if (message?.role !== "user") continue;
    const before = path.slice(0, i);
    if (!before.some(isAssistantEntry)) continue;
    const usage = senpiContextUsage(projectPath(before, "senpi").messages, compactionWithoutUsage(before));
    const tokens = usage + promptTokens(message as UserMessage);
    if (tokens + reserveTokens >= contextWindow || tokens >= blockingThreshold) {
      return { start: null, note: `prompt ${entry.id}: ${tokens} tokens already reach the ${tokens + reserveTokens >= contextWindow ? "hard limit" : "blocking threshold"} (${blockingThreshold}): senpi compacts there, no warm job` };
    }
    if (tokens >= startThreshold) {
      return {
        start: { path: before, promptEntryId: entry.id, sentBeforeTurn: turnsBefore + 1, tokens, startThreshold, blockingThreshold },
        note: `warm job started at prompt ${entry.id}: ${tokens} ≥ ${contextWindow} × ${ratio} × ${fraction} = ${startThreshold} (SP-K6)`,
      };
    }
  }
  return { start: null, note: `no prompt start since the last compaction reached ${contextWindow} × ${ratio} × ${fraction} = ${startThreshold}: no warm job (SP-K6)` };
}

/**
 * For a recorded compaction whose `details.origin` is `speculative` (speculative.ts:626): the
 * prompt start whose branch the warm job prepared — the last one after the previous compaction
 * whose context estimate (PI-K16, G2) equals the recorded `tokensBefore` (the snapshot's own,
 * speculative.ts:614). Null when none matches.
 */
export function recordedSpeculativeStart(path: readonly SessionEntry[], tokensBefore: number): { path: SessionEntry[]; promptEntryId: string; sentBeforeTurn: number } | null {
  let lastCompaction = -1;
  path.forEach((entry, i) => {
    if (entry.type === "compaction") lastCompaction = i;
  });
  let found: { path: SessionEntry[]; promptEntryId: string; sentBeforeTurn: number } | null = null;
  let turnsBefore = 0;
  for (let i = 0; i < path.length; i++) {
    const entry = path[i]!;
    if (isAssistantEntry(entry)) turnsBefore += 1;
    if (i <= lastCompaction || entry.type !== "message" || (entry.raw.message as { role?: string } | undefined)?.role !== "user") continue;
    const before = path.slice(0, i);
    const projected = projectPath(before, "senpi").messages.map((m) => m.message);
    if (estimateContextTokens(projected, "senpi").tokens === tokensBefore) found = { path: before, promptEntryId: entry.id, sentBeforeTurn: turnsBefore + 1 };
  }
  return found;
}
