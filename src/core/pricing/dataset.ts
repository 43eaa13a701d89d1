// The price dataset every table starts from: @pydantic/genai-prices (pinned exact in package.json),
// a maintained list of model prices with a source page per provider, cache-read and cache-write
// prices, long-context tiers and dated price changes. Its own model matching (prefixes, aliases,
// dated snapshots) finds the model a session names; its figures become our `PriceRow`s, under the
// user's edits. The package is pure (no DOM, no Node) and never fetches unless asked to update
// itself, which this project never does. Only the worker and the CLI import this file: the page's
// main thread gets the rows of the open session's models from the worker, so the dataset stays out
// of the page's entry chunk.
import { calcPrice, findProvider, type ModelInfo, type ModelPrice, type Provider, type TieredPrices } from "@pydantic/genai-prices";
import { normaliseModelId, priceKey, type ModelRefLike } from "./lookup";
import type { PriceDatasetInfo, PriceRow, PriceTable, PriceVariant, VariantPrices } from "./types";

/** The dataset's package and version (a test checks it against the installed package). */
export const PRICE_DATASET: PriceDatasetInfo = {
  name: "@pydantic/genai-prices",
  version: "0.1.8",
  url: "https://github.com/pydantic/genai-prices",
};

/** Providers whose models the price panel lists beside the session's own (the agents' usual ones). */
const LISTED_PROVIDERS = ["anthropic", "openai", "google", "deepseek", "zhipuai", "moonshotai", "x-ai", "mistral"];

/** The reseller whose list prices a model the first-party lists lack. */
const RESELLER = "openrouter";

type Price = number | TieredPrices | undefined;

function base(price: Price): number | null {
  if (price === undefined) return null;
  return typeof price === "number" ? price : price.base;
}

function tier(price: Price): { start: number; price: number } | null {
  return typeof price === "object" && price.tiers.length > 0 ? price.tiers[0]! : null;
}

/**
 * A dataset price entry as our row's figures. A part the dataset does not price apart is billed
 * as its parent: cache reads and writes without their own price cost input, a 1-hour write
 * without its own price costs a (5-minute) write. One long-context tier (the dataset has no
 * model with two) applies above its input-token threshold to every price that has it.
 */
function variantPrices(prices: ModelPrice): VariantPrices {
  const input = base(prices.input_mtok);
  const cacheWrite5m = base(prices.cache_write_mtok) ?? input;
  const out: VariantPrices = {
    input,
    cachedInput: base(prices.cache_read_mtok) ?? input,
    cacheWrite5m,
    cacheWrite1h: base(prices.cache_write_1h_mtok) ?? cacheWrite5m,
    output: base(prices.output_mtok),
  };
  const inputTier = tier(prices.input_mtok);
  if (inputTier && out.output !== null) {
    // Above the threshold: a price's own tier, else its flat price, else its parent's long price.
    const long = (price: Price, parent: number) => tier(price)?.price ?? base(price) ?? parent;
    const longWrite5m = long(prices.cache_write_mtok, inputTier.price);
    out.longContext = {
      aboveInputTokens: inputTier.start,
      input: inputTier.price,
      cachedInput: long(prices.cache_read_mtok, inputTier.price),
      output: long(prices.output_mtok, out.output),
      cacheWrite5m: longWrite5m,
      cacheWrite1h: long(prices.cache_write_1h_mtok, longWrite5m),
    };
  }
  return out;
}

/**
 * A row's dated changes and hours with other prices. The dataset cannot give one entry both a day
 * and hours, so a row that changed on a day to hours with other prices (DeepSeek's V4 models from
 * 2026-08-17: before it, one flat price all day) lists the hours undated; its own comment says the
 * hours then wrongly apply before that day too. Here hours in a row with a dated change start on
 * the latest such day, so a request sent before it pays the flat price DeepSeek charged then.
 */
function variantsOf(model: ModelInfo): { current: ModelPrice; variants: PriceVariant[] } {
  if (!Array.isArray(model.prices)) return { current: model.prices, variants: [] };
  const variants: PriceVariant[] = [];
  const dates = model.prices.flatMap((entry) => (entry.constraint?.type === "start_date" ? [entry.constraint.start_date] : []));
  const hoursFrom = dates.length > 0 ? dates.reduce((latest, date) => (date > latest ? date : latest)) : undefined;
  for (const entry of model.prices.slice(1)) {
    const constraint = entry.constraint;
    if (!constraint) continue;
    if (constraint.type === "start_date") variants.push({ startDate: constraint.start_date, prices: variantPrices(entry.prices) });
    else {
      const hours: PriceVariant = { timeOfDay: { start: constraint.start_time, end: constraint.end_time }, prices: variantPrices(entry.prices) };
      if (hoursFrom !== undefined) hours.startDate = hoursFrom;
      variants.push(hours);
    }
  }
  return { current: model.prices[0]!.prices, variants };
}

