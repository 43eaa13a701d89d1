// `check` over a whole session branch: every turn's prefix report (with the request it came
// from, iterateSessionPrefixesWithRequests), keeping the previous turn's context messages to tell
// a moved note from other breaks; then the recorded compactions, then the reader's and the
// pipeline's warnings, and the record types of the file this version does not read. Streams the
// turns: only the previous turn's messages and a token count per turn are kept.
import type { CompactionEvent, ContextMessage, PipelineOptions, Session, TurnSummary } from "../model";
import { analyzeSession, type SessionAnalysis } from "../session/pipeline";
import { recordReport } from "../session/recordReport";
import { iterateSessionPrefixesWithRequests } from "../session/sessionPrefixes";
import type { PrefixAnalysisOptions } from "../prefix/analyze";
import { emptyServerVerdictTally, tallyServerVerdict } from "../prefix/server-verdict";
import { type CheckFinding } from "./kinds";
import { noReductionFinding, summariserFindings } from "./compactionFindings";
import {
  breakFindings,
  cacheFindings,
  makeFinding,
  serverAgreementFinding,
  serverVerdictFindings,
  unfinishedSummaryFindings,
  type TurnPlace,
} from "./turnFindings";

export interface CheckOptions {
  prefix?: PrefixAnalysisOptions;
  analysis?: SessionAnalysis;
  /** Rebuild each recorded compaction's summariser request(s) and check them. Default true. */
  summariserChecks?: boolean;
}

const SEVERITY_ORDER = { error: 0, warning: 1, info: 2 } as const;

/** Every finding of the branch, ordered by turn (session-wide ones last), then severity. */
export function checkSession(session: Session, options: PipelineOptions, extra: CheckOptions = {}): CheckFinding[] {
  const analysis = extra.analysis ?? analyzeSession(session, options);
  const lineOf = new Map<string, number>();
  for (const entry of session.entries) if (entry.id) lineOf.set(entry.id, entry.line);
  const summaries = new Map<number, TurnSummary>();
  for (const summary of analysis.turns) summaries.set(summary.turn, summary);
  const placeOf = (turn: number): TurnPlace => {
    const entryId = summaries.get(turn)?.entryId ?? null;
    const line = entryId ? (lineOf.get(entryId) ?? null) : null;
    return { turn, entryId, line: line !== null && line > 0 ? line : null };
  };

  const findings: CheckFinding[] = [];
  const tokensByTurn = new Map<number, number>();
  const seenSummaries = new Set<string>();
  let previousMessages: readonly ContextMessage[] | null = null;
  const verdicts = emptyServerVerdictTally();
  for (const { report, request } of iterateSessionPrefixesWithRequests(session, options, { analysis, prefix: extra.prefix ?? {} })) {
    const place = placeOf(report.turn);
    tokensByTurn.set(report.turn, report.tokens);
    findings.push(...breakFindings(report, place, previousMessages, request.messages));
    findings.push(...cacheFindings(report, place));
    findings.push(...serverVerdictFindings(report, place));
    tallyServerVerdict(verdicts, report.serverAgreement);
    findings.push(...unfinishedSummaryFindings(request.messages, place, seenSummaries));
    previousMessages = request.messages;
  }

  const compactions = analysis.timeline.filter((item): item is CompactionEvent => item.kind === "compaction");
  for (const event of compactions) {
    const place = event.beforeTurn !== null ? placeOf(event.beforeTurn) : null;
    const compactionPlace = place ? { ...place, line: lineOf.get(event.entryId) ?? place.line } : null;
    const noReduction = noReductionFinding(event, tokensByTurn, compactionPlace);
    if (noReduction) findings.push(noReduction);
    if (extra.summariserChecks !== false) findings.push(...summariserFindings(session, options, event, compactionPlace));
  }

  findings.push(...serverAgreementFinding(verdicts));
  for (const warning of [...session.warnings, ...analysis.warnings]) {
    findings.push(makeFinding(null, "read-warning", warning.reason, { line: warning.line > 0 ? warning.line : null }));
  }
  for (const unknown of recordReport(session)?.unknown ?? []) {
    const lines = unknown.count === 1 ? "1 line" : `${unknown.count} lines`;
    findings.push(makeFinding(null, "unknown-records", `${lines} of record type "${unknown.type}", which this version of Contextscope does not read (first on line ${unknown.firstLine})`, { line: unknown.firstLine > 0 ? unknown.firstLine : null }));
  }

  return findings
    .map((item, index) => ({ item, index }))
    .sort((a, b) => {
      const ta = a.item.turn ?? Number.MAX_SAFE_INTEGER;
      const tb = b.item.turn ?? Number.MAX_SAFE_INTEGER;
      return ta - tb || SEVERITY_ORDER[a.item.severity] - SEVERITY_ORDER[b.item.severity] || a.index - b.index;
    })
    .map(({ item }) => item);
}
