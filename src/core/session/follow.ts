// Following a session file while its agent writes it: only the bytes appended since the last read
// are split and parsed (the line reader and the splitter keep their state between reads, and a
// line not finished yet waits in the splitter), and only the turns that are new are analysed (the
// streaming prefix analyzer keeps the previous turn's request, so each new turn costs its own
// request). Used by the CLI's `watch` and the browser worker's live file.
//
// Each new session value is linked to the one before (`sessionGrew`): the agent's caches move over
// and extend with the appended entries, so its analysis continues from where the previous one
// ended and the new turn's context is not projected again from the first entry (agents without
// the hook rebuild; docs/live.md). What still grows with the session on every read: copying the
// entry list into a new session value and checking that it only appends (references compared);
// both are a small share of opening the file again (figures in docs/performance.md). A file that
// shrank, or whose earlier turns changed (a rewrite rather than an append), starts again from the
// beginning.
import type { BuiltRequest, PipelineOptions, ReaderWarning, Session, SessionEntry, TurnSummary } from "../model";
import { findAgent } from "./agents";
import { LineSplitter, type DecodeFn, type LineBytesCallback } from "../readers/lines";
import { DEFAULT_READ_BOUNDS, longLineReason, type ReadBounds } from "../intake/bounds";
import { capWarningsPerKind } from "../readers/finish";
import { createPrefixAnalyzer, type PrefixAnalyzer, type PrefixTurnReport } from "../prefix/analyze";
import { createSegmentCache } from "../prefix/segment-builder";
import type { TokenizerChoice } from "../tokens/counters";
import { costInputOfReport, rebilledTokensOf, turnCost, type PriceTable, type TurnCost } from "../pricing/index";
import { analyzeSession, buildTurnRequest, type SessionAnalysis } from "./pipeline";
import { openSessionReader, type ByteLineReader, type SessionReaderOptions } from "./read";
import { sessionGrew } from "./growth";
import { recordedTurnInput, turnFactsOf } from "./sessionPrefixes";
import { iterateTurnRequests } from "./turnRequests";

/** More new turns than this at once (the first read, a restart) are built in one walk of the branch. */
const ONE_BY_ONE_TURNS = 8;

/** Reads a growing line-format file: feed it the bytes appended since the last call. */
export class SessionFollower {
  private readonly splitter: LineSplitter;
  private readonly reader: ByteLineReader;
  /**
   * Hands each line's bytes to the reader (which keeps its large texts as bytes, where it can),
   * with their offset in the input when the reader was given the input to read them back from.
   */
  private readonly onLine: LineBytesCallback;
  private bytes = 0;
  private lines = 0;
  /** The session value handed out last: the next one grew from it. */
  private lastSession: Session | null = null;
  /** Lines skipped for being over the line bound, said in the session's warnings. */
  private readonly skipped: ReaderWarning[] = [];

  /** `bounds`: the line bound and the warnings kept per kind (src/core/intake/bounds.ts). */
  constructor(readonly fileName: string, decode: DecodeFn, readerOptions: SessionReaderOptions = {}, private readonly bounds: ReadBounds = DEFAULT_READ_BOUNDS) {
    this.splitter = new LineSplitter(decode, bounds.maxLineBytes, (line, bytes) => this.skipped.push({ line, reason: longLineReason(bytes, bounds.maxLineBytes) }));
    this.reader = openSessionReader(fileName, undefined, { decode, ...readerOptions });
    this.onLine = readerOptions.textSource
      ? (bytes, start, end, lineNumber, offset) => {
          this.lines = lineNumber;
          this.reader.pushLineBytes(bytes, start, end, lineNumber, offset);
        }
      : (bytes, start, end, lineNumber) => {
          this.lines = lineNumber;
          this.reader.pushLineBytes(bytes, start, end, lineNumber);
        };
  }

  /** The session with the skipped lines said (the warnings of each kind capped). */
  private withSkipped(session: Session): Session {
    if (this.skipped.length === 0) return session;
    return { ...session, warnings: capWarningsPerKind([...session.warnings, ...this.skipped], this.bounds.maxWarningsPerKind) };
  }

  /** True once the format is known and its reader can give the session before the end (line formats). */
  get canSnapshot(): boolean {
    return this.reader.snapshot !== undefined;
  }

  /** Bytes consumed so far (the offset of the next read). */
  get offset(): number {
    return this.bytes;
  }

  /** Lines parsed so far (a line still being written is not counted until its newline arrives). */
  get lineCount(): number {
    return this.lines;
  }

