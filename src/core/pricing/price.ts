// Pricing usage: token counts × the model's price row → dollars, with an honest status. A turn whose
// model has no row is "not priced" (dollars null, never $0.00); a turn that needs a price the row
// lacks (say a 1-hour cache write of a model whose 1-hour price is unknown) is "partly priced", and
// its dollars are the sum of what could be priced (a lower bound). Cache writes without a recorded
// TTL split are priced at the 5-minute price (Anthropic's default TTL) and the part says so.
import { findPriceRow, type ModelRefLike } from "./lookup";
import { rowAt } from "./variants";
import type { PricePart, PricePartKind, PriceRow, PriceStatus, PriceTable, PriceableUsage, PricedUsage } from "./types";

const PER = 1_000_000;

function part(kind: PricePartKind, tokens: number, perMillion: number | null): PricePart {
  return { kind, tokens, perMillion, dollars: perMillion === null ? null : partDollars(tokens, perMillion) };
}

function partDollars(tokens: number, perMillion: number): number {
  return (tokens * perMillion) / PER;
}

type TierPrices = Pick<PriceRow, "input" | "cachedInput" | "output" | "cacheWrite5m" | "cacheWrite1h">;

/** The long-context tier's prices of each row, made once per row (a session prices every turn). */
const longTiers = new WeakMap<PriceRow, TierPrices>();

/** The row's prices in force for a request of `totalInput` tokens (long-context tiers): the row itself below the tier. */
function pricesFor(row: PriceRow, totalInput: number): TierPrices {
  const long = row.longContext;
  if (!long || totalInput <= long.aboveInputTokens) return row;
  let prices = longTiers.get(row);
  if (prices === undefined) {
    prices = { input: long.input, cachedInput: long.cachedInput, output: long.output, cacheWrite5m: long.cacheWrite5m ?? row.cacheWrite5m, cacheWrite1h: long.cacheWrite1h ?? row.cacheWrite1h };
    longTiers.set(row, prices);
  }
  return prices;
}

/** The name of a model for a "no price" reason: the id as the session records it. */
function modelName(model: ModelRefLike | null): string {
  return model ? `${model.provider}/${model.modelId}` : "unknown model";
}

/**
 * Calls `visit` for each part of `usage` with tokens, with the price per million tokens the row
 * has for it (null: the row lacks it), in the order a cost is shown. Returns whether the
 * long-context tier applied.
 */
function visitParts(usage: PriceableUsage, row: PriceRow, tally: PartTally): boolean {
  const prices = pricesFor(row, totalInputOf(usage));
  if (usage.uncachedInput > 0) visit(tally, "input", usage.uncachedInput, prices.input);
  if (usage.cacheRead > 0) visit(tally, "cached input", usage.cacheRead, prices.cachedInput);
  const split1h = usage.cacheWrite1h ?? 0;
  const split5m = usage.cacheWrite5m !== undefined ? usage.cacheWrite5m : usage.cacheWrite - split1h;
  if (split5m > 0) visit(tally, "cache write 5m", split5m, prices.cacheWrite5m);
  if (split1h > 0) visit(tally, "cache write 1h", split1h, prices.cacheWrite1h);
  const reasoning = row.reasoning !== null && usage.reasoningOutput !== undefined ? Math.min(usage.reasoningOutput, usage.output) : 0;
  if (usage.output - reasoning > 0) visit(tally, "output", usage.output - reasoning, prices.output);
  if (reasoning > 0) visit(tally, "reasoning", reasoning, row.reasoning);
  return prices !== row;
}

/** What the parts of one usage add up to, as `visitParts` visits them. */
interface PartTally {
  dollars: number;
  anyPriced: boolean;
  /** The parts whose price the row lacks, named ("input price"). */
  missing: string[];
  /** Every part, or NO_PARTS when the caller wants none. */
  parts: PricePart[];
}

/** The parts of a usage priced without its parts (shared and frozen: nothing may add to it). */
const NO_PARTS: PricePart[] = Object.freeze([]) as unknown as PricePart[];

function visit(tally: PartTally, kind: PricePartKind, tokens: number, perMillion: number | null): void {
  if (perMillion === null) tally.missing.push(`${kind} price`);
  else {
    tally.dollars += partDollars(tokens, perMillion);
    tally.anyPriced = true;
  }
  if (tally.parts !== NO_PARTS) tally.parts.push(part(kind, tokens, perMillion));
}

function totalInputOf(usage: PriceableUsage): number {
  return usage.uncachedInput + usage.cacheRead + usage.cacheWrite;
}

/** A priced usage's status and dollars from its parts' sum, whether any was priced and how many were not. */
function statusOf(dollars: number, anyPriced: boolean, missing: number): { status: PriceStatus; dollars: number | null } {
  const status: PriceStatus = missing === 0 ? "priced" : anyPriced ? "partly priced" : "not priced";
  return { status, dollars: missing === 0 || anyPriced ? dollars : null };
}

