// The JSON line `scan` prints per session (docs/cli.md#scan): what the session is, and what its
// prefix analysis found. Keys are always present, in this order, so the lines load as one table
// (DuckDB `read_json_auto`). New facts are added as new keys; readers should select keys by name.
import type { ModelRef } from "../../core/model";
import type { PrefixTurnReport } from "../../core/prefix/analyze";
import { SessionCostAccumulator, type SessionCostTotals } from "../../core/pricing/index";

export interface ScanLine {
  file: string;
  /** Agent id (`Session.formatId`), null when the file could not be read. */
  agent: string | null;
  /** Main-thread turns (provider requests) on the default branch. */
  turns: number;
  compactions: number;
  /** Sub-agent threads the session holds (its own lines and the sub-agent files joined to it). */
  threads: number;
  /** Turns whose request does not extend the previous one, and how many per cause. */
  breaks: number;
  breaksByCause: Record<string, number>;
  /** Sum over turns of the cached input tokens the cache simulation predicts. */
  predictedCachedTokens: number;
  /** Sum over turns of the cached input tokens the session recorded; null when no turn records usage. */
  recordedCachedTokens: number | null;
  /** Dollars from the built-in price table: recorded usage, the cache prediction, prefix breaks. */
  cost: SessionCostTotals | null;
  /** Sum over turns of the input tokens the session recorded; null when no turn records usage. */
  recordedInputTokens: number | null;
  /** Sum over turns of the request tokens (the tokenizer below). */
  requestTokens: number;
  tokenizer: string | null;
  /** Reader and pipeline warnings (see `contextscope prefix <file>` for them). */
  warnings: number;
  /** Files read with it and joined to it as threads. */
  with: string[];
  /** Why the session could not be analysed; null when it was. */
  error: string | null;
}

/** Accumulates a session's prefix reports into its scan line. */
export class ScanLineBuilder {
  private turns = 0;
  private breaks = 0;
  private readonly byCause: Record<string, number> = {};
  private predicted = 0;
  private recordedCached: number | null = null;
  private recordedInput: number | null = null;
  private tokens = 0;
  private tokenizer: string | null = null;
  private readonly cost = new SessionCostAccumulator();

  /** Adds a turn's report, in turn order; `model` is the model the turn was sent to. */
  add(report: PrefixTurnReport, model: ModelRef | null): void {
    this.cost.add(report, model);
    this.turns++;
    this.tokens += report.tokens;
    this.tokenizer ??= report.tokenizer;
    this.predicted += report.predictedCachedTokens ?? 0;
    if (report.cause !== null) {
      this.breaks++;
      this.byCause[report.cause] = (this.byCause[report.cause] ?? 0) + 1;
    }
    if (report.recordedUsage) {
      this.recordedCached = (this.recordedCached ?? 0) + report.recordedUsage.cacheRead;
      this.recordedInput = (this.recordedInput ?? 0) + report.recordedUsage.totalInput;
    }
  }

  line(fields: { file: string; agent: string; compactions: number; threads: number; warnings: number; with: string[] }): ScanLine {
    return {
      file: fields.file,
      agent: fields.agent,
      turns: this.turns,
      compactions: fields.compactions,
      threads: fields.threads,
      breaks: this.breaks,
      breaksByCause: this.byCause,
      predictedCachedTokens: this.predicted,
      recordedCachedTokens: this.recordedCached,
      cost: this.cost.totals(),
      recordedInputTokens: this.recordedInput,
      requestTokens: this.tokens,
      tokenizer: this.tokenizer,
      warnings: fields.warnings,
      with: fields.with,
      error: null,
    };
  }
}

/** The line of a session that could not be analysed. */
export function failedLine(file: string, withFiles: string[], error: string): ScanLine {
  return {
    file,
    agent: null,
    turns: 0,
    compactions: 0,
    threads: 0,
    breaks: 0,
    breaksByCause: {},
    predictedCachedTokens: 0,
    recordedCachedTokens: null,
    cost: null,
    recordedInputTokens: null,
    requestTokens: 0,
    tokenizer: null,
    warnings: 0,
    with: withFiles,
    error,
  };
}
