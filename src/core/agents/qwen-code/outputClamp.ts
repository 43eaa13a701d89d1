// The max_tokens Qwen Code sends on a main request. Qwen Code 0.24.4 (packages/core/src/core/
// tokenLimits.ts `clampOutputTokensToWindow`, packages/core/src/core/geminiChat.ts
// `sendMessageStream`) lowers its output ceiling to the room the context window leaves:
//   room = window − promptEstimate − max(10,000, 5 % of window), sent = min(ceiling, max(4,000, room)).
// The prompt estimate starts from the token counts the process holds — the last answer's prompt and
// output tokens, or a compression's estimated new size — plus 1.5 × the characters/4 of what this
// request adds; when those counts are an estimate (after a compression) or absent (the first call),
// 20,000 tokens are added as a pad. The chat file records every one of those counts, so the clamp is
// rebuilt: right after an automatic compression it is what drops max_tokens to 4,000.
import type { QwenContent, QwenTokenCounts } from "./history";
import { isText, textUnits } from "../../text/text";

/** Qwen Code's context window when neither the settings nor its model table give one. */
export const QWEN_DEFAULT_WINDOW = 200_000;
const MIN_CLAMPED_OUTPUT = 4_000;
const ESTIMATE_PAD = 20_000;
const NEW_CONTENT_SAFETY = 1.5;
const CHARS_PER_TOKEN = 4;
/** Qwen Code counts an image or file part as this many tokens. */
const IMAGE_TOKENS = 1_600;

/** Characters Qwen Code's estimate gives a part (`estimatePartChars`). */
function partChars(part: Record<string, unknown>): number {
  if (part.inlineData || part.fileData) return IMAGE_TOKENS * CHARS_PER_TOKEN;
  if (isText(part.text)) return textUnits(part.text);
  const call = part.functionResponse;
  if (call && typeof call === "object") {
    const response = (call as Record<string, unknown>).response as Record<string, unknown> | undefined;
    let total = 0;
    if (isText(response?.output)) total += textUnits(response.output);
    else if (typeof response?.error === "string") total += response.error.length;
    const nested = (call as Record<string, unknown>).parts;
    if (Array.isArray(nested)) for (const inner of nested) if (inner && typeof inner === "object") total += partChars(inner as Record<string, unknown>);
    return total + 64;
  }
  return JSON.stringify(part).length;
}

function contentTokens(contents: readonly QwenContent[]): number {
  let chars = 0;
  for (const content of contents) for (const part of content.parts) chars += partChars(part);
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/** The prompt size the clamp assumes for a request that adds `added` to a history of `sent`. */
function promptEstimate(counts: QwenTokenCounts | null, sent: readonly QwenContent[], added: readonly QwenContent[]): number {
  if (counts === null || counts.prompt <= 0) return contentTokens(sent) + ESTIMATE_PAD;
  const estimate = counts.prompt + counts.output + Math.ceil(contentTokens(added) * NEW_CONTENT_SAFETY);
  return counts.estimated ? estimate + ESTIMATE_PAD : estimate;
}

/** max_tokens as sent: the ceiling (captured or configured) clamped to the room the window leaves. */
export function clampedMaxTokens(ceiling: number, window: number, counts: QwenTokenCounts | null, sent: readonly QwenContent[], added: readonly QwenContent[]): number {
  const margin = Math.max(10_000, Math.round(0.05 * window));
  const room = window - promptEstimate(counts, sent, added) - margin;
  return Math.min(ceiling, Math.max(MIN_CLAMPED_OUTPUT, room));
}
