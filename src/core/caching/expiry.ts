// Cache expiry from the gap between two requests, classified separately from prefix breaks
//: Anthropic 5-minute / 1-hour TTL (CA-4), OpenAI in-memory retention of 5–10
// minutes idle and at most 1 hour, or 24 h with extended retention (CA-13), 30 minutes for GPT-5.6+
// (CA-14). Gemini implicit caching gives no guarantee (CA-18).
import type { ApiId } from "../model";
import { ANTHROPIC_RULES, isOpenAiBreakpointModel, OPENAI_RULES } from "./rules";

type ExpiryStatus = "live" | "maybe-expired" | "expired" | "unknown";

export interface ExpiryReport {
  status: ExpiryStatus;
  gapMs: number | null;
  /** The TTL (or retention bound) the status was judged against. */
  ttlMs: number | null;
  /** Which rule applied, for the UI: "anthropic 5m", "openai in-memory", … */
  rule: string;
  ruleId: string;
}

export interface ExpiryInput {
  api: ApiId;
  model: string | null;
  gapMs: number | null;
  /** Anthropic: the longest TTL among the request's cache markers ("1h" or null for 5m). */
  anthropicTtl?: string | null;
  /** OpenAI: `prompt_cache_retention` ("24h") or GPT-5.6+ `prompt_cache_options.ttl`. */
  openaiRetention?: string | null;
}

export function classifyExpiry(input: ExpiryInput): ExpiryReport {
  const { gapMs } = input;
  const judge = (ttlMs: number, rule: string, ruleId: string, maybeFromMs?: number): ExpiryReport => {
    if (gapMs === null) return { status: "unknown", gapMs, ttlMs, rule, ruleId };
    if (gapMs > ttlMs) return { status: "expired", gapMs, ttlMs, rule, ruleId };
    if (maybeFromMs !== undefined && gapMs > maybeFromMs) return { status: "maybe-expired", gapMs, ttlMs, rule, ruleId };
    return { status: "live", gapMs, ttlMs, rule, ruleId };
  };
  switch (input.api) {
    case "anthropic-messages":
      return input.anthropicTtl === "1h"
        ? judge(ANTHROPIC_RULES.ttl1hMs.value, "anthropic 1h", "CA-4")
        : judge(ANTHROPIC_RULES.ttl5mMs.value, "anthropic 5m", "CA-4");
    case "openai-completions":
    case "openai-responses":
      if (isOpenAiBreakpointModel(input.model)) return judge(OPENAI_RULES.v56TtlMs.value, "openai gpt-5.6+ 30m", "CA-14");
      if (input.openaiRetention === "24h") return judge(OPENAI_RULES.extendedRetentionMs.value, "openai extended 24h", "CA-13");
      {
        // In memory: surely live up to 5 minutes idle, maybe up to 10, gone after 10 (≤ 1 h anyway).
        const report = judge(OPENAI_RULES.inMemoryIdleMaxMs.value, "openai in-memory 5–10 min", "CA-13", OPENAI_RULES.inMemoryIdleMinMs.value);
        return report;
      }
    case "google-generative-ai":
      return { status: "unknown", gapMs, ttlMs: null, rule: "gemini implicit (no guarantee)", ruleId: "CA-18" };
  }
}
