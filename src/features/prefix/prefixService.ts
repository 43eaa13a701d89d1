// Prefix stability in the worker: the per-turn reports of the selected branch
// (estimates first, exact o200k counts in a second pass, each cached per options; one segment
// cache per session, so every distinct content is hashed once and counted once per counter), the
// Diff tab's pair of requests with the prefix boundary located in the shown text, and the Tokens
// tab's composition and token view. Long passes yield to the event loop so other calls interleave.
// Given a pool that counts elsewhere (the browser's counting workers), the exact pass first walks
// the session naming every distinct text to count (o200k's and the Claude vocabulary's), then
// walks it again looking the counts up: this thread then loads no tokenizer table for it and
// counts nothing, and stays free for the page's calls.
import type { BuiltRequest, PipelineOptions, Session, TurnSummary } from "../../core/model";
import { buildTurnRequest, messageCharsEstimator, type SessionAnalysis } from "../../core/session/pipeline";
import { createPrefixAnalyzer, type PrefixAnalysisOptions, type PrefixAnalyzer, type PrefixTurnReport } from "../../core/prefix/analyze";
import { tokenTextOf } from "../../core/prefix/canonical";
import { causeInWords } from "../../core/prefix/cause-words";
import { tokenComposition } from "../../core/prefix/composition";
import { locateBoundary } from "../../core/prefix/pretty-offset";
import { createSegmentCache } from "../../core/prefix/segment-builder";
import { iterateSessionPrefixes, recordedTurnInput, turnFactsOf } from "../../core/session/sessionPrefixes";
import { counterForApi, type TokenCounter, type TokenizerChoice } from "../../core/tokens/counters";
import { collectingClaude, collectingO200k, precountedClaude, precountedO200k, type TableCountPool } from "../../core/tokens/precounted";
import { textDigest } from "../../core/tokens/textDigest";
import { loadTokenizerTables, TokenizerTablesNotLoaded, type TokenizerTable } from "../../core/tokens/tables";
import { sessionTables } from "../../core/tokens/sessionTables";
import type { Text } from "../../core/text/text";
import type { PipelineHooks } from "../../core/pipeline/types";
import { tokenPieces } from "../../core/tokens/pieces";
import { iterateSessionCompositions, type TurnComposition } from "../../core/session/sessionComposition";
import { predictedInputOf, rebilledTokensOf } from "../../core/pricing/fromPrefix";
import type { PrefixRow, TokenCompositionResult, TokenPass, TokenViewResult, TurnDiffResult } from "./protocol";
import { messageRows } from "../request/worker";
import { waitWhileInteractive } from "../../app/interactiveQuiet";
import { yieldIfDue } from "../../app/yieldToEventLoop";
import { stringifyWithTexts } from "../../core/text/text";

/** Raised when the session changed while a long pass was running. */
export class PrefixPassAbandoned extends Error {
  constructor() {
    super("The session changed.");
    this.name = "PrefixPassAbandoned";
  }
}

function tokenizerOf(pass: TokenPass): TokenizerChoice {
  return pass === "exact" ? "auto" : "estimate";
}

function prefixRow(report: PrefixTurnReport, pass: TokenPass, previousTokens: number | null = null): PrefixRow {
  return {
    turn: report.turn,
    bytes: report.bytes,
    sharedBytes: report.sharedBytes,
    tokens: report.tokens,
    sharedTokens: report.sharedTokens,
    tokensExact: report.tokensExact,
    counterLabel: counterForApi(report.api, { tokenizer: tokenizerOf(pass) }).label,
    breakPath: report.breakPath,
    cause: report.cause,
    causeDetail: report.causeDetail,
    contributing: report.contributing,
    predictedCachedTokens: report.predictedCachedTokens,
    recordedCacheRead: report.recordedUsage?.cacheRead ?? null,
    recordedInput: report.recordedUsage?.totalInput ?? null,
    expiry: report.expiry?.status ?? null,
    predictedInput: predictedInputOf(report),
    rebilledTokens: rebilledTokensOf(report, previousTokens),
    unrecordedTokens: report.unrecorded?.tokens ?? null,
    unrecordedFromTurn: report.unrecorded?.fromTurn ?? null,
    serverVerdict: report.serverVerdict,
    serverMissedTokens: report.serverMissedTokens,
    serverAgreement: report.serverAgreement,
    serverBreak: report.serverBreak,
    unexplainedMiss: report.unexplainedMiss,
    serverNote: report.serverNote,
  };
}

