// The summary pass without agent detection: a session's summary from its files' lines, each file's
// agent given by the caller, and the figures made of it (summary.ts adds detection, which needs
// every agent's reader). Kept apart so that `scan`'s worker threads, which are told each file's
// agent at discovery, load this, their agents' summarisers and the prices, not the whole core.
import type { AgentDescriptor, LineWanted, SessionSummary, SummaryCall, SummaryLines } from "../agents/descriptor";
import { wholeSessionCost, type CostTotal, type CostTurn, type PriceTable, type ThreadCostInput, type WholeSessionCost } from "../pricing/index";
import { providerReportedBreak } from "../prefix/server-verdict";
import { utf8Decode, utf8Encode } from "../util/utf8";

/** A file of the session: its name and a way to walk its lines (called once per pass). */
export interface SummaryFile {
  name: string;
  lines: SummaryLines;
  /** The agent its first lines were already detected as (a scan's discovery); absent or null: detected here. */
  agentId?: string | null;
}

/** The lines of `lines` that `wanted` accepts (or all of them), asked of each line's text. */
export function* wantedLines(lines: Iterable<string>, wanted?: LineWanted): Generator<string> {
  for (const line of lines) if (!wanted || wanted((marker) => line.includes(marker), (length) => line.slice(0, length))) yield line;
}

/**
 * Pieces of `bytesSummaryLines`: the first small, each next one twice the last, up to a few
 * megabytes. Each piece's start is where a byte-order mark is dropped (as a decoder of the whole
 * piece would drop it), so the lines stay those the pass always read.
 */
const FIRST_CHUNK = 64 * 1024;
const DECODE_CHUNK = 4 * 1024 * 1024;

/** The bytes of U+FEFF, the byte-order mark. */
const BOM = [0xef, 0xbb, 0xbf] as const;

/**
 * Every line of a file's bytes (split at \n, a line's \r dropped), as Node's `scan` splits them,
 * for a platform without Node's buffer (the page's workers). With `wanted`, a line the summariser
 * refuses is stepped over undecoded: its markers are searched for as bytes within the line alone,
 * its head is decoded from the line's first bytes only, and only accepted lines are decoded. (In
 * Chromium, decoding every byte of a large Claude Code transcript was most of a worker's time,
 * and about two thirds of those bytes are tool results no call is on.)
 */
export function* bytesSummaryLines(bytes: Uint8Array, wanted?: LineWanted, chunk = DECODE_CHUNK): Generator<string> {
  let from = 0;
  let size = Math.min(FIRST_CHUNK, chunk);
  while (from < bytes.length) {
    let to = Math.min(bytes.length, from + size);
    size = Math.min(size * 2, chunk);
    if (to < bytes.length) {
      // Pieces end after a line break (a longer line is one piece), so no line and no character is cut.
      const newline = bytes.indexOf(10, to - 1);
      to = newline < 0 ? bytes.length : newline + 1;
    }
    yield* pieceLines(bytes, startsWithBom(bytes, from, to) ? from + BOM.length : from, to, wanted);
    from = to;
  }
}

function startsWithBom(bytes: Uint8Array, from: number, to: number): boolean {
  return to - from >= BOM.length && bytes[from] === BOM[0] && bytes[from + 1] === BOM[1] && bytes[from + 2] === BOM[2];
}

/**
 * `bytes[from, to)` decoded as UTF-8 with any leading byte-order mark kept (a decoder drops one
 * at its input's start; a line inside a piece keeps it). A line break is never inside a character,
 * and the decoder's choices up to a byte depend on the bytes before it only, so a line decoded on
 * its own reads as it does within its piece.
 */
function decodeKeepingBom(bytes: Uint8Array, from: number, to: number): string {
  let marks = "";
  while (startsWithBom(bytes, from, to)) {
    marks += "\uFEFF";
    from += BOM.length;
  }
  return marks + utf8Decode(bytes.subarray(from, to));
}

/** Whether `line` holds `needle`: the native search for its first byte, the rest compared. */
function holdsBytes(line: Uint8Array, needle: Uint8Array): boolean {
  if (needle.length === 0) return true;
  const first = needle[0]!;
  const lastStart = line.length - needle.length;
  for (let at = line.indexOf(first); at >= 0 && at <= lastStart; at = line.indexOf(first, at + 1)) {
    let matched = 1;
    while (matched < needle.length && line[at + matched] === needle[matched]) matched++;
    if (matched === needle.length) return true;
  }
  return false;
}

/** Each marker's UTF-8 bytes, made once. (A marker is text, so its bytes are in a line's bytes exactly when it is in the line's text.) */
const MARKER_BYTES = new Map<string, Uint8Array>();

function markerBytes(marker: string): Uint8Array {
  let encoded = MARKER_BYTES.get(marker);
  if (!encoded) MARKER_BYTES.set(marker, (encoded = utf8Encode(marker)));
  return encoded;
}

