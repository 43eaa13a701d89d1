// One side of a comparison, in one pass over its branch: each turn's user text (the alignment
// key) and request tokens, and the side's totals from the prefix analysis (tokens sent, breaks,
// recorded input, compactions). Only a few numbers per turn are kept.
import { EXPECTED_BREAK_CAUSES } from "../check/kinds";
import type { ContextMessage, PipelineOptions, Session } from "../model";
import { NOTE_RULE } from "../notes/insert";
import type { SessionAnalysis } from "../session/pipeline";
import { iterateSessionPrefixesWithRequests } from "../session/sessionPrefixes";
import { contextMessageText } from "../prefix/causes";
import type { PrefixAnalysisOptions } from "../prefix/analyze";
import { SessionCostAccumulator, type PriceTable } from "../pricing/index";
import type { SideTotals } from "./types";

export interface CompareSide {
  session: Session;
  options: PipelineOptions;
  analysis: SessionAnalysis;
}

export interface SideScan {
  /** Per turn (index turn − 1): the newest user message's text, null when the turn has none. */
  keys: (string | null)[];
  tokens: number[];
  totals: SideTotals;
}

/** The newest message the user wrote (a reply-language note is synthesized, not the user's). */
function userTextOf(messages: readonly ContextMessage[]): string | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const item = messages[i]!;
    if (item.message.role !== "user" || item.provenance.rule === NOTE_RULE) continue;
    const text = contextMessageText(item).trim();
    if (text.length > 0) return text;
  }
  return null;
}

export function scanSide(side: CompareSide, prefix: PrefixAnalysisOptions, prices: PriceTable | null): SideScan {
  const keys: (string | null)[] = [];
  const tokens: number[] = [];
  const cost = prices ? new SessionCostAccumulator(prices) : null;
  const models = new Map(side.analysis.turns.map((turn) => [turn.turn, turn.model]));
  let recordedInput: number | null = null;
  let breaks = 0;
  let unexpectedBreaks = 0;
  let largest = 0;
  let sent = 0;
  for (const { report, request } of iterateSessionPrefixesWithRequests(side.session, side.options, { analysis: side.analysis, prefix })) {
    keys.push(userTextOf(request.messages));
    tokens.push(report.tokens);
    sent += report.tokens;
    largest = Math.max(largest, report.tokens);
    if (report.recordedUsage) recordedInput = (recordedInput ?? 0) + report.recordedUsage.totalInput;
    if (report.cause !== null) {
      breaks++;
      if (!EXPECTED_BREAK_CAUSES.has(report.cause)) unexpectedBreaks++;
    }
    cost?.add(report, models.get(report.turn) ?? null);
  }
  const totals: SideTotals = {
    turns: tokens.length,
    tokensSent: sent,
    largestRequest: largest,
    recordedInput,
    breaks,
    unexpectedBreaks,
    compactions: side.analysis.timeline.filter((item) => item.kind === "compaction").length,
    cost: cost ? cost.totals() : null,
  };
  return { keys, tokens, totals };
}
