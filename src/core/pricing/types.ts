// Types of the price table and of priced usage. Rows and priced results are plain data
// (structured-cloneable, JSON-safe); a table may also carry a function that finds rows it does not
// list (the price dataset, src/core/pricing/dataset.ts), which stays where the table was made.
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
  /**
   * Prices that replace the row's from a date on, or at certain hours (a provider's off-peak
   * discount), in the dataset's order: the last variant whose condition holds wins, none → the
   * row's own prices. Priced at a request's timestamp; a request without one pays the row's prices.
   */
  variants?: PriceVariant[];
  /** Model ids as sessions record them ("provider/model") that resolved to this row. */
  aliases?: string[];
  /** The page the figures come from. */
  source: string;
  /** When the figures were recorded (ISO date). */
  date: string;
  note?: string;
  /** Set on rows the user edited or added. */
  edited?: boolean;
}

/** The prices a row's figures can change to; absent fields keep the row's. */
export type VariantPrices = Pick<PriceRow, "input" | "cachedInput" | "cacheWrite5m" | "cacheWrite1h" | "output"> & { longContext?: LongContextPrices };

export interface PriceVariant {
  /** In force from this day on (ISO date, UTC). */
  startDate?: string;
  /** In force between these times of day (UTC, "HH:MM:SS"; the window may wrap past midnight); with `startDate`, only from that day. */
  timeOfDay?: { start: string; end: string };
  prices: VariantPrices;
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

/** The maintained price dataset a table's rows come from. */
export interface PriceDatasetInfo {
  /** The npm package ("@pydantic/genai-prices"). */
  name: string;
  /** Its exact version, pinned in package.json. */
  version: string;
  /** Where its figures and their sources are kept. */
  url: string;
}

export interface PriceTable {
  /** The dataset the rows come from; absent for a table made by hand (tests). */
  dataset?: PriceDatasetInfo;
  /** Rows found so far or edited by the user: looked up first. */
  rows: readonly PriceRow[];
  /**
   * Finds the row of a model the rows do not hold (the dataset's own lookup); absent where the
   * dataset is not loaded (the page's main thread gets the session's rows from the worker).
   */
  resolve?: (model: { provider: string; modelId: string }) => PriceRow | null;
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
  match: "exact" | "model" | "normalised" | "dataset" | null;
  /** Why the result is not fully priced (unknown model, price missing for a part). */
  missing: string[];
  /** Set when the request's input was above the row's long-context threshold and its prices applied. */
  longContext?: { aboveInputTokens: number; inputTokens: number };
}