const MAX_CACHED_PASSES = 6;
/**
 * Characters named for counting elsewhere and not yet counted, beyond which the naming walk waits:
 * enough to keep every counting worker busy (sixteen batches), bounded because every batch waiting
 * holds its texts, or a buffer of their bytes, until it is counted (16 M characters held up to
 * 100 MB of buffers at once at 100 MB).
 */
const PENDING_COUNT_CHARS = 4 * 1024 * 1024;

/**
 * The passes' walks read each turn's request in the analyzer (or the composition) before asking
 * for the next and keep none past the turn after: the walk may hand out two lists in turn
 * instead of copying the context each turn.
 */
const WALK_HOOKS: PipelineHooks = { reuseRequestLists: true };

/** Where a pass's counts come from when they were made elsewhere (CounterOptions). */
interface CountSources {
  o200kSource?: TokenCounter;
  claudeSource?: TokenCounter;
}

/** A finished prefix pass: its rows, and what it needs to go on when the session grows. */
interface PrefixPass {
  /** The session value the rows cover. */
  session: Session;
  rows: PrefixRow[];
  /** The analyzer that made the rows, after the last of them: it goes on with the turns appended. */
  analyzer: PrefixAnalyzer;
  /** The turn summaries the rows were made from: the grown session must have the same ones first. */
  turns: TurnSummary[];
  prefix: PrefixAnalysisOptions;
}

/** A finished composition pass, as PrefixPass. */
interface CompositionPass {
  session: Session;
  rows: TurnComposition[];
  turns: TurnSummary[];
}

/** How many leading turns `now` has as `before` had them (the same summaries): what a grown session kept. */
function keptTurns(before: readonly TurnSummary[], now: readonly TurnSummary[]): number {
  const count = Math.min(before.length, now.length);
  for (let index = 0; index < count; index++) {
    const a = before[index]!;
    const b = now[index]!;
    // The agents that carry their caches keep the summary objects; others make equal ones again.
    if (a !== b && stringifyWithTexts(a) !== stringifyWithTexts(b)) return index;
  }
  return count;
}

/**
 * Prefix work for one open session. A new session gets a new service (and fresh caches); a
 * followed session that grew keeps its service (`grow`): the passes finished or running go on
 * with the new turns instead of starting again.
 */
export class PrefixService {
  private readonly segmentCache = createSegmentCache();
  /** Prefix passes by options and token pass: running or finished (a grown session's call chains on them). */
  private readonly passes = new Map<string, Promise<PrefixPass>>();
  private readonly finished = new Map<string, PrefixRow[]>();
  private readonly compositions = new Map<string, Promise<CompositionPass>>();

  constructor(
    private session: Session,
    private readonly isCurrent: () => boolean,
    /** Counts the exact pass's tokens elsewhere; null: the exact pass counts here. */
    private exactCounts: TableCountPool | null = null,
  ) {}

  /** The session the calls are about. */
  get current(): Session {
    return this.session;
  }

  /**
   * The followed session grew: `next` appends to the session shown (src/core/session/growth.ts).
   * Passes running go on over the turns they started with; the next call for a pass extends its
   * rows with the turns `next` added.
   */
  grow(next: Session): void {
    this.session = next;
  }

  /** True when the exact pass counts its tokens elsewhere (this thread needs no tokenizer table for it). */
  get countsElsewhere(): boolean {
    return this.exactCounts !== null;
  }

  /** Every turn's row for the options and token pass, computed once (concurrent callers share it). */
  async reports(options: PipelineOptions, pass: TokenPass, analysis: SessionAnalysis, key: string): Promise<PrefixRow[]> {
    const passKey = `${key}#${pass}`;
    const session = this.session;
    const earlier = this.passes.get(passKey);
    const next = earlier
      ? earlier.then(
          (done) => (done.session === session ? done : this.extend(session, done, options, pass, analysis)),
          () => this.compute(session, options, pass, analysis),
        )
      : this.compute(session, options, pass, analysis);
    if (next !== earlier) {
      this.passes.delete(passKey);
      this.passes.set(passKey, next);
      if (this.passes.size > MAX_CACHED_PASSES) this.passes.delete(this.passes.keys().next().value as string);
      next.then(
        (done) => {
          if (this.passes.get(passKey) === next) this.finished.set(passKey, done.rows);
        },
        () => {
          if (this.passes.get(passKey) === next) this.passes.delete(passKey);
        },
      );
    }
    return (await next).rows;
  }

