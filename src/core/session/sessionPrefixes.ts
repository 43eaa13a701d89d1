// Prefix stability of a whole session branch: every turn's request from the one-pass
// builder (turnRequests.ts) goes through the streaming prefix analyzer (src/core/prefix) with the
// facts only the pipeline knows — a compaction between two turns, a failed turn dropped, a model
// switch — the request timestamps (cache expiry) and the usage the session recorded. Streams:
// only the previous turn's segments are kept, so reports can be consumed turn by turn.
import { findAgent } from "./agents";
import type { BuiltRequest, PipelineOptions, Session, TurnSummary } from "../model";
import { analyzeSession, type PipelineHooks, type SessionAnalysis } from "./pipeline";
import { createPrefixAnalyzer, type PrefixAnalysisOptions, type PrefixAnalyzer, type PrefixTurnReport } from "../prefix/analyze";
import type { SegmentedRequest, TurnFacts } from "../prefix/types";
import type { PrefixTurnInput } from "../prefix/analyze";
import { iterateTurnRequests, iterateTurnRequestsAfter } from "./turnRequests";

export interface SessionPrefixOptions {
  /** Tokenizer, cache rules and segmentation options of the prefix analysis. */
  prefix?: PrefixAnalysisOptions;
  hooks?: PipelineHooks;
  /** The branch's analysis when the caller already has it (the worker does). */
  analysis?: SessionAnalysis;
  /**
   * Go on from an earlier pass over the same branch (a followed session that grew): `analyzer`
   * has analysed turns 1 … `afterTurn` (of this branch, unchanged since), and only the turns
   * after them are reported, as one pass from the first turn would report them.
   */
  continueFrom?: { analyzer: PrefixAnalyzer; afterTurn: number };
}

/** Stop reasons of a turn whose answer pi-ai drops from the next request (transformMessages). */
const FAILED_STOP_REASONS = new Set(["error", "aborted"]);

/** What lies between the previous turn and this one, from the branch's turn summaries. */
export function turnFactsOf(previous: TurnSummary | null, current: TurnSummary): TurnFacts {
  return {
    compactionBetween: current.afterCompaction,
    droppedFailedTurn: previous !== null && FAILED_STOP_REASONS.has(previous.stopReason ?? ""),
    modelChanged: previous !== null && current.modelSwitched,
  };
}

/**
 * What the file recorded about a turn's call besides its request: the usage, in the shape its
 * agent says its turn summaries record it (CA-21), and the server's own cache verdict.
 */
export function recordedTurnInput(session: Session, summary: TurnSummary | null): Pick<PrefixTurnInput, "usage" | "serverVerdict"> {
  const usageSource = findAgent(session.formatId)?.usageSource ?? null;
  return {
    usage: summary?.usage && usageSource ? { source: usageSource, raw: summary.usage } : null,
    serverVerdict: summary?.serverVerdict ?? null,
  };
}

/**
 * The prefix report of every turn of the selected branch, in order, one at a time. Only reports
 * leave, and the analyzer keeps the previous turn's request only: the walk hands out its two
 * request lists in turn instead of a copy of the context per turn (on a session of many turns
 * without compaction, a copy per turn is work per turn × context: a sessions folder's scan and
 * the library's rows took minutes for a 100,000-turn file).
 */
export function* iterateSessionPrefixes(
  session: Session,
  options: PipelineOptions,
  extra: SessionPrefixOptions = {},
): Generator<PrefixTurnReport> {
  const analysis = extra.analysis ?? analyzeSession(session, options, extra.hooks ?? {});
  const walk = { ...extra, analysis, hooks: { ...extra.hooks, reuseRequestLists: true } };
  for (const { report } of iterateSessionPrefixesWithRequests(session, options, walk)) yield report;
}

/**
 * Each turn's prefix report with the request it was computed from (for callers that also read
 * the request's context messages: `check`, `compare`) and its segments (the composition of
 * sessionPrefixCompositions.ts). The request is only valid until the next step; keep what you
 * need from it, not the request.
 */
export function* iterateSessionPrefixesWithRequests(
  session: Session,
  options: PipelineOptions,
  extra: SessionPrefixOptions = {},
): Generator<{ report: PrefixTurnReport; request: BuiltRequest; summary: TurnSummary | null; segmented: SegmentedRequest }> {
  const analysis = extra.analysis ?? analyzeSession(session, options, extra.hooks ?? {});
  const summaries = new Map<number, TurnSummary>();
  for (const summary of analysis.turns) summaries.set(summary.turn, summary);
  const analyzer = extra.continueFrom?.analyzer ?? createPrefixAnalyzer(extra.prefix ?? {});
  const afterTurn = extra.continueFrom?.afterTurn ?? 0;
  let previous: TurnSummary | null = summaries.get(afterTurn) ?? null;
  const requests = extra.continueFrom
    ? iterateTurnRequestsAfter(session, options, afterTurn, analysis.turns.length, extra.hooks ?? {})
    : iterateTurnRequests(session, options, extra.hooks ?? {});
  // The agent's usage shape is the session's (recordedTurnInput): looked up once, not per turn.
  const usageSource = findAgent(session.formatId)?.usageSource ?? null;
  for (const { turn, request } of requests) {
    const summary = summaries.get(turn) ?? null;
    const report = analyzer.next({
      turn,
      api: request.api,
      body: request.body,
      messages: request.messages,
      timestamp: summary?.timestamp ?? null,
      facts: summary ? turnFactsOf(previous, summary) : null,
      usage: summary?.usage && usageSource ? { source: usageSource, raw: summary.usage } : null,
      serverVerdict: summary?.serverVerdict ?? null,
    });
    yield { report, request, summary, segmented: analyzer.lastSegmented()! };
    previous = summary;
  }
}

/** All prefix reports of the selected branch. */
export function analyzeSessionPrefixes(
  session: Session,
  options: PipelineOptions,
  extra: SessionPrefixOptions = {},
): PrefixTurnReport[] {
  return [...iterateSessionPrefixes(session, options, extra)];
}
