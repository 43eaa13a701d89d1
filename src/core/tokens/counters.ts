// Token counters used by prefix analysis (TK-1, TK-3, TK-5). A counter turns text into a count and
// says whether the count is exact. OpenAI shapes use exact o200k; Anthropic and Google have no
// public tokenizer for their current models, so their counts are labelled estimates: Anthropic's
// the Claude vocabulary scaled to recorded usage (claude.ts, measured by the estimator benchmark),
// Google's o200k.
import { countTokens as countO200k } from "gpt-tokenizer/encoding/o200k_base";
import type { ApiId } from "../model";
import { CLAUDE_ESTIMATE_ERROR, CLAUDE_USAGE_FACTOR, countClaudeVocabulary } from "./claude";

export interface TokenCounter {
  /** Stable id, also used to key caches: "o200k", "chars/4", "o200k×1.1", … */
  id: string;
  /** True when the count is what the provider's tokenizer gives for this text (TK-1). */
  exact: boolean;
  /** Short label for the UI: "exact (o200k)", "estimate (chars/4)". */
  label: string;
  count(text: string): number;
}

/** Exact o200k_base counts (GPT-4o, GPT-4.1, o-series, GPT-5.x; TK-1). */
export const o200kCounter: TokenCounter = {
  id: "o200k",
  exact: true,
  label: "exact (o200k)",
  count: (text) => (text.length === 0 ? 0 : countO200k(text)),
};

/**
 * Characters / 4, rounded up: the fast estimate shown before exact counts finish (design §3
 * "exact tokens progressively") and the cheap default for long sessions.
 */
export const charsPerFourCounter: TokenCounter = {
  id: "chars/4",
  exact: false,
  label: "estimate (chars/4)",
  count: (text) => Math.ceil(text.length / 4),
};

/** o200k × factor, the Anthropic/Gemini estimate of TK-3 and TK-5 (`claudeFactor`, default 1.0). */
export function scaledO200kCounter(factor: number): TokenCounter {
  return {
    id: `o200k×${factor}`,
    exact: false,
    label: `estimate (o200k × ${factor})`,
    count: (text) => (text.length === 0 ? 0 : Math.round(countO200k(text) * factor)),
  };
}

/**
 * The Anthropic estimate (TK-3): Claude's public vocabulary × the factor fitted on recorded
 * usage; its label states the error measured on real sessions.
 */
export const claudeEstimateCounter: TokenCounter = {
  id: `claude×${CLAUDE_USAGE_FACTOR}`,
  exact: false,
  label: `estimate, ±${Math.round(CLAUDE_ESTIMATE_ERROR.median * 100)}% on real sessions (Claude vocabulary × ${CLAUDE_USAGE_FACTOR})`,
  count: (text) => (text.length === 0 ? 0 : Math.round(countClaudeVocabulary(text) * CLAUDE_USAGE_FACTOR)),
};

export type TokenizerChoice = "auto" | "estimate" | "o200k";

export interface CounterOptions {
  /**
   * "auto" (default): exact o200k for OpenAI shapes, the measured Claude estimate for Anthropic
   * (`claudeEstimateCounter`; o200k × `claudeFactor` when a factor is given), o200k ×
   * `claudeFactor` for Google. "estimate": chars/4 everywhere (fast path for whole sessions).
   * "o200k": o200k everywhere (still labelled estimate for non-OpenAI shapes).
   */
  tokenizer?: TokenizerChoice;
  /** TK-3 `claudeFactor`, default 1.0. */
  claudeFactor?: number;
  /**
   * A counter for every shape, overriding `tokenizer`: the estimator benchmark measures
   * candidate counters through the same segmentation the app uses.
   */
  counter?: TokenCounter;
}

const scaledCounters = new Map<number, TokenCounter>();

/** The counter to use for a wire shape (TK-1, TK-3, TK-5). */
export function counterForApi(api: ApiId, options: CounterOptions = {}): TokenCounter {
  if (options.counter) return options.counter;
  const choice = options.tokenizer ?? "auto";
  if (choice === "estimate") return charsPerFourCounter;
  const isOpenAi = api === "openai-completions" || api === "openai-responses";
  if (isOpenAi) return o200kCounter;
  if (choice === "auto" && api === "anthropic-messages" && options.claudeFactor === undefined) return claudeEstimateCounter;
  const factor = choice === "o200k" ? 1 : (options.claudeFactor ?? 1);
  let counter = scaledCounters.get(factor);
  if (!counter) {
    counter = scaledO200kCounter(factor);
    scaledCounters.set(factor, counter);
  }
  return counter;
}
