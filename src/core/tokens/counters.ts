// Token counters used by prefix analysis (TK-1, TK-3, TK-5). A counter turns text into a count and
// says whether the count is exact. OpenAI shapes use exact o200k; Anthropic and Google have no
// public tokenizer for their current models, so their counts are labelled estimates: Anthropic's
// the Claude vocabulary scaled to recorded usage (claude.ts, measured by the estimator benchmark),
// Google's o200k. o200k is counted with ai-tokenizer's encoder over gpt-tokenizer's o200k ranks
// (o200kTable.ts): bench/tokenizers.bench.ts measured it the fastest, with the same count on every
// text. The tables are loaded on demand: hosts await loadTokenizerTables(tablesFor(...)) first
// (tables.ts); chars/4 needs none.
import type { ApiId } from "../model";
import type { Text } from "../text/text";
import { CLAUDE_ESTIMATE_ERROR, CLAUDE_USAGE_FACTOR, countClaudeVocabulary } from "./claude";
import { o200kEncoding } from "./tables";

/** o200k_base token count; special-token strings (`<|endoftext|>`, …) are counted as text, never refused. */
function countO200k(text: string): number {
  return o200kEncoding().count(text);
}

export interface TokenCounter {
  /** Stable id, also used to key caches: "o200k", "chars/4", "o200k×1.1", … */
  id: string;
  /** True when the count is what the provider's tokenizer gives for this text (TK-1). */
  exact: boolean;
  /** Short label for the UI: "exact (o200k)", "estimate (chars/4)". */
  label: string;
  count(text: string): number;
  /**
   * The count from the text's UTF-16 length alone, for counters that need no more (chars/4): the
   * segment builder then measures texts without joining them, and texts kept as bytes without
   * decoding them. Must equal `count` of any text of that length.
   */
  countLength?(length: number): number;
  /**
   * The count of the text `parts` make when joined, for counters whose counts are keyed by the
   * parts themselves (made on other cores): a part kept as bytes is then read only where it is
   * counted, never to look its count up. Must equal `count` of the joined text.
   */
  countParts?(parts: readonly Text[]): number;
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
  countLength: (length) => Math.ceil(length / 4),
};

/**
 * o200k × factor, the Anthropic/Gemini estimate of TK-3 and TK-5 (`claudeFactor`, default 1.0),
 * over `source`'s o200k counts (default: counted here).
 */
function scaledO200kCounter(factor: number, source: TokenCounter = o200kCounter): TokenCounter {
  // A source with o200kCounter's id gives its counts: the scaled counter keeps its id too.
  const prefix = source.id === o200kCounter.id ? "" : `${source.id}:`;
  return withScaledParts(
    {
      id: `${prefix}o200k×${factor}`,
      exact: false,
      label: `estimate (o200k × ${factor})`,
      count: (text) => (text.length === 0 ? 0 : Math.round(source.count(text) * factor)),
    },
    source,
    factor,
  );
}

/** Gives `counter` (`source`'s counts × `factor`) the source's way of counting parts, when it has one. */
function withScaledParts(counter: TokenCounter, source: TokenCounter, factor: number): TokenCounter {
  const countParts = source.countParts;
  if (countParts) counter.countParts = (parts) => Math.round(countParts(parts) * factor);
  return counter;
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
  /**
   * Where o200k counts come from, instead of counting here: a counter that gives the same counts
   * as `o200kCounter` (e.g. looked up from counts made on other cores), or one that only collects
   * the texts it is asked about. Its `id` keys the per-content caches, so give each source its own.
   */
  o200kSource?: TokenCounter;
  /**
   * Where the Claude vocabulary's counts (unscaled) come from for the Anthropic estimate, on the
   * same terms as `o200kSource`.
   */
  claudeSource?: TokenCounter;
}

/** The id of a source giving countClaudeVocabulary's counts (precounted.ts). */
export const CLAUDE_VOCABULARY_ID = "claude";

/** Anthropic estimates over a Claude-vocabulary source, one per source (and its caches). */
const claudeEstimates = new WeakMap<TokenCounter, TokenCounter>();

/** The Anthropic estimate (claudeEstimateCounter) over `source`'s vocabulary counts. */
function claudeEstimateOver(source: TokenCounter): TokenCounter {
  let counter = claudeEstimates.get(source);
  if (!counter) {
    // A source giving the vocabulary's own counts keeps the estimate's id: the counts are its.
    const id = source.id === CLAUDE_VOCABULARY_ID ? claudeEstimateCounter.id : `${source.id}:${claudeEstimateCounter.id}`;
    counter = withScaledParts(
      {
        id,
        exact: false,
        label: claudeEstimateCounter.label,
        count: (text) => (text.length === 0 ? 0 : Math.round(source.count(text) * CLAUDE_USAGE_FACTOR)),
      },
      source,
      CLAUDE_USAGE_FACTOR,
    );
    claudeEstimates.set(source, counter);
  }
  return counter;
}

/** Scaled counters per o200k source and factor, so a counter (and its caches) is made once. */
const scaledCounters = new WeakMap<TokenCounter, Map<number, TokenCounter>>();

/** The counter to use for a wire shape (TK-1, TK-3, TK-5). */
export function counterForApi(api: ApiId, options: CounterOptions = {}): TokenCounter {
  if (options.counter) return options.counter;
  const choice = options.tokenizer ?? "auto";
  if (choice === "estimate") return charsPerFourCounter;
  const source = options.o200kSource ?? o200kCounter;
  const isOpenAi = api === "openai-completions" || api === "openai-responses";
  if (isOpenAi) return source;
  if (choice === "auto" && api === "anthropic-messages" && options.claudeFactor === undefined) {
    return options.claudeSource ? claudeEstimateOver(options.claudeSource) : claudeEstimateCounter;
  }
  const factor = choice === "o200k" ? 1 : (options.claudeFactor ?? 1);
  let bySource = scaledCounters.get(source);
  if (!bySource) {
    bySource = new Map();
    scaledCounters.set(source, bySource);
  }
  let counter = bySource.get(factor);
  if (!counter) {
    counter = scaledO200kCounter(factor, source);
    bySource.set(factor, counter);
  }
  return counter;
}