function* pieceLines(bytes: Uint8Array, from: number, to: number, wanted?: LineWanted): Generator<string> {
  let start = from;
  let last = from;
  let line: Uint8Array | null = null;
  const contains = (marker: string): boolean => holdsBytes((line ??= bytes.subarray(start, last)), markerBytes(marker));
  const head = (length: number): string => {
    const end = Math.min(last, start + length);
    // Most heads are ASCII (a JSON record's first fields): then `length` bytes are `length`
    // characters, made without a decoder (Chromium's costs tens of microseconds a call).
    let ascii = start;
    while (ascii < end && bytes[ascii]! < 0x80) ascii++;
    // (A long head, which none asks for now, by the decoder: an argument list has a limit.)
    if (ascii === end) return end - start <= 4096 ? String.fromCharCode.apply(null, bytes.subarray(start, end) as unknown as number[]) : utf8Decode(bytes.subarray(start, end));
    // A code unit takes at most 3 bytes, and a cut character at most 3 more: the first `length`
    // units of these bytes are the line's own.
    return decodeKeepingBom(bytes, start, Math.min(last, start + 3 * length + 3)).slice(0, length);
  };
  while (start < to) {
    let end = bytes.indexOf(10, start);
    if (end < 0 || end > to) end = to;
    last = end > start && bytes[end - 1] === 13 ? end - 1 : end;
    line = null;
    if (!wanted || wanted(contains, head)) yield decodeKeepingBom(bytes, start, last);
    start = end + 1;
  }
}

export interface SessionSummaryResult {
  /** The agent's id (`Session.formatId`). */
  agent: string;
  /** The main thread's calls. */
  turns: number;
  compactions: number;
  /** Sub-agent threads: those the file holds or names, and the sub-agent files read with it. */
  threads: number;
  project: string | null;
  /** Main-thread calls whose cache break the provider reported (its verdict, or its recorded usage). */
  reportedBreaks: number;
  /** Every thread's calls, to price (`wholeSessionCost`). */
  costInputs: ThreadCostInput[];
  /** The first and last times a provider call of any thread records (ISO, as the file writes them); null when none does. */
  firstCallAt: string | null;
  lastCallAt: string | null;
  /** The session the first file is and the session whose sub-agent it is, as its agent says (`fileLineage`). */
  sessionId: string | null;
  parentSessionId: string | null;
}

/**
 * Counts the calls whose cache break the provider reported (`providerReportedBreak`), fed the
 * main thread's calls in order: the summary pass, `scan`'s full pass and the library's full pass
 * count them with this, so their figures agree.
 */
export class ReportedBreakCounter {
  count = 0;
  private calls = 0;
  private previousInput: number | null = null;

  /** A call's recorded verdict and usage (`input` the prompt's tokens, cached or not). */
  add(verdict: string | null, usage: { input: number; cacheRead: number; cacheWrite: number } | null): void {
    if (this.calls++ > 0 && providerReportedBreak(verdict, usage, this.previousInput)) this.count++;
    this.previousInput = usage ? usage.input : null;
  }
}

/** The whole session's recorded tokens and their dollars: every provider call of every thread. */
export interface WholeSessionTotals {
  /** Provider calls of every thread; those that recorded usage. */
  calls: number;
  callsWithUsage: number;
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
  cost: CostTotal;
  /** Models no price was found for, as the session names them. */
  unpricedModels: string[];
}

/** The whole session's totals from its priced threads and their calls. */
export function wholeSessionTotals(threads: readonly ThreadCostInput[], cost: WholeSessionCost): WholeSessionTotals {
  const line: WholeSessionTotals = { calls: 0, callsWithUsage: 0, input: 0, cacheRead: 0, cacheWrite: 0, output: 0, cost: { status: cost.total.status, dollars: cost.total.dollars }, unpricedModels: cost.unpricedModels };
  for (const thread of threads) {
    for (const turn of thread.turns) {
      line.calls++;
      if (!turn.usage) continue;
      line.callsWithUsage++;
      line.input += turn.usage.input;
      line.cacheRead += turn.usage.cacheRead;
      line.cacheWrite += turn.usage.cacheWrite;
      line.output += turn.usage.output;
    }
  }
  return line;
}

/** What a summary's recorded usage adds up to: the figures `scan`'s summary line and the library's row show. */
export interface SummaryFigures {
  /** Main-thread sums of the recorded cached and whole input tokens; null when no main-thread call records usage. */
  recordedCachedTokens: number | null;
  recordedInputTokens: number | null;
  wholeSession: WholeSessionTotals;
}

