// Prefix stability as the page shows it: every turn's report (timeline badges and chart), the Diff
// tab, the Tokens tab and the context composition over the session. Types only.
import type { PipelineOptions } from "../../core/model";
import type { TurnComposition } from "../../core/session/sessionComposition";
import type { MadeFor } from "../../worker/madeFor";

// ---------------------------------------------------------------------------------------------
// Prefix stability: per-turn reports for the timeline and chart, the Diff tab, and the
// Tokens tab. "estimate" counts chars/4 (fast, shown first); "exact" counts o200k (exact for
// OpenAI shapes, labelled estimates for Anthropic and Google) and replaces it when it finishes.

export type TokenPass = "estimate" | "exact";

/** The part of a PrefixTurnReport the UI shows for every turn. */
export interface PrefixRow {
  turn: number;
  bytes: number;
  sharedBytes: number;
  tokens: number;
  sharedTokens: number;
  tokensExact: boolean;
  /** How `tokens` were counted, in words ("exact (o200k)", "estimate (chars/4)"). */
  counterLabel: string;
  breakPath: string | null;
  cause: string | null;
  causeDetail: string | null;
  contributing: string[];
  /** Cached tokens the cache simulation predicts (Gemini: possible hits). */
  predictedCachedTokens: number | null;
  /** Recorded usage, normalised (CA-21): cache reads and all input tokens; null when not recorded. */
  recordedCacheRead: number | null;
  recordedInput: number | null;
  /** Cache expiry from the gap to the previous request ("live", "expired", …), null for turn 1. */
  expiry: string | null;
  /** The cache simulation's input prediction (reads, writes by TTL, uncached), for the predicted cost. */
  predictedInput?: { uncachedInput: number; cacheRead: number; cacheWrite: number; cacheWrite5m?: number; cacheWrite1h?: number } | null;
  /** Tokens a prefix break made the provider bill again (`rebilledTokensOf`; 0 without a break). */
  rebilledTokens?: number;
  /**
   * What the file does not hold (system prompt, tools), in tokens, inferred from the recorded
   * usage of turn `unrecordedFromTurn`; null when nothing is missing or nothing allowed it.
   */
  unrecordedTokens: number | null;
  unrecordedFromTurn: number | null;
  /** The provider's own cache verdict the file records for the call (`tools_changed`, `none`, …), null when none. */
  serverVerdict: string | null;
  serverMissedTokens: number | null;
  serverAgreement: "agree" | "disagree" | "inconclusive" | "no-verdict";
  /** The provider reported a change (a break it saw), whether or not the rebuilt requests show one. */
  serverBreak: boolean;
  /** The recorded usage shows a cache miss that neither a break, an expired cache nor the provider explains. */
  unexplainedMiss: boolean;
  /** The provider's verdict beside ours, or the unexplained miss, in plain words; null when there is nothing to say. */
  serverNote: string | null;
}

interface PrefixReportsResult {
  pass: TokenPass;
  rows: PrefixRow[];
  /** The session and options the rows are of: the page drops rows that are not for what it shows. */
  madeFor: MadeFor;
}

export interface TurnDiffResult {
  turn: number;
  /** Null on the first turn (nothing to compare with). */
  previousTurn: number | null;
  previousJson: string;
  currentJson: string;
  /** UTF-16 offset in `currentJson` where the shared prefix ends (the first differing position). */
  boundaryOffset: number | null;
  row: PrefixRow;
  /** "extends the previous request", or the cause in words ("history rewritten (compaction)"). */
  causeText: string;
  /** Contributing causes in words. */
  contributingText: string[];
  /** Tokens the break made the provider bill again (`rebilledTokensOf`, as every other view). */
  repaidTokens: number;
  /** Token counter label ("exact (o200k)", "estimate (o200k × 1)"). */
  counterLabel: string;
}

export interface TokenCompositionResult {
  turn: number;
  pass: TokenPass;
  exact: boolean;
  counterLabel: string;
  total: number;
  rows: { kind: string; label: string; count: number; tokens: number }[];
  messages: { index: number; kind: string; role: string; tokens: number; preview: string }[];
  notRecorded: string[];
}

export interface TokenViewResult {
  turn: number;
  index: number;
  /** o200k pieces; exact only for OpenAI shapes. */
  exact: boolean;
  label: string;
  pieces: string[];
  tokenCount: number;
  truncated: boolean;
}

export interface PrefixMethods {
  prefixReports: { params: { options: PipelineOptions; pass: TokenPass }; result: PrefixReportsResult };
  turnDiff: { params: { options: PipelineOptions; turn: number }; result: TurnDiffResult };
  tokenComposition: { params: { options: PipelineOptions; turn: number; pass: TokenPass }; result: TokenCompositionResult };
  tokenView: { params: { options: PipelineOptions; turn: number; index: number }; result: TokenViewResult };
  /** Every turn's context tokens by kind (chars/4 estimates), for the stacked context chart. */
  sessionComposition: { params: { options: PipelineOptions }; result: { rows: TurnComposition[] } };
}
