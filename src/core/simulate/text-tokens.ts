// The simulator's plain-text estimate (CP-0-5): ceil(characters / 4), the chars/4 family every
// policy in compaction-policies.md uses. Used for request bodies, summaries and placeholders;
// message-level pi estimates come from src/core/agents/pi/estimate.ts.
import { jsonLength } from "./json-length";

const CHARS_PER_TOKEN = 4;

export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** Estimate of a JSON value as it would be sent (its serialized text). */
export function estimateJsonTokens(value: unknown): number {
  return Math.ceil((jsonLength(value) ?? 0) / CHARS_PER_TOKEN);
}
