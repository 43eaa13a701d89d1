// Types of the price table and of priced usage. Plain data: structured-cloneable, JSON-safe.
import type { NormalizedUsage } from "../caching/usage";

/** US dollars per million tokens for one model (at one provider). `null`: the price is unknown. */
export interface PriceRow {
  /** Provider id as sessions record it ("anthropic", "openai", "google", "deepseek", …). */
  provider: string;
  /** Model id without date suffix or routing prefix ("claude-sonnet-4-5", "gpt-4.1"). */
  model: string;
  input: number | null;
  /** Input served from the prompt cache. */
  cachedInput: number | null;
  /** Cache write with a 5-minute TTL (Anthropic's default); the input price where writes cost no extra. */
  cacheWrite5m: number | null;
  /** Cache write with a 1-hour TTL. */
  cacheWrite1h: number | null;
  output: number | null;
  /** Reasoning (thinking) output when the usage counts it apart; null: billed as output. */
  reasoning: number | null;
  /**
   * Prices in force when a request's input (uncached + cache reads + cache writes) exceeds
   * `aboveInputTokens`: Gemini Pro's long prompts, Claude Sonnet 4/4.5 above 200k (1M context).
   * Cache-write prices absent here stay the row's standard ones.
   */
  longContext?: LongContextPrices;
  /** The page the figures come from. */
  source: string;
  /** When the figures were recorded (ISO date). */
  date: string;
  note?: string;
  /** Set on rows the user edited or added. */
  edited?: boolean;
}

interface LongContextPrices {
  aboveInputTokens: number;
  input: number;
  cachedInput: number;
  output: number;
  cacheWrite5m?: number;
  cacheWrite1h?: number;
  /** Where the long-context figures come from, when another page than the row's. */
  source?: string;
}

export interface PriceTable {
  version: number;
  asOf: string;
  rows: readonly PriceRow[];
}

/** The user's price edits, keyed "provider/model" (like the model catalogue's overrides). */
export type PriceOverrides = Record<string, Partial<PriceRow>>;

/**
 * Token counts to price: the counts of a recorded usage (`NormalizedUsage`; `CachePrediction`
 * fits too). `cacheWrite` is all cache writes, the TTL split says which price applies when known;
 * `output` includes reasoning, `reasoningOutput` is the part of it the usage names.
 */
export type PriceableUsage = Pick<NormalizedUsage, "uncachedInput" | "cacheRead" | "cacheWrite" | "cacheWrite5m" | "cacheWrite1h" | "output" | "reasoningOutput">;

export type PriceStatus = "priced" | "partly priced" | "not priced";

export type PricePartKind = "input" | "cached input" | "cache write 5m" | "cache write 1h" | "output" | "reasoning";

export interface PricePart {
  kind: PricePartKind;
  tokens: number;
  /** Dollars per million tokens applied, or null when unknown. */
  perMillion: number | null;
  /** Dollars, or null when the price is unknown. */
  dollars: number | null;
}

export interface PricedUsage {
  status: PriceStatus;
  /** Sum of the priced parts; null when nothing could be priced. A lower bound when partly priced. */
  dollars: number | null;
  parts: PricePart[];
  /** The row used ("provider/model"), null when no row matched. */
  row: string | null;
  /** How the row was found: exact, by model id alone, or after normalising the id. */
  match: "exact" | "model" | "normalised" | null;
  /** Why the result is not fully priced (unknown model, price missing for a part). */
  missing: string[];
  /** Set when the request's input was above the row's long-context threshold and its prices applied. */
  longContext?: { aboveInputTokens: number; inputTokens: number };
}
