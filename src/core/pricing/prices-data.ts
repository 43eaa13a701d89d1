// Built-in price table as versioned data: US dollars per million tokens, one row per model (and per
// provider where a provider sells the same model at another price). Every row names its source page
// and the date it was written down. Figures were taken from the providers' public price pages as
// known on `PRICES_AS_OF`; they are not fetched (the app never leaves the page), so users can edit
// any row (src/core/pricing/edit.ts) and the UI marks edited rows.
import type { PriceRow, PriceTable } from "./types";

/** The date every built-in row was recorded (ISO). */
export const PRICES_AS_OF = "2026-12-01";
/** Bumped whenever a figure in the table changes. */
const PRICES_VERSION = 2;

const ANTHROPIC_SOURCE = "https://docs.claude.com/en/docs/about-claude/pricing";
const OPENAI_SOURCE = "https://platform.openai.com/docs/pricing";
const GOOGLE_SOURCE = "https://ai.google.dev/gemini-api/docs/pricing";
const DEEPSEEK_SOURCE = "https://api-docs.deepseek.com/quick_start/pricing";

/**
 * Anthropic: cache writes cost 1.25× input for the 5-minute TTL and 2× for the 1-hour TTL; reads
 * 0.1× input. Thinking tokens are billed as output.
 */
/**
 * Anthropic's long-context pricing (Claude Sonnet 4 and 4.5 with the 1M-token context window): a
 * request whose input (including cache reads and writes) exceeds 200k tokens is billed at 2× input
 * and 1.5× output, and its cache reads and writes at the same multiples of the long input price.
 */
function anthropicLong(input: number, output: number): NonNullable<PriceRow["longContext"]> {
  const long = input * 2;
  return {
    aboveInputTokens: 200_000,
    input: long,
    cachedInput: round(long * 0.1),
    output: round(output * 1.5),
    cacheWrite5m: round(long * 1.25),
    cacheWrite1h: round(long * 2),
    source: `${ANTHROPIC_SOURCE}#long-context-pricing`,
  };
}

function anthropic(model: string, input: number, output: number, note?: string, long?: PriceRow["longContext"]): PriceRow {
  return {
    provider: "anthropic",
    model,
    input,
    cachedInput: round(input * 0.1),
    cacheWrite5m: round(input * 1.25),
    cacheWrite1h: round(input * 2),
    output,
    reasoning: null,
    source: ANTHROPIC_SOURCE,
    date: PRICES_AS_OF,
    ...(note ? { note } : {}),
    ...(long ? { longContext: long } : {}),
  };
}

/**
 * OpenAI: cached input is billed at the model's cached price; there is no cache-write surcharge
 * (a write is billed as input). Reasoning tokens are part of output and billed as output.
 */
function openai(model: string, input: number, cachedInput: number, output: number): PriceRow {
  return {
    provider: "openai",
    model,
    input,
    cachedInput,
    cacheWrite5m: input,
    cacheWrite1h: input,
    output,
    reasoning: null,
    source: OPENAI_SOURCE,
    date: PRICES_AS_OF,
    note: "standard tier; no cache-write surcharge (writes billed as input)",
  };
}

function google(model: string, input: number, cachedInput: number, output: number, long?: PriceRow["longContext"]): PriceRow {
  return {
    provider: "google",
    model,
    input,
    cachedInput,
    cacheWrite5m: input,
    cacheWrite1h: input,
    output,
    reasoning: null,
    source: GOOGLE_SOURCE,
    date: PRICES_AS_OF,
    note: "paid tier, text input; implicit caching (no write charge, explicit-cache storage not counted); thinking billed as output",
    ...(long ? { longContext: long } : {}),
  };
}

function deepseek(model: string): PriceRow {
  return {
    provider: "deepseek",
    model,
    input: 0.28,
    cachedInput: 0.028,
    cacheWrite5m: 0.28,
    cacheWrite1h: 0.28,
    output: 0.42,
    reasoning: null,
    source: DEEPSEEK_SOURCE,
    date: PRICES_AS_OF,
    note: "DeepSeek-V3.2 list price; a cache miss is billed as input",
  };
}

function round(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

export const BUILTIN_PRICE_TABLE: PriceTable = {
  version: PRICES_VERSION,
  asOf: PRICES_AS_OF,
  rows: [
    // Anthropic Claude
    anthropic("claude-opus-4-6", 5, 25),
    anthropic("claude-opus-4-5", 5, 25),
    anthropic("claude-opus-4-1", 15, 75),
    anthropic("claude-opus-4-0", 15, 75),
    anthropic("claude-sonnet-4-6", 3, 15, "a long-context (over 200k input tokens) price for this model was not known when the table was written; edit the row to add one"),
    anthropic("claude-sonnet-4-5", 3, 15, "over 200k input tokens (1M context): $6 input, $22.50 output", anthropicLong(3, 15)),
    anthropic("claude-sonnet-4-0", 3, 15, "over 200k input tokens (1M context): $6 input, $22.50 output", anthropicLong(3, 15)),
    anthropic("claude-3-7-sonnet", 3, 15),
    anthropic("claude-haiku-4-5", 1, 5),
    anthropic("claude-3-5-haiku", 0.8, 4),
    // OpenAI
    openai("gpt-5.2", 1.75, 0.175, 14),
    openai("gpt-5.1", 1.25, 0.125, 10),
    openai("gpt-5.1-codex", 1.25, 0.125, 10),
    openai("gpt-5.1-codex-max", 1.25, 0.125, 10),
    openai("gpt-5.1-codex-mini", 0.25, 0.025, 2),
    openai("gpt-5", 1.25, 0.125, 10),
    openai("gpt-5-codex", 1.25, 0.125, 10),
    openai("gpt-5-mini", 0.25, 0.025, 2),
    openai("gpt-5-nano", 0.05, 0.005, 0.4),
    openai("gpt-4.1", 2, 0.5, 8),
    openai("gpt-4.1-mini", 0.4, 0.1, 1.6),
    openai("gpt-4.1-nano", 0.1, 0.025, 0.4),
    openai("gpt-4o", 2.5, 1.25, 10),
    openai("gpt-4o-mini", 0.15, 0.075, 0.6),
    openai("o1", 15, 7.5, 60),
    openai("o3", 2, 0.5, 8),
    openai("o3-mini", 1.1, 0.55, 4.4),
    openai("o4-mini", 1.1, 0.275, 4.4),
    openai("codex-mini-latest", 1.5, 0.375, 6),
    // Google Gemini (prompts above 200k tokens cost more on the Pro models)
    google("gemini-3-pro-preview", 2, 0.2, 12, { aboveInputTokens: 200000, input: 4, cachedInput: 0.4, output: 18 }),
    google("gemini-3-flash-preview", 0.5, 0.05, 3),
    google("gemini-2.5-pro", 1.25, 0.125, 10, { aboveInputTokens: 200000, input: 2.5, cachedInput: 0.25, output: 15 }),
    google("gemini-2.5-flash", 0.3, 0.03, 2.5),
    google("gemini-2.5-flash-lite", 0.1, 0.01, 0.4),
    // DeepSeek
    deepseek("deepseek-chat"),
    deepseek("deepseek-reasoner"),
  ],
};
