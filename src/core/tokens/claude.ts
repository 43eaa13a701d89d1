// The Anthropic token estimate: Claude's public (Claude 2 era) BPE vocabulary, through ai-tokenizer's
// plain-JS encoder (runs in the browser and the worker), scaled by a factor measured on real Claude
// Code sessions. Anthropic publishes no tokenizer for current models; the benchmark
// `bench/anthropic-estimators.bench.ts` compares this and the other candidates with the usage
// growth the provider recorded between consecutive calls (docs/prefix-stability.md §3). The
// vocabulary is loaded on demand (tables.ts: loadTokenizerTables(["claude"])).
import { claudeVocabulary } from "./tables";

/**
 * Provider tokens per Claude-vocabulary token of the appended text, fitted on the recorded usage
 * of the real sessions (Σ usage growth / Σ estimate; leave-one-file-out fits 1.198–1.213). The
 * provider also counts the structure around the text (roles, block and tool-call framing), which
 * the vocabulary count of the text leaves does not see.
 */
export const CLAUDE_USAGE_FACTOR = 1.2;

/**
 * Absolute error of this estimate on the usage growth of 246 call pairs of the real sessions
 * (benchmark, docs/prefix-stability.md §3): median, mean, 90th percentile. The label shows the median.
 */
export const CLAUDE_ESTIMATE_ERROR = { median: 0.085, mean: 0.188, p90: 0.372 } as const;

/** Tokens of `text` in Claude's public vocabulary (unscaled). */
export function countClaudeVocabulary(text: string): number {
  if (text.length === 0) return 0;
  return claudeVocabulary().count(text);
}
