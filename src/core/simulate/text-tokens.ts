// The simulator's plain-text estimate (CP-0-5): ceil(characters / 4), the chars/4 family every
// policy in compaction-policies.md uses. Used for request bodies, summaries and placeholders;
// the message-level estimate is the tokens kit's (src/core/tokens/charEstimate.ts).
import { CHARS_PER_TOKEN } from "../tokens/charEstimate";
import { jsonLength } from "./json-length";

export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** Estimate of a JSON value as it would be sent (its serialized text). */
export function estimateJsonTokens(value: unknown): number {
  return Math.ceil((jsonLength(value) ?? 0) / CHARS_PER_TOKEN);
}
