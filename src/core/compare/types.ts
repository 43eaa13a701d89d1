// Types of comparing two sessions (or two branches of one): turns aligned by user message, then
// by position; per aligned pair whether the requests differ in what the provider's cache keys
// on; totals side by side. Plain data: printed by the CLI, sent by the worker to the UI.
import type { SessionCostTotals } from "../pricing/index";

/** How a pair was aligned. */
type AlignedBy = "user-message" | "position" | "unmatched";

export interface AlignedPair {
  /** 1-based turn on side A, null when only B has this turn. */
  a: number | null;
  b: number | null;
  by: AlignedBy;
}

export interface RequestDifference {
  /** The two requests differ in content the cache keys on (model, settings, segments). */
  differs: boolean;
  /**
   * The first differing place in cache order: `api` (different wire shapes), `model`, the JSON
   * path of the first differing segment (`messages[3].content[0].text`), or `settings.<name>`
   * when only a PR-7 setting differs. Null when equal or when one side has no turn.
   */
  path: string | null;
  /** PR-7 settings that differ (`reasoning_effort`, …). */
  settingsChanged: string[];
  /** Bytes and tokens both requests share from the start, in cache order (on B's count). */
  sharedBytes: number;
  sharedTokens: number;
}

export interface ComparedPair extends AlignedPair, RequestDifference {
  /** The newest user message of the turn (A's, else B's), cut to 120 characters. */
  userText: string | null;
  /** Request tokens of each side (null for a missing side). */
  tokensA: number | null;
  tokensB: number | null;
}

export interface SideTotals {
  turns: number;
  /** Sum of every turn's request tokens (what was sent, in the prefix analysis' count). */
  tokensSent: number;
  largestRequest: number;
  /** Sum of the recorded input usage (input + cache read + cache write), null when none is recorded. */
  recordedInput: number | null;
  /** Turns whose request breaks the previous one's prefix, and those with an unexpected cause. */
  breaks: number;
  unexpectedBreaks: number;
  compactions: number;
  /**
   * Dollars of the side's turns (recorded usage, cache prediction, prefix breaks) from the price
   * table of `CompareOptions.prices`; null when the caller passed none.
   */
  cost: SessionCostTotals | null;
}

export interface SessionComparison {
  pairs: ComparedPair[];
  /** Index in `pairs` of the first pair whose requests differ (a one-sided pair counts), or null. */
  firstDifference: number | null;
  totals: { a: SideTotals; b: SideTotals };
}
