// The cost inputs of a turn from its prefix report: recorded usage, the cache simulation's input
// prediction and the tokens a prefix break made the provider bill again, so the CLI and the
// worker price turns the same way.
import type { PrefixTurnReport } from "../prefix/analyze";
import type { ModelRefLike } from "./lookup";
import type { TurnCostInput } from "./turns";
import type { PriceableUsage } from "./types";

/**
 * Tokens a break made the provider bill again: the part of this request past the shared prefix
 * that the previous request also covered (its new tail would be billed anyway), never more than
 * this request holds. Where the turn's usage is recorded, never more than the provider billed
 * without reading it from the cache either (recorded input minus cache reads). 0 without a break.
 * After a compaction the dropped history is not counted: it is not sent at all, so not billed.
 * The Diff tab, the live notice, the overview and the CLI all take the figure from here.
 */
export function rebilledTokensOf(
  report: Pick<PrefixTurnReport, "cause" | "sharedTokens" | "tokens" | "recordedUsage">,
  previousTokens: number | null,
): number {
  if (report.cause === null || previousTokens === null) return 0;
  const resent = Math.max(0, Math.min(previousTokens, report.tokens) - report.sharedTokens);
  const usage = report.recordedUsage;
  if (!usage || usage.totalInput <= 0) return resent;
  return Math.min(resent, Math.max(0, usage.totalInput - usage.cacheRead));
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