  /** Splits and parses `chunk`, the bytes that follow what was fed before. */
  append(chunk: Uint8Array): void {
    this.bytes += chunk.byteLength;
    this.splitter.pushBytes(chunk, this.onLine);
  }

  /**
   * The session read so far: the entries of every complete line. Null while the format is not
   * known yet (fewer lines than detection waits for) or when the format's reader cannot tell
   * before the end (a JSON document: read such files whole, `readsWhole`).
   */
  session(): Session | null {
    const next = this.reader.snapshot ? this.withSkipped(this.reader.snapshot()) : null;
    // The new value only appends to the one handed out before: the agent's caches move over to it.
    if (next && this.lastSession) sessionGrew(this.lastSession, next);
    this.lastSession = next;
    return next;
  }

  /** Forgets the line not ended yet: the input was cut inside it on purpose (a decoding bound). */
  discardPendingLine(): void {
    this.splitter.discardPending();
  }

  /**
   * The session of a file that stopped growing for now, for a format read whole: detection and
   * the end-of-file checks run (the follower cannot take more bytes afterwards).
   */
  finish(): Session {
    this.splitter.endBytes(this.onLine);
    return this.withSkipped(this.reader.finish());
  }
}

/**
 * The session an entry's line names (the agent's `entrySessionId`: Claude Code's `sessionId`, a
 * Codex `session_meta` id); null when the line names none or the agent's lines never do.
 */
export function entrySessionId(session: Session, entry: SessionEntry): string | null {
  return findAgent(session.formatId)?.entrySessionId?.(entry) ?? null;
}

/** One new turn as the live views and `watch` report it. */
export interface LiveTurn {
  turn: number;
  entryId: string;
  timestamp: string | null;
  model: string | null;
  /** Request tokens (the tokenizer chosen), what the cache simulation predicts cached, what the file recorded cached. */
  tokens: number;
  predictedCachedTokens: number | null;
  recordedCachedTokens: number | null;
  /** The request does not extend the previous one: where and why. */
  breakPath: string | null;
  cause: string | null;
  causeDetail: string | null;
  /** A compaction came between the previous turn and this one. */
  afterCompaction: boolean;
  /** Tokens the break made the provider bill again (`rebilledTokensOf`; 0 without a break). */
  rebilledTokens: number;
  cost: TurnCost;
}

/** What one update found. */
export interface LiveUpdate {
  /** "appended": the new turns extend what was analysed; "restarted": earlier turns changed, everything was analysed again. */
  kind: "appended" | "restarted";
  analysis: SessionAnalysis;
  turns: LiveTurn[];
  /** New turns neither analysed nor reported, to keep up (`maxTurnsPerUpdate`); they come before `turns`. */
  skipped: number;
}

export interface LiveTurnsOptions {
  pipeline: PipelineOptions;
  tokenizer: TokenizerChoice;
  /**
   * The turns already there at the first update (and after a restart) are not reported: only the
   * last one is analysed, as what the next turn is compared with, so following a long session
   * starts at the cost of one turn. The cache simulation then starts warm from that turn only.
   */
  primeWithLastTurn?: boolean;
  /** The prices the turns' cost is taken from (hosts pass the price dataset, `datasetPriceTable`). */
  prices: PriceTable;
  /**
   * At most this many new turns are analysed and reported by one update; when more came, the
   * newest are, the turn before them primes the analyzer, and the rest are counted as skipped
   * (a writer faster than the analysis: the live view stays at the newest turns). Unbounded when unset.
   */
  maxTurnsPerUpdate?: number;
}

function modelName(summary: TurnSummary | null): string | null {
  const model = summary?.model;
  return model ? model.modelId : null;
}

/**
 * The analysis of a growing session, extended turn by turn: `update` with each newer session
 * value analyses only the turns not seen before. When a turn seen before now answers from another
 * entry (the file was rewritten, or the default branch moved), it starts again from the first turn.
 */
export class LiveTurns {
  private analyzer: PrefixAnalyzer;
  private readonly segmentCache = createSegmentCache();
  private seen: TurnSummary[] = [];
  private previousTokens: number | null = null;

  constructor(private readonly options: LiveTurnsOptions) {
    this.analyzer = this.newAnalyzer();
  }

  /** Turns analysed so far. */
  get turnCount(): number {
    return this.seen.length;
  }

  private newAnalyzer(): PrefixAnalyzer {
    return createPrefixAnalyzer({ tokenizer: this.options.tokenizer, segmentCache: this.segmentCache });
  }

