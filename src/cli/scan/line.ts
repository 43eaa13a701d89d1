// The JSON line `scan` prints per session (docs/cli.md#scan): what the session is, and what its
// prefix analysis found. Keys are always present, in this order, so the lines load as one table
// (DuckDB `read_json_auto`). New facts are added as new keys; readers should select keys by name.
import type { ModelRef } from "../../core/model";
import type { PrefixTurnReport } from "../../core/prefix/analyze";
import { SessionCostAccumulator, type SessionCostTotals } from "../../core/pricing/index";
import { ReportedBreakCounter, summaryFigures, type SessionSummaryResult, type WholeSessionTotals } from "../../core/session/summary-pass";
import { datasetPriceTable } from "../../core/pricing/dataset";
import { emptyServerVerdictTally, tallyServerVerdict, type ServerVerdictTally } from "../../core/prefix/server-verdict";

export interface ScanLine {
  file: string;
  /** Agent id (`Session.formatId`), null when the file could not be read. */
  agent: string | null;
  /** The folder the session worked in, as its file (or a side file read with it) names it; null when none does. */
  project: string | null;
  /** Main-thread turns (provider requests) on the default branch. */
  turns: number;
  compactions: number;
  /** Sub-agent threads the session holds (its own lines and the sub-agent files joined to it). */
  threads: number;
  /** Turns whose request does not extend the previous one, and how many per cause (null from the summary pass: no request is rebuilt). */
  breaks: number | null;
  breaksByCause: Record<string, number> | null;
  /** The provider's own cache verdicts the file records, against the rebuilt requests: turns that agree, disagree, are inconclusive, record none (null from the summary pass). */
  serverVerdicts: ServerVerdictTally | null;
  /** Turns whose recorded usage shows a cache miss that neither a break, an expired cache nor the provider's verdict explains (null from the summary pass). */
  unexplainedMisses: number | null;
  /** Sum over turns of the cached input tokens the cache simulation predicts (null from the summary pass). */
  predictedCachedTokens: number | null;
  /** Sum over turns of the cached input tokens the session recorded; null when no turn records usage. */
  recordedCachedTokens: number | null;
  /** Dollars of the main thread from the price dataset: recorded usage, the cache prediction, prefix breaks. */
  cost: SessionCostTotals | null;
  /** Sum over turns of the input tokens the session recorded; null when no turn records usage. */
  recordedInputTokens: number | null;
  /** Sum over turns of the request tokens (the tokenizer below; null from the summary pass). */
  requestTokens: number | null;
  tokenizer: string | null;
  /** Reader and pipeline warnings (see `contextscope prefix <file>` for them). */
  warnings: number;
  /** Files read with it and joined to it as threads. */
  with: string[];
  /** The agent's side files read with it, not sessions themselves (Gemini CLI's projects.json, logs.json). */
  sideFiles: string[];
  /** Why the session could not be analysed; null when it was. */
  error: string | null;
  /**
   * The whole session, its sub-agent threads included: every provider call's recorded tokens
   * (input without the cache, cache reads, cache writes, output) and their cost; null when the
   * session could not be read.
   */
  wholeSession: WholeSessionLine | null;
  /** Main-thread turns whose cache break the provider reported: its recorded verdict names a change, or its recorded usage writes most of the previous prompt again. */
  reportedBreaks: number;
  /** What made the line: "summary", one pass over the file's lines; "full", the full rebuild (`--full`, or an agent without a summary pass). */
  pass: ScanPass;
}

export type ScanPass = "summary" | "full";

/** The whole session's recorded tokens and dollars (the summary pass and the library count them the same way). */
export type WholeSessionLine = WholeSessionTotals;

/** Accumulates a session's prefix reports into its scan line. */
export class ScanLineBuilder {
  private turns = 0;
  private breaks = 0;
  private readonly byCause: Record<string, number> = {};
  private readonly verdicts = emptyServerVerdictTally();
  private unexplainedMisses = 0;
  private predicted = 0;
  private recordedCached: number | null = null;
  private recordedInput: number | null = null;
  private tokens = 0;
  private tokenizer: string | null = null;
  private readonly reportedBreaks = new ReportedBreakCounter();
  private readonly cost = new SessionCostAccumulator(datasetPriceTable());