  /** The finished rows of the best pass available for these options, if any. */
  bestRows(key: string): PrefixRow[] | null {
    return this.finished.get(`${key}#exact`) ?? this.finished.get(`${key}#estimate`) ?? null;
  }

  private async compute(session: Session, options: PipelineOptions, pass: TokenPass, analysis: SessionAnalysis): Promise<PrefixPass> {
    if (pass === "exact" && this.exactCounts) {
      try {
        return await this.walk(session, options, pass, analysis, await this.countElsewhere(session, this.exactCounts, options, analysis));
      } catch (error) {
        if (error instanceof PrefixPassAbandoned || !this.isCurrent()) throw new PrefixPassAbandoned();
        // The pool failed (a worker could not start), or a text was left uncounted: count here.
        if (!(error instanceof TokenizerTablesNotLoaded)) this.exactCounts = null;
        await loadTokenizerTables(sessionTables(tokenizerOf(pass), analysis, options));
      }
    }
    return this.walk(session, options, pass, analysis);
  }

  /** A walk naming every text the exact pass counts; the counters over their counts, once all are made. */
  private async countElsewhere(session: Session, pool: TableCountPool, options: PipelineOptions, analysis: SessionAnalysis, continueFrom?: { afterTurn: number }): Promise<CountSources> {
    const asked = { o200k: 0, claude: 0 };
    // What a collecting counter calls with the texts it names for `table`. Texts made of parts are
    // named by their parts: a part kept as bytes goes to a counting worker as its bytes, never
    // decoded here.
    const naming = (table: TokenizerTable) =>
      [
        (text: string) => {
          asked[table]++;
          pool.submit(table, text);
        },
        textDigest,
        (parts: readonly Text[], key: string) => {
          asked[table]++;
          pool.submitParts(table, parts, key);
        },
      ] as const;
    const o200kSource = collectingO200k(...naming("o200k"));
    const claudeSource = collectingClaude(...naming("claude"));
    const prefix = { tokenizer: tokenizerOf("exact"), segmentCache: this.segmentCache, o200kSource, claudeSource };
    // Going on from a turn: the collecting walk starts one turn earlier, so it compares the first
    // new turn with the one before as the pass does, and names the same texts.
    const from = continueFrom ? { continueFrom: { analyzer: createPrefixAnalyzer(prefix), afterTurn: Math.max(0, continueFrom.afterTurn - 1) } } : {};
    for (const report of iterateSessionPrefixes(session, options, { analysis, prefix, hooks: WALK_HOOKS, ...from })) {
      void report;
      // Texts wait in the pool (as strings, or bytes to move) until counted: at most this many characters at once.
      await pool.belowPending(PENDING_COUNT_CHARS);
      await yieldIfDue();
      await waitWhileInteractive();
      if (!this.isCurrent()) throw new PrefixPassAbandoned();
    }
    if (asked.o200k + asked.claude === 0) return {};
    const counts = await pool.finish();
    const none = new Map<string, number>();
    return { o200kSource: precountedO200k(counts.get("o200k") ?? none, textDigest, true), claudeSource: precountedClaude(counts.get("claude") ?? none, textDigest, true) };
  }

  private async walk(session: Session, options: PipelineOptions, pass: TokenPass, analysis: SessionAnalysis, sources: CountSources = {}): Promise<PrefixPass> {
    const prefix: PrefixAnalysisOptions = { tokenizer: tokenizerOf(pass), segmentCache: this.segmentCache, ...sources };
    const analyzer = createPrefixAnalyzer(prefix);
    const done: PrefixPass = { session, rows: [], analyzer, turns: analysis.turns, prefix };
    await this.walkTurns(done, options, pass, analysis, 0);
    return done;
  }

