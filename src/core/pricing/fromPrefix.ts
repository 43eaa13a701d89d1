// The cost inputs of a turn from its prefix report: recorded usage, the cache simulation's input
// prediction and the tokens a prefix break re-bills (what the previous request had that this one
// does not share), so the CLI and the worker price turns the same way.
import type { PrefixTurnReport } from "../prefix/analyze";
import type { ModelRefLike } from "./lookup";
import type { TurnCostInput } from "./turns";
import type { PriceableUsage } from "./types";

/** Tokens re-billed by a break: the previous request's tokens beyond the shared prefix; 0 without a break. */
export function rebilledTokensOf(report: Pick<PrefixTurnReport, "cause" | "sharedTokens">, previousTokens: number | null): number {
  if (report.cause === null || previousTokens === null) return 0;
  return Math.max(0, previousTokens - report.sharedTokens);
}

/** The prediction's input side as priceable counts, or null without a simulation. */
export function predictedInputOf(report: Pick<PrefixTurnReport, "cache">): Omit<PriceableUsage, "output"> | null {
  const cache = report.cache;
  if (!cache) return null;
  return {
    uncachedInput: cache.uncachedInput,
    cacheRead: cache.certainty === "possible" ? 0 : cache.cacheRead,
    cacheWrite: cache.cacheWrite,
    cacheWrite5m: cache.cacheWrite5m,
    cacheWrite1h: cache.cacheWrite1h,
  };
}

export function costInputOfReport(report: PrefixTurnReport, previousTokens: number | null, model: ModelRefLike | null): TurnCostInput {
  return {
    turn: report.turn,
    model,
    recorded: report.recordedUsage,
    predicted: predictedInputOf(report),
    rebilledTokens: rebilledTokensOf(report, previousTokens),
  };
}