  /** Adds a turn's report, in turn order; `model` is the model the turn was sent to, `at` when. */
  add(report: PrefixTurnReport, model: ModelRef | null, at?: string | null): void {
    this.cost.add(report, model, at);
    this.turns++;
    this.tokens += report.tokens;
    this.tokenizer ??= report.tokenizer;
    this.predicted += report.predictedCachedTokens ?? 0;
    if (report.cause !== null) {
      this.breaks++;
      this.byCause[report.cause] = (this.byCause[report.cause] ?? 0) + 1;
    }
    tallyServerVerdict(this.verdicts, report.serverAgreement);
    if (report.unexplainedMiss) this.unexplainedMisses++;
    const usage = report.recordedUsage;
    this.reportedBreaks.add(report.serverVerdict, usage ? { input: usage.totalInput, cacheRead: usage.cacheRead, cacheWrite: usage.cacheWrite } : null);
    if (report.recordedUsage) {
      this.recordedCached = (this.recordedCached ?? 0) + report.recordedUsage.cacheRead;
      this.recordedInput = (this.recordedInput ?? 0) + report.recordedUsage.totalInput;
    }
  }

  line(fields: { file: string; agent: string; project: string | null; compactions: number; threads: number; warnings: number; with: string[]; sideFiles: string[]; wholeSession: WholeSessionLine }): ScanLine {
    return {
      file: fields.file,
      agent: fields.agent,
      project: fields.project,
      turns: this.turns,
      compactions: fields.compactions,
      threads: fields.threads,
      breaks: this.breaks,
      breaksByCause: this.byCause,
      serverVerdicts: this.verdicts,
      unexplainedMisses: this.unexplainedMisses,
      predictedCachedTokens: this.predicted,
      recordedCachedTokens: this.recordedCached,
      cost: this.cost.totals(),
      recordedInputTokens: this.recordedInput,
      requestTokens: this.tokens,
      tokenizer: this.tokenizer,
      warnings: fields.warnings,
      with: fields.with,
      sideFiles: fields.sideFiles,
      error: null,
      wholeSession: fields.wholeSession,
      reportedBreaks: this.reportedBreaks.count,
      pass: "full",
    };
  }
}

/** The line the summary pass makes (src/core/session/summary.ts): what the recorded usage says, nothing rebuilt. */
export function summaryLine(file: string, withFiles: string[], summary: SessionSummaryResult): ScanLine {
  const figures = summaryFigures(summary, datasetPriceTable());
  return {
    file,
    agent: summary.agent,
    project: summary.project,
    turns: summary.turns,
    compactions: summary.compactions,
    threads: summary.threads,
    breaks: null,
    breaksByCause: null,
    serverVerdicts: null,
    unexplainedMisses: null,
    predictedCachedTokens: null,
    recordedCachedTokens: figures.recordedCachedTokens,
    cost: null,
    recordedInputTokens: figures.recordedInputTokens,
    requestTokens: null,
    tokenizer: null,
    warnings: 0,
    with: withFiles,
    sideFiles: [],
    error: null,
    wholeSession: figures.wholeSession,
    reportedBreaks: summary.reportedBreaks,
    pass: "summary",
  };
}

/** The line of a session that could not be analysed. */
export function failedLine(file: string, withFiles: string[], error: string, sideFiles: string[] = [], pass: ScanPass = "full"): ScanLine {
  return {
    file,
    agent: null,
    project: null,
    turns: 0,
    compactions: 0,
    threads: 0,
    breaks: 0,
    breaksByCause: {},
    serverVerdicts: emptyServerVerdictTally(),
    unexplainedMisses: 0,
    predictedCachedTokens: 0,
    recordedCachedTokens: null,
    cost: null,
    recordedInputTokens: null,
    requestTokens: 0,
    tokenizer: null,
    warnings: 0,
    with: withFiles,
    sideFiles,
    error,
    wholeSession: null,
    reportedBreaks: 0,
    pass,
  };
}