  /** The rows of the turns after `afterTurn`, from the pass's analyzer (which has seen the turns up to it). */
  private async walkTurns(done: PrefixPass, options: PipelineOptions, pass: TokenPass, analysis: SessionAnalysis, afterTurn: number): Promise<void> {
    let previousTokens = done.rows[done.rows.length - 1]?.tokens ?? null;
    for (const report of iterateSessionPrefixes(done.session, options, { analysis, hooks: WALK_HOOKS, continueFrom: { analyzer: done.analyzer, afterTurn } })) {
      done.rows.push(prefixRow(report, pass, previousTokens));
      previousTokens = report.tokens;
      await yieldIfDue();
      await waitWhileInteractive();
      if (!this.isCurrent()) throw new PrefixPassAbandoned();
    }
  }

  /**
   * A finished pass over an earlier value of the session, extended with the turns the session
   * added: its analyzer goes on from its last turn, as a pass from the first turn would. When
   * the turns it covered changed (the file was rewritten, or an agent whose last turn was
   * answered further), the pass runs again from the first turn.
   */
  private async extend(session: Session, done: PrefixPass, options: PipelineOptions, pass: TokenPass, analysis: SessionAnalysis): Promise<PrefixPass> {
    const covered = done.rows.length;
    if (keptTurns(done.turns, analysis.turns) < covered) return this.compute(session, options, pass, analysis);
    const grown: PrefixPass = { ...done, session, rows: done.rows.slice(), turns: analysis.turns };
    if (analysis.turns.length === covered) return grown;
    if (pass === "exact" && this.exactCounts && (done.prefix.o200kSource || done.prefix.claudeSource)) {
      // The new turns' texts are counted by the same workers; the pass's counters look them up
      // in the pool's counts, which the new ones join.
      try {
        await this.countElsewhere(session, this.exactCounts, options, analysis, { afterTurn: covered });
        await this.walkTurns(grown, options, pass, analysis, covered);
        return grown;
      } catch (error) {
        if (error instanceof PrefixPassAbandoned || !this.isCurrent()) throw new PrefixPassAbandoned();
        return this.compute(session, options, pass, analysis);
      }
    }
    await this.walkTurns(grown, options, pass, analysis, covered);
    return grown;
  }

  /** Every turn's composition by kind (chars/4 estimates), computed once per options (concurrent callers share it). */
  async sessionComposition(options: PipelineOptions, key: string, analysis: SessionAnalysis): Promise<TurnComposition[]> {
    const session = this.session;
    const earlier = this.compositions.get(key);
    const next = earlier
      ? earlier.then(
          (done) => (done.session === session ? done : this.computeComposition(session, options, analysis, done)),
          () => this.computeComposition(session, options, analysis, null),
        )
      : this.computeComposition(session, options, analysis, null);
    if (next !== earlier) {
      this.compositions.delete(key);
      this.compositions.set(key, next);
      if (this.compositions.size > MAX_CACHED_PASSES) this.compositions.delete(this.compositions.keys().next().value as string);
      next.catch(() => {
        if (this.compositions.get(key) === next) this.compositions.delete(key);
      });
    }
    return (await next).rows;
  }

  /** The composition rows of the session, keeping those of `earlier` (a pass over an earlier value) for the turns unchanged. */
  private async computeComposition(session: Session, options: PipelineOptions, analysis: SessionAnalysis, earlier: CompositionPass | null): Promise<CompositionPass> {
    const turns = analysis.turns;
    const kept = earlier ? Math.min(earlier.rows.length, keptTurns(earlier.turns, turns)) : 0;
    const rows = earlier ? earlier.rows.slice(0, kept) : [];
    const extra = earlier ? { afterTurn: kept } : {};
    for (const row of iterateSessionCompositions(session, options, { tokenizer: "estimate", segmentCache: this.segmentCache, hooks: WALK_HOOKS, ...extra })) {
      rows.push(row);
      await yieldIfDue();
      await waitWhileInteractive();
      if (!this.isCurrent()) throw new PrefixPassAbandoned();
    }
    return { session, rows, turns };
  }

