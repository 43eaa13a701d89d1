// CA-12: the simulation beside the recorded cache counters, and a classification of each
// disagreement (or of a recorded miss the simulation also predicted): ttl-expired, prefix-break,
// cold-start, below-minimum, provider-side.
import type { PrefixCause } from "../prefix/types";
import type { ExpiryReport } from "./expiry";
import type { CachePrediction } from "./simulate";
import type { NormalizedUsage } from "./usage";

type CacheDisagreement = "ttl-expired" | "prefix-break" | "cold-start" | "below-minimum" | "provider-side";

export interface UsageComparison {
  predictedRead: number;
  recordedRead: number;
  predictedWrite: number;
  recordedWrite: number;
  /** Predicted and recorded reads agree within the tolerance. */
  agrees: boolean;
  /** Why the recorded read is what it is when it disagrees, or why both say "miss". */
  classification: CacheDisagreement | null;
  explanation: string;
}

export interface CompareContext {
  /** First request of this model / prefix in the session. */
  firstRequest: boolean;
  /** PD-2 cause of this turn's break, null when it extends the previous request. */
  cause: PrefixCause | null;
  expiry: ExpiryReport | null;
  /** Shared prefix with the previous request, in tokens. */
  sharedTokens: number;
  /** Allowed difference in tokens (estimates are not exact). Default max(128, 5 % of input). */
  tolerance?: number;
}

function comparison(
  predictedRead: number,
  recordedRead: number,
  predictedWrite: number,
  recordedWrite: number,
  agrees: boolean,
  classification: CacheDisagreement | null,
  explanation: string,
): UsageComparison {
  return { predictedRead, recordedRead, predictedWrite, recordedWrite, agrees, classification, explanation };
}

export function compareUsage(prediction: CachePrediction, recorded: NormalizedUsage, context: CompareContext): UsageComparison {
  const predictedRead = prediction.certainty === "possible" ? prediction.possibleCachedTokens : prediction.cacheRead;
  const recordedRead = recorded.cacheRead;
  const tolerance = context.tolerance ?? Math.max(128, Math.round(0.05 * Math.max(recorded.totalInput, prediction.totalInput)));
  const agrees = Math.abs(predictedRead - recordedRead) <= tolerance;
  // Each return makes the comparison once (every turn makes one), not a base object then a copy.
  const base = (classification: CacheDisagreement | null, explanation: string) =>
    comparison(predictedRead, recordedRead, prediction.cacheWrite, recorded.cacheWrite, agrees, classification, explanation);
  const belowMinimum = context.sharedTokens < prediction.minimum.value && prediction.totalInput < prediction.minimum.value;
  const recordedMiss = recordedRead <= tolerance;

  if (recordedMiss) {
    if (context.firstRequest) return base("cold-start", "First request: nothing to read yet");
    if (context.expiry && context.expiry.status === "expired" && context.cause === null)
      return base("ttl-expired", `Prefix matched but the gap exceeds the TTL (${context.expiry.rule})`);
    if (context.cause !== null) return base("prefix-break", `Prefix break: ${context.cause}`);
    if (belowMinimum) return base("below-minimum", `Prefix below the minimum of ${prediction.minimum.value} tokens`);
    if (!agrees) return base("provider-side", "Stable prefix within the TTL but the provider reported no cache read");
    return base(null, "Both report no cache read");
  }
  if (agrees) return base(null, "Prediction matches the recorded cache read");
  if (context.expiry && context.expiry.status !== "live" && recordedRead < predictedRead)
    return base("ttl-expired", `Part of the prefix expired (${context.expiry.rule})`);
  return base(
    "provider-side",
    recordedRead > predictedRead
      ? "The provider read more than predicted (an older entry, another breakpoint, or a different minimum)"
      : "The provider read less than predicted",
  );
}