  update(session: Session): LiveUpdate {
    const analysis = analyzeSession(session, this.options.pipeline);
    const turns = analysis.turns;
    let kind: LiveUpdate["kind"] = "appended";
    if (!this.extendedBy(turns)) {
      kind = "restarted";
      this.analyzer = this.newAnalyzer();
      this.seen = [];
      this.previousTokens = null;
    }
    if (this.seen.length === 0 && this.options.primeWithLastTurn && turns.length > 1) {
      // Everything but the last turn counts as seen; the last one primes the analyzer.
      this.seen = turns.slice(0, -1);
      const primed = this.newRequests(session, turns).next();
      this.seen = turns.slice();
      if (!primed.done) this.previousTokens = this.feed(session, primed.value.summary, primed.value.request, turns[turns.length - 2] ?? null).tokens;
      return { kind, analysis, turns: [], skipped: 0 };
    }
    const skipped = this.skipTo(session, turns);
    const added: LiveTurn[] = [];
    for (const { summary, request } of this.newRequests(session, turns)) {
      const report = this.feed(session, summary, request, this.seen[this.seen.length - 1] ?? null);
      added.push(this.liveTurn(summary, report));
      this.seen.push(summary);
    }
    return { kind, analysis, turns: added, skipped };
  }

  /**
   * When more new turns came than one update analyses, counts all but the newest as seen and
   * primes a fresh analyzer with the turn just before those (as a first update does): the turn
   * after a skip is compared with that turn, not with one analysed long before. The turns skipped.
   */
  private skipTo(session: Session, turns: TurnSummary[]): number {
    const limit = this.options.maxTurnsPerUpdate;
    const from = this.seen.length;
    if (limit === undefined || turns.length - from <= limit) return 0;
    const primer = turns.length - limit - 1;
    this.analyzer = this.newAnalyzer();
    this.seen = turns.slice(0, primer);
    const request = buildTurnRequest(session, this.options.pipeline, turns[primer]!.turn);
    this.previousTokens = this.feed(session, turns[primer]!, request, turns[primer - 1] ?? null).tokens;
    this.seen.push(turns[primer]!);
    return primer + 1 - from;
  }

  private feed(session: Session, summary: TurnSummary, request: BuiltRequest, previous: TurnSummary | null): PrefixTurnReport {
    return this.analyzer.next({
      turn: summary.turn,
      api: request.api,
      body: request.body,
      messages: request.messages,
      timestamp: summary.timestamp,
      facts: turnFactsOf(previous, summary),
      ...recordedTurnInput(session, summary),
    });
  }

  /**
   * True when `turns` go on from the turns analysed so far. The last of them may have been
   * answered further since (an answer still being written: Codex names a turn by its latest
   * response item), so it is compared by its place only; every earlier one by its entry.
   */
  private extendedBy(turns: TurnSummary[]): boolean {
    if (turns.length < this.seen.length) return false;
    for (let index = this.seen.length - 2; index >= 0; index--) {
      if (turns[index]!.entryId !== this.seen[index]!.entryId) return false;
    }
    if (this.seen.length > 0) this.seen[this.seen.length - 1] = turns[this.seen.length - 1]!;
    return true;
  }

  /** The requests of the turns not analysed yet: one by one for a few, else one walk of the branch. */
  private *newRequests(session: Session, turns: TurnSummary[]): Generator<{ summary: TurnSummary; request: BuiltRequest }> {
    const from = this.seen.length;
    if (turns.length - from <= ONE_BY_ONE_TURNS) {
      for (let index = from; index < turns.length; index++) {
        const summary = turns[index]!;
        yield { summary, request: buildTurnRequest(session, this.options.pipeline, summary.turn) };
      }
      return;
    }
    for (const { turn, request } of iterateTurnRequests(session, this.options.pipeline)) {
      const summary = turns[turn - 1];
      if (turn > from && summary) yield { summary, request };
    }
  }

  private liveTurn(summary: TurnSummary, report: PrefixTurnReport): LiveTurn {
    const cost = turnCost({ ...costInputOfReport(report, this.previousTokens, summary.model), at: summary.timestamp }, this.options.prices);
    const rebilledTokens = rebilledTokensOf(report, this.previousTokens);
    this.previousTokens = report.tokens;
    return {
      turn: summary.turn,
      entryId: summary.entryId,
      timestamp: summary.timestamp,
      model: modelName(summary),
      tokens: report.tokens,
      predictedCachedTokens: report.predictedCachedTokens,
      recordedCachedTokens: report.recordedUsage?.cacheRead ?? null,
      breakPath: report.breakPath,
      cause: report.cause,
      causeDetail: report.causeDetail,
      afterCompaction: summary.afterCompaction,
      rebilledTokens,
      cost,
    };
  }
}
