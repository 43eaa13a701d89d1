// The facts of one session as the sessions library shows them in a row: its agent, the project
// it worked in, when it started and was last active, its turns, compactions, the cache breaks the
// provider reported, its tokens and cost. Made like `scan`'s line: by the summary pass (one pass
// over the file's lines, src/core/session/summary.ts) when the agent has one, else by one walk of
// the default branch with the prefix analysis at estimated token counts (the library does not need
// exact counts), which also counts the rebuilt requests' breaks.
import type { PipelineOptions, Session } from "../core/model";
import { analyzeSession } from "../core/session/pipeline";
import { iterateSessionPrefixes } from "../core/session/sessionPrefixes";
import { fileLineage } from "../core/session/threads";
import { SessionCostAccumulator, wholeSessionCost, type CostTotal } from "../core/pricing/index";
import { datasetPriceTable } from "../core/pricing/dataset";
import { bytesSummaryLines, ReportedBreakCounter, summarizeSession, summaryFigures, wholeSessionTotals, type SessionSummaryResult, type WholeSessionTotals } from "../core/session/summary";
import { findAgent } from "../core/session/agents";
import { detectAgent, DETECTION_LINE_COUNT } from "../core/session/read";
import type { LineWanted } from "../core/agents/descriptor";
import { sessionCostInputs } from "./sessionPrices";
import { agentInfo } from "../features/open/agentInfo";

export interface LibraryRowFacts {
  agent: string;
  /** The folder the agent worked in, as its file records it; null when it does not say. */
  project: string | null;
  /** The first and last times the session records (from the summary pass: its first and last provider calls'). */
  started: string | null;
  lastActive: string | null;
  turns: number;
  compactions: number;
  /**
   * What made the row: "summary", one pass over the file's lines, nothing rebuilt (`scan`'s
   * default, for agents that have one); "full", the full rebuild of every turn's request.
   */
  pass: "summary" | "full";
  /**
   * Main-thread calls whose cache break the provider reported (`scan`'s `reportedBreaks`: its
   * recorded verdict names a change, or its recorded usage writes most of the previous prompt to
   * the cache again), the same figure from both passes; null when no main-thread call records usage.
   */
  reportedBreaks: number | null;
  /** Turns whose rebuilt request does not extend the previous one (the prefix analysis); null from the summary pass, which rebuilds nothing. */
  rebuiltBreaks: number | null;
  /** Tokens every provider call of every thread recorded (input, cache reads and writes, output: `scan`'s `wholeSession`); null when none records usage. */
  tokens: number | null;
  /** Every thread's recorded usage priced (`scan`'s `wholeSession` cost); the main thread's cache simulation when nothing was recorded (full pass only). */
  cost: CostTotal & { source: "recorded" | "predicted" };
  threads: number;
  warnings: number;
  /** The session the file is, and the session whose sub-agent it is (a Codex child rollout), as its agent says. */
  sessionId: string | null;
  parentSessionId: string | null;
}

/** A row's analysis: no profile named, so each session is rebuilt with its agent's first. */
const PIPELINE: PipelineOptions = { leafId: null, api: null, header: null, notes: false };

/** Header fields agents use for the working folder (pi and Claude Code `cwd`, opencode `directory`). */
const PROJECT_KEYS = ["cwd", "directory", "project", "workdir"];

export function projectOf(session: Session): string | null {
  const header = session.header ?? {};
  for (const key of PROJECT_KEYS) {
    const value = (header as Record<string, unknown>)[key];
    if (typeof value === "string" && value !== "") return value;
  }
  return null;
}

function timestamps(session: Session): { first: string | null; last: string | null } {
  let first: string | null = null;
  let last: string | null = null;
  for (const entry of session.entries) {
    if (!entry.timestamp) continue;
    first ??= entry.timestamp;
    last = entry.timestamp;
  }
  return { first, last };
}

/** The recorded tokens of the whole session, null when no call records usage. */
function wholeTokens(whole: WholeSessionTotals): number | null {
  return whole.callsWithUsage === 0 ? null : whole.input + whole.cacheRead + whole.cacheWrite + whole.output;
}