function rowOf(provider: Provider, model: ModelInfo): PriceRow {
  const { current, variants } = variantsOf(model);
  const prices = variantPrices(current);
  const notes = [model.price_comments, provider.price_comments].filter((text): text is string => Boolean(text));
  return {
    provider: provider.id,
    model: model.id,
    ...prices,
    reasoning: null,
    ...(variants.length > 0 ? { variants } : {}),
    source: provider.pricing_urls?.[0] ?? PRICE_DATASET.url,
    date: `${PRICE_DATASET.name} ${PRICE_DATASET.version}`,
    ...(notes.length > 0 ? { note: notes.join(" ") } : {}),
  };
}

/** The dataset's model for a session's model: under its provider, else by the model id alone. */
function datasetModel(ref: ModelRefLike): { provider: Provider; model: ModelInfo } | null {
  const tries: { id: string; provider?: string }[] = [];
  const id = ref.modelId.trim();
  const normal = normaliseModelId(id);
  if (findProvider({ providerId: ref.provider })) tries.push({ id, provider: ref.provider });
  tries.push({ id });
  if (normal !== id.toLowerCase()) {
    if (findProvider({ providerId: ref.provider })) tries.push({ id: normal, provider: ref.provider });
    tries.push({ id: normal });
  }
  for (const attempt of tries) {
    let found;
    try {
      // A zero usage: only the match is wanted. The dataset's own time-dependent choice is ours to make.
      found = calcPrice({ input_tokens: 0, output_tokens: 0 }, attempt.id, attempt.provider ? { providerId: attempt.provider } : undefined);
    } catch {
      found = null;
    }
    if (found) return { provider: found.provider, model: found.model };
  }
  return resoldModel(normal);
}

/**
 * A model no first-party list in the dataset has (Qwen's, and models a vendor no longer lists, such
 * as GLM-4.6) priced as OpenRouter, a public reseller in the dataset, lists it: "vendor/<id>",
 * never a free or discounted variant.
 */
function resoldModel(id: string): { provider: Provider; model: ModelInfo } | null {
  const reseller = findProvider({ providerId: RESELLER });
  if (!reseller) return null;
  const model = reseller.models.find((candidate) => !candidate.deprecated && candidate.id.toLowerCase().endsWith(`/${id}`));
  return model ? { provider: reseller, model } : null;
}

const resolved = new Map<string, PriceRow | null>();

/** The dataset's row for a model as a session names it, or null when the dataset lacks it. */
export function datasetPriceRow(ref: ModelRefLike): PriceRow | null {
  const key = priceKey(ref.provider, ref.modelId);
  const cached = resolved.get(key);
  if (cached !== undefined) return cached;
  const found = datasetModel(ref);
  const row = found ? rowOf(found.provider, found.model) : null;
  resolved.set(key, row);
  return row;
}

/** A table of the whole dataset: rows are found as sessions name their models. */
export function datasetPriceTable(): PriceTable {
  return { dataset: PRICE_DATASET, rows: [], resolve: datasetPriceRow };
}

/**
 * The rows of the models a session names (each once, with the names that led to it), for the
 * page's main thread, which prices without the dataset; models the dataset lacks are left out
 * (their turns are "not priced", naming the model).
 */
export function datasetRowsFor(models: readonly ModelRefLike[]): PriceRow[] {
  const rows = new Map<string, PriceRow>();
  for (const ref of models) {
    const row = datasetPriceRow(ref);
    if (!row) continue;
    const key = priceKey(row.provider, row.model);
    const kept = rows.get(key) ?? { ...row, aliases: [] };
    const alias = priceKey(ref.provider, ref.modelId).toLowerCase();
    if (!kept.aliases!.includes(alias)) kept.aliases!.push(alias);
    rows.set(key, kept);
  }
  return [...rows.values()];
}

/** The rows of the providers coding agents usually call, for the price panel's list. */
export function datasetListedRows(): PriceRow[] {
  const rows: PriceRow[] = [];
  for (const id of LISTED_PROVIDERS) {
    const provider = findProvider({ providerId: id });
    if (!provider) continue;
    for (const model of provider.models) {
      if (model.deprecated) continue;
      const row = rowOf(provider, model);
      if (row.input !== null && row.output !== null) rows.push(row);
    }
  }
  return rows;
}