/** What `priceUsage` gives for a total: the status and dollars alone, without the parts (a session sums thousands). */
export function priceUsageTotal(usage: PriceableUsage | null, model: ModelRefLike | null, table: PriceTable, at?: string | null): PricedSummand {
  if (!usage) return NOT_PRICED;
  const found = findPriceRow(model, table);
  if (!found) return NOT_PRICED;
  const tally: PartTally = { dollars: 0, anyPriced: false, missing: [], parts: NO_PARTS };
  visitParts(usage, rowAt(found.row, at), tally);
  return statusOf(tally.dollars, tally.anyPriced, tally.missing.length);
}

/** The status and dollars of a priced usage: what a total is made of. */
export type PricedSummand = Pick<PricedUsage, "status" | "dollars">;

const NOT_PRICED: PricedSummand = { status: "not priced", dollars: null };

/**
 * Prices one usage (recorded or predicted) for a model; `at` is the request's time (ISO text),
 * for rows whose prices changed on a date or differ by the hour. `withParts` false leaves `parts`
 * empty, for a caller that shows the status, dollars and missing prices only (a line per turn):
 * the dollars are the same sum, in the same order.
 */
export function priceUsage(usage: PriceableUsage | null, model: ModelRefLike | null, table: PriceTable, at?: string | null, withParts = true): PricedUsage {
  if (!usage) return { status: "not priced", dollars: null, parts: [], row: null, match: null, missing: ["no usage"] };
  const found = findPriceRow(model, table);
  if (!found) return { status: "not priced", dollars: null, parts: [], row: null, match: null, missing: [`no price for ${modelName(model)}`] };
  const row = rowAt(found.row, at);
  // One tally for the parts, not a closure over changing locals: a line per turn prices twice.
  const tally: PartTally = { dollars: 0, anyPriced: false, missing: [], parts: withParts ? [] : NO_PARTS };
  const long = visitParts(usage, row, tally);
  // Built field by field, not spread: a session prices every turn (the keys' order is the output's).
  const status = statusOf(tally.dollars, tally.anyPriced, tally.missing.length);
  const priced: PricedUsage = { status: status.status, dollars: status.dollars, parts: tally.parts, row: rowName(row), match: found.match, missing: tally.missing };
  if (long && row.longContext) priced.longContext = { aboveInputTokens: row.longContext.aboveInputTokens, inputTokens: totalInputOf(usage) };
  return priced;
}

/** "provider/model" of each row, made once per row (a session names its row every turn). */
const rowNames = new WeakMap<PriceRow, string>();

function rowName(row: PriceRow): string {
  let name = rowNames.get(row);
  if (name === undefined) {
    name = `${row.provider}/${row.model}`;
    rowNames.set(row, name);
  }
  return name;
}

export interface PricedTotal {
  status: PriceStatus;
  /** Sum over priced (and partly priced) items; null when none could be priced. */
  dollars: number | null;
  priced: number;
  partly: number;
  notPriced: number;
}

/** The total of several priced usages (a session's turns): "priced" only when every one is. */
export function sumPriced(items: readonly Pick<PricedUsage, "status" | "dollars">[]): PricedTotal {
  let dollars = 0;
  let priced = 0;
  let partly = 0;
  let notPriced = 0;
  for (const item of items) {
    if (item.status === "priced") priced++;
    else if (item.status === "partly priced") partly++;
    else notPriced++;
    if (item.dollars !== null) dollars += item.dollars;
  }
  const status: PriceStatus = partly === 0 && notPriced === 0 ? "priced" : priced + partly > 0 ? "partly priced" : "not priced";
  return { status, dollars: priced + partly > 0 ? dollars : null, priced, partly, notPriced };
}

/**
 * What a prefix break cost: the tokens the previous request had cached that this one sends again
 * (`rebilledTokens`), priced as written again (the 5-minute write price, which is the input price
 * where writes cost no extra) instead of read from the cache.
 */
export function priceRebilled(rebilledTokens: number, model: ModelRefLike | null, table: PriceTable, at?: string | null): PricedUsage {
  const found = findPriceRow(model, table);
  if (!found) return { status: "not priced", dollars: null, parts: [], row: null, match: null, missing: [`no price for ${modelName(model)}`] };
  const row = rowAt(found.row, at);
  const write = row.cacheWrite5m ?? row.input;
  const perMillion = write === null || row.cachedInput === null ? null : write - row.cachedInput;
  const parts = rebilledTokens > 0 ? [part("cache write 5m", rebilledTokens, perMillion)] : [];
  const missing = perMillion === null && rebilledTokens > 0 ? ["cache write or cached input price"] : [];
  return {
    status: missing.length ? "not priced" : "priced",
    dollars: missing.length ? null : (parts[0]?.dollars ?? 0),
    parts,
    row: rowName(row),
    match: found.match,
    missing,
  };
}