/** A row from the full rebuild: the prefix analysis of the default branch at estimated token counts, the whole session priced as `scan --full` prices it. */
export function libraryRowFacts(session: Session): LibraryRowFacts {
  const analysis = analyzeSession(session, PIPELINE);
  const turns = new Map(analysis.turns.map((turn) => [turn.turn, turn]));
  const table = datasetPriceTable();
  const predicted = new SessionCostAccumulator(table);
  const reported = new ReportedBreakCounter();
  let breaks = 0;
  let recorded = false;
  for (const report of iterateSessionPrefixes(session, PIPELINE, { analysis, prefix: { tokenizer: "estimate" } })) {
    const turn = turns.get(report.turn);
    predicted.add(report, turn?.model ?? null, turn?.timestamp);
    if (report.cause !== null) breaks++;
    const usage = report.recordedUsage;
    reported.add(report.serverVerdict, usage ? { input: usage.totalInput, cacheRead: usage.cacheRead, cacheWrite: usage.cacheWrite } : null);
    if (usage) recorded = true;
  }
  const costInputs = sessionCostInputs(session, PIPELINE, analysis);
  const whole = wholeSessionTotals(costInputs, wholeSessionCost(costInputs, table));
  const { first, last } = timestamps(session);
  const lineage = fileLineage(session);
  return {
    agent: agentInfo(session)?.label ?? session.formatLabel,
    project: projectOf(session),
    started: first,
    lastActive: last,
    turns: analysis.turns.length,
    compactions: analysis.timeline.filter((item) => item.kind === "compaction").length,
    pass: "full",
    reportedBreaks: recorded ? reported.count : null,
    rebuiltBreaks: breaks,
    tokens: wholeTokens(whole),
    cost: whole.callsWithUsage > 0 ? { ...whole.cost, source: "recorded" } : { ...predicted.totals().predicted, source: "predicted" },
    threads: session.threads?.length ?? 0,
    warnings: session.warnings.length + analysis.warnings.length,
    sessionId: lineage.id,
    parentSessionId: lineage.parentId,
  };
}

/**
 * A row from the summary pass (src/core/session/summary.ts), the figures `scan` prints for the
 * same files: one pass over the lines, nothing rebuilt, so no rebuilt breaks.
 */
function libraryRowFromSummary(summary: SessionSummaryResult): LibraryRowFacts {
  const figures = summaryFigures(summary, datasetPriceTable());
  return {
    agent: findAgent(summary.agent)?.label ?? summary.agent,
    project: summary.project,
    started: summary.firstCallAt,
    lastActive: summary.lastCallAt,
    turns: summary.turns,
    compactions: summary.compactions,
    pass: "summary",
    reportedBreaks: figures.recordedInputTokens === null ? null : summary.reportedBreaks,
    rebuiltBreaks: null,
    tokens: wholeTokens(figures.wholeSession),
    cost: { ...figures.wholeSession.cost, source: "recorded" },
    threads: summary.threads,
    warnings: 0,
    sessionId: summary.sessionId,
    parentSessionId: summary.parentSessionId,
  };
}

/**
 * A row from the session's files' bytes by the summary pass, as `scan` makes its line (the first
 * file the session, the others its sub-agent files); null when its agent has no summary pass.
 */
export function libraryRowFromBytes(files: readonly { name: string; bytes: Uint8Array; agentId?: string | null }[]): LibraryRowFacts | null {
  const summary = summarizeSession(files.map((file) => ({ name: file.name, agentId: file.agentId, lines: (wanted?: LineWanted) => bytesSummaryLines(file.bytes, wanted) })));
  return summary ? libraryRowFromSummary(summary) : null;
}

/**
 * Whether the session whose file starts with `head` is one the summary pass reads (its agent has
 * one), asked before the whole file is read: a file of another agent is read once, by the full
 * pipeline. `whole`: the head is the whole file (else its last, perhaps cut, line is left out).
 */
/** Whether the agent of this id (the one a file's first lines were detected as) has a summary pass. */
export function agentHasSummaryPass(agentId: string): boolean {
  return findAgent(agentId)?.summarize !== undefined;
}

export function hasSummaryPass(head: Uint8Array, name: string, whole: boolean): boolean {
  const lines = [...bytesSummaryLines(whole ? head : head.subarray(0, head.lastIndexOf(10) + 1))].filter((line) => line.trim() !== "").slice(0, DETECTION_LINE_COUNT);
  return detectAgent(lines, name)?.summarize !== undefined;
}
