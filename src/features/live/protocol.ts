// What following a session's file hands the page: the notices of new turns and what a poll found.
// Types only.
import type { PipelineOptions } from "../../core/model";
import type { AnalysisDelta } from "../../app/analysisDelta";
import type { SessionSummary } from "../open/protocol";

/** A new turn of a followed file that the user is told about: a cache break, or a compaction before it. */
export interface LiveNotice {
  turn: number;
  kind: "break" | "compaction";
  /** The break's cause in words; null for a compaction whose turn still extends the prefix. */
  cause: string | null;
  /** Tokens the previous request had cached that this one sends again, and their price (null: not priced). */
  rebilledTokens: number;
  rebilledDollars: number | null;
  /** The turn's request tokens (estimate). */
  tokens: number;
}

/** What a poll of the followed file found. */
export type LivePollResult =
  | { status: "unchanged" | "not-followed" }
  | {
      /** "appended": only the bytes past the last read were read; "rewritten": the file was read again whole. */
      status: "appended" | "rewritten";
      summary: SessionSummary;
      notices: LiveNotice[];
      /** Bytes read by this poll. */
      readBytes: number;
      /**
       * Appended, main thread: what changed in the analysis the page was last sent for the poll's
       * options (the page appends it to the one it holds); absent when the page must ask for the
       * whole analysis (a rewrite, a thread shown, other options).
       */
      delta?: AnalysisDelta;
    };

export interface LiveMethods {
  /** The followed file (opened with a handle) as it is now: its appended turns, or the file read again. */
  livePoll: { params: { options: PipelineOptions }; result: LivePollResult };
}
