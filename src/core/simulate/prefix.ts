// Byte-prefix comparison of two request bodies, for the expected prompt-cache effect (CP-0-2 (6),
// CP-PI-8, CP-SE-10) and for the prefix break a compaction causes. The estimate is simple and
// documented: the shared prefix of the two bodies' JSON texts (same key order as sent), counted in
// chars/4 tokens. Providers cache at block boundaries, so the real cached amount is at most this.
// [INF]
import { estimateTextTokens } from "./text-tokens";
import { stringifyWithTexts } from "../text/text";
import type { CacheEffect, PrefixBreak } from "./types";

/** Characters compared at once by string equality (a memory comparison) before going one by one. */
const COMPARE_BLOCK = 4096;

/** Length of the common prefix of two strings. */
export function commonPrefixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  // Equal blocks are stepped over whole: a 50 MB shared prefix is not walked character by character.
  while (i + COMPARE_BLOCK <= n && a.slice(i, i + COMPARE_BLOCK) === b.slice(i, i + COMPARE_BLOCK)) i += COMPARE_BLOCK;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

function messagesOf(body: Record<string, unknown>): unknown[] {
  for (const key of ["messages", "input", "contents"]) {
    const value = body[key];
    if (Array.isArray(value)) return value;
  }
  return [];
}

/**
 * Comparable text of a body: the prefix-relevant parts in the order providers read them (tools,
 * system, then messages); generation settings (max tokens, stream) are left out because they do
 * not belong to the cached prefix.
 */
export function prefixText(body: Record<string, unknown>): string {
  // A body is compared with several others (each policy's requests, each cache effect): its text
  // is made once. Bodies are not changed once built.
  let text = prefixTexts.get(body);
  if (text === undefined) {
    const parts: unknown[] = [body.tools ?? null, body.system ?? body.instructions ?? body.systemInstruction ?? null];
    text = stringifyWithTexts([...parts, ...messagesOf(body)]);
    prefixTexts.set(body, text);
  }
  return text;
}

const prefixTexts = new WeakMap<object, string>();

/** Where `later` stops continuing `earlier`'s prefix; null when `earlier`'s messages are all kept. */
export function findPrefixBreak(earlier: Record<string, unknown>, later: Record<string, unknown>, reason: string): PrefixBreak | null {
  const a = messagesOf(earlier);
  const b = messagesOf(later);
  const headA = stringifyWithTexts([earlier.tools ?? null, earlier.system ?? earlier.instructions ?? earlier.systemInstruction ?? null]);
  const headB = stringifyWithTexts([later.tools ?? null, later.system ?? later.instructions ?? later.systemInstruction ?? null]);
  const shared = commonPrefixLength(prefixText(earlier), prefixText(later));
  if (headA !== headB) return { messageIndex: -1, sharedPrefixChars: shared, sharedPrefixTokens: Math.ceil(shared / 4), reason: "system prompt or tools differ" };
  let index = 0;
  while (index < a.length && index < b.length && (a[index] === b[index] || stringifyWithTexts(a[index]) === stringifyWithTexts(b[index]))) index++;
  if (index >= a.length) return null;
  return { messageIndex: index, sharedPrefixChars: shared, sharedPrefixTokens: Math.ceil(shared / 4), reason };
}

export function cacheEffect(referenceLabel: string, reference: Record<string, unknown> | null, body: Record<string, unknown>): CacheEffect {
  const text = prefixText(body);
  const shared = reference ? commonPrefixLength(prefixText(reference), text) : 0;
  const sharedTokens = Math.ceil(shared / 4);
  const totalTokens = estimateTextTokens(text);
  const note =
    shared === 0 || sharedTokens < totalTokens * 0.05
      ? "cold: shares (almost) no prefix with the reference request"
      : `warm prefix: ${sharedTokens} of ${totalTokens} estimated tokens shared with the reference request`;
  return { reference: referenceLabel, sharedPrefixTokens: sharedTokens, sharedPrefixChars: shared, totalTokens, note };
}