  /** The Diff tab: this turn's request against the previous turn's, with the boundary located. */
  turnDiff(options: PipelineOptions, turn: number, analysis: SessionAnalysis, key: string): TurnDiffResult {
    const current = buildTurnRequest(this.session, options, turn);
    const previous = turn > 1 ? buildTurnRequest(this.session, options, turn - 1) : null;
    const summaries = analysis.turns;
    const summary = summaries.find((t) => t.turn === turn) ?? null;
    const previousSummary = summaries.find((t) => t.turn === turn - 1) ?? null;
    const analyzer = createPrefixAnalyzer({ tokenizer: "auto", segmentCache: this.segmentCache, simulate: false });
    let previousReport: PrefixTurnReport | null = null;
    if (previous) {
      previousReport = analyzer.next({
        turn: turn - 1,
        api: previous.api,
        body: previous.body,
        messages: previous.messages,
        timestamp: previousSummary?.timestamp ?? null,
        ...recordedTurnInput(this.session, previousSummary),
      });
    }
    // The recorded usage of both turns and the server's verdict: the pair alone tells a miss and
    // how the verdict stands beside the break.
    const report = analyzer.next({
      turn,
      api: current.api,
      body: current.body,
      messages: current.messages,
      timestamp: summary?.timestamp ?? null,
      facts: summary ? turnFactsOf(previousSummary, summary) : null,
      ...recordedTurnInput(this.session, summary),
    });
    const row = prefixRow(report, "exact", previousReport?.tokens ?? null);
    // The pair alone knows neither the cache state nor the recorded usage: take the prediction and
    // the part not in the file from the session pass.
    const sessionRow = this.bestRows(key)?.find((r) => r.turn === turn) ?? null;
    row.predictedCachedTokens = sessionRow?.predictedCachedTokens ?? null;
    row.recordedCacheRead = sessionRow?.recordedCacheRead ?? null;
    row.recordedInput = sessionRow?.recordedInput ?? null;
    row.unrecordedTokens = sessionRow?.unrecordedTokens ?? null;
    row.unrecordedFromTurn = sessionRow?.unrecordedFromTurn ?? null;
    const boundary = locateBoundary(previous?.body ?? null, current.body, report.breakPath);
    return {
      turn,
      previousTurn: previous ? turn - 1 : null,
      previousJson: previous ? stringifyWithTexts(previous.body, 2) : "",
      currentJson: boundary.text,
      boundaryOffset: boundary.offset,
      row,
      causeText: previous === null ? "first request: nothing to compare with" : report.cause === null ? "extends the previous request" : causeInWords(report.cause, report.causeDetail),
      contributingText: report.contributing.map((cause) => causeInWords(cause, null)),
      repaidTokens: rebilledTokensOf(report, previousReport?.tokens ?? null),
      counterLabel: counterForApi(current.api, { tokenizer: "auto" }).label,
    };
  }

  /** The Tokens tab: composition of this turn's request by segment kind. */
  composition(options: PipelineOptions, turn: number, pass: TokenPass): TokenCompositionResult {
    const built = buildTurnRequest(this.session, options, turn);
    const composition = tokenComposition(built, { tokenizer: tokenizerOf(pass) });
    const rows = messageRows(built.messages, messageCharsEstimator(this.session, options));
    return {
      turn,
      pass,
      exact: composition.exact,
      counterLabel: composition.counterLabel,
      total: composition.total,
      rows: composition.rows,
      messages: composition.messages.map((message) => ({ ...message, preview: rows[message.index]?.preview ?? "" })),
      notRecorded: composition.notRecorded,
    };
  }

  /** The token view of one context message: its text cut at o200k token boundaries. */
  tokenView(options: PipelineOptions, turn: number, index: number): TokenViewResult {
    const built: BuiltRequest = buildTurnRequest(this.session, options, turn);
    const item = built.messages[index];
    if (!item) throw new RangeError(`turn ${turn} has no message ${index}`);
    const text = tokenTextOf((item.message as { content?: unknown }).content ?? "");
    const pieces = tokenPieces(text);
    const exact = built.api === "openai-completions" || built.api === "openai-responses";
    return {
      turn,
      index,
      exact,
      label: exact ? "exact (o200k)" : "estimate (o200k; the provider's tokenizer is not public)",
      pieces: pieces.pieces,
      tokenCount: pieces.tokenCount,
      truncated: pieces.truncated,
    };
  }
}