/** The summary's figures, priced with `table` (the dataset's: the caller imports it, so the page's own chunk never carries it). */
export function summaryFigures(summary: SessionSummaryResult, table: PriceTable): SummaryFigures {
  const costInputs = summary.costInputs;
  let recordedCached: number | null = null;
  let recordedInput: number | null = null;
  for (const turn of costInputs[0]?.turns ?? []) {
    if (!turn.usage) continue;
    recordedCached = (recordedCached ?? 0) + turn.usage.cacheRead;
    recordedInput = (recordedInput ?? 0) + turn.usage.input + turn.usage.cacheRead + turn.usage.cacheWrite;
  }
  return { recordedCachedTokens: recordedCached, recordedInputTokens: recordedInput, wholeSession: wholeSessionTotals(costInputs, wholeSessionCost(costInputs, table)) };
}

function reportedBreaks(calls: readonly SummaryCall[]): number {
  const counter = new ReportedBreakCounter();
  for (const call of calls) counter.add(call.verdict, call.usage ? { ...call.usage, input: call.usage.input + call.usage.cacheRead + call.usage.cacheWrite } : null);
  return counter.count;
}

/** The earliest and latest of the calls' times (by the instant, kept as written). */
function callSpan(calls: Iterable<SummaryCall>): { first: string | null; last: string | null } {
  let first: { at: string; ms: number } | null = null;
  let last: { at: string; ms: number } | null = null;
  for (const call of calls) {
    if (!call.at) continue;
    const ms = Date.parse(call.at);
    if (Number.isNaN(ms)) continue;
    if (!first || ms < first.ms) first = { at: call.at, ms };
    if (!last || ms > last.ms) last = { at: call.at, ms };
  }
  return { first: first?.at ?? null, last: last?.at ?? null };
}

const costTurn = (call: SummaryCall): CostTurn => ({ model: call.model, at: call.at, usage: call.usage, ...(call.callId ? { callId: call.callId } : {}) });

/** What the summary pass asks of an agent: its id and its summariser (`AgentDescriptor`'s). */
export type SummaryAgent = Pick<AgentDescriptor, "id" | "summarize">;

/**
 * The session's summary, each file's agent told by `agentOf`; null when an agent of its files has
 * no summariser, or its sub-agent files are another agent's.
 */
export function summarizeSessionWith(files: readonly SummaryFile[], agentOf: (file: SummaryFile) => SummaryAgent | null): SessionSummaryResult | null {
  const [main, ...others] = files;
  if (!main) return null;
  const agent = agentOf(main);
  if (!agent?.summarize) return null;
  const summaries: SessionSummary[] = [agent.summarize(main.lines, main.name)];
  for (const file of others) {
    if (agentOf(file) !== agent) return null;
    summaries.push(agent.summarize(file.lines, file.name));
  }
  const first = summaries[0]!;
  const counted = new Set<string>();
  const mainTurns = [...first.main, ...(first.auxiliary ?? [])].map(costTurn);
  for (const turn of mainTurns) if (turn.callId) counted.add(turn.callId);
  // A sub-agent's own file is its thread: the main file's thread of the same agent (its progress copies, or none) goes.
  const fileAgents = new Set(summaries.slice(1).flatMap((summary) => (summary.agentId !== null ? [summary.agentId] : [])));
  const threads: { id: string; calls: SummaryCall[] }[] = first.threads.filter((thread) => !fileAgents.has(thread.id));
  others.forEach((file, index) => {
    const summary = summaries[index + 1]!;
    threads.push({ id: summary.agentId ?? file.name, calls: [...summary.main, ...(summary.auxiliary ?? []), ...summary.threads.flatMap((thread) => thread.calls)] });
  });
  const costInputs: ThreadCostInput[] = [{ id: null, label: "Main thread", turns: mainTurns }];
  for (const thread of threads) {
    const input: ThreadCostInput = { id: thread.id, label: thread.id, turns: [] };
    for (const turn of thread.calls.map(costTurn)) {
      // A call another thread's file holds already (the same ids) was sent and paid once.
      if (turn.callId !== undefined && counted.has(turn.callId)) {
        input.replayed = (input.replayed ?? 0) + 1;
        continue;
      }
      if (turn.callId !== undefined) counted.add(turn.callId);
      input.turns.push(turn);
    }
    costInputs.push(input);
  }
  const span = callSpan(summaries.flatMap((summary) => [...summary.main, ...(summary.auxiliary ?? []), ...summary.threads.flatMap((thread) => thread.calls)]));
  return {
    agent: agent.id,
    turns: first.main.length,
    compactions: first.compactions,
    threads: threads.length,
    project: first.project ?? summaries.find((summary) => summary.project !== null)?.project ?? null,
    reportedBreaks: reportedBreaks(first.main),
    costInputs,
    firstCallAt: span.first,
    lastCallAt: span.last,
    sessionId: first.lineage?.id ?? null,
    parentSessionId: first.lineage?.parentId ?? null,
  };
}
