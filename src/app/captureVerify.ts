// `verify` and the app's verified view: every captured request of a recording set beside what we
// rebuild. Main captures are matched to their turn by conversation (captureCheck.ts), summariser
// and title captures to the auxiliary row of the same purpose where the agent rebuilds those;
// each pair is compared whole (src/core/captures/firstDifference.ts). A turn's rebuild never uses
// that turn's own capture: facts come only from the first main capture of each model, which are
// marked as teaching (their own equality proves the conversation, not the constants).
import type { PipelineOptions, RequestHeader, Session } from "../core/model";
import { guessRequestKind, type CapturedRequestKind } from "../core/captures/requestKind";
import { firstDifference, type BodyDifference } from "../core/captures/firstDifference";
import { sortedJson } from "../core/captures/diff";
import { firstOfEachModel } from "../core/captures/factsFile";
import { learnCapture } from "../core/session/captures";
import { findAgent } from "../core/session/agents";
import { analyzeSession, buildTurnRequest } from "../core/session/pipeline";
import { classifiedDifferences, matchCaptureTurns } from "./captureCheck";
import { pairRecordedSummaries } from "./summaryVerify";
import { recordedCompactionPoints } from "../core/session/simulate/index";

export interface VerifyCapture {
  source: string;
  body: unknown;
  /** From the recorder's meta file; null: guessed from the body. */
  kind: string | null;
}

/**
 * equal: the whole body is the wire's; declared: it differs only in fields the agent declares
 * not derivable from its file; differs; unmatched: no turn (or row) carries this conversation;
 * not compared: an auxiliary request of an agent whose such requests are not rebuilt per row.
 */
export type Verdict = "equal" | "declared" | "differs" | "unmatched" | "not compared";

export interface VerifyResult {
  source: string;
  kind: CapturedRequestKind;
  turn: number | null;
  /** Index in the session's auxiliary rows, for a summariser or title capture matched to one. */
  auxiliary: number | null;
  verdict: Verdict;
  /** This capture is one the facts were learnt from (the first main capture of its model). */
  teaches: boolean;
  /** Differences in fields declared not derivable, with the agent's reason. */
  declared: { path: string; reason: string }[];
  /** The first difference not declared (verdict differs). */
  difference: BodyDifference | null;
  reason?: string;
}

function kindOf(capture: VerifyCapture): CapturedRequestKind {
  return capture.kind === "main" || capture.kind === "summary" || capture.kind === "title" || capture.kind === "count" ? capture.kind : guessRequestKind(capture.body);
}

/** The facts of a recording: the first main capture is the header, the first of each other model a further capture. */
export function factsOfCaptures(captures: readonly VerifyCapture[]): { header: RequestHeader | null; captures: RequestHeader[]; teachers: Set<string> } {
  const mains: RequestHeader[] = [];
  for (const capture of captures) {
    if (kindOf(capture) !== "main") continue;
    try {
      mains.push(learnCapture(capture.body, capture.source));
    } catch {
      // a body of no known wire shape teaches nothing
    }
  }
  const learnt = firstOfEachModel(mains);
  return { header: learnt[0] ?? null, captures: learnt.slice(1), teachers: new Set(learnt.map((header) => header.source)) };
}

function compared(session: Session, options: PipelineOptions, capture: VerifyCapture, built: unknown): Pick<VerifyResult, "verdict" | "declared" | "difference"> {
  const differences = classifiedDifferences(session, options, capture.source, built, capture.body);
  if (differences.length === 0) return { verdict: "equal", declared: [], difference: null };
  const declared = differences.filter((item) => item.class === "not derivable").map((item) => ({ path: item.path, reason: item.reason }));
  if (declared.length === differences.length) return { verdict: "declared", declared, difference: null };
  return { verdict: "differs", declared, difference: firstDifference(built, capture.body) };
}

function unmatched(capture: VerifyCapture, kind: CapturedRequestKind, verdict: Verdict, reason: string): VerifyResult {
  return { source: capture.source, kind, turn: null, auxiliary: null, verdict, teaches: false, declared: [], difference: null, reason };
}

/** Why a summariser capture is not compared when the session's compactions have no rebuild at their recorded cut. */
const NO_REBUILD_REASON =
  "this agent's summariser requests are rebuilt only by replaying its compaction with the settings it ran with (its output cap and cut depend on them), which the file does not hold: measured by `compact --replay-recorded` with the settings typed";
const NO_COMPACTION_REASON = "the session file, as read, records no compaction to pair this summariser request with";

/**
 * Summariser (and title) captures of an agent whose file implies no such row: summariser captures
 * against the recorded compactions rebuilt at their recorded cut (summaryVerify.ts); a title
 * request is not one this agent's file implies.
 */
function verifyRecorded(session: Session, options: PipelineOptions, captures: readonly { capture: VerifyCapture; kind: CapturedRequestKind }[]): VerifyResult[] {
  const summaries = captures.filter((item) => item.kind === "summary").map((item) => item.capture);
  const pairs = pairRecordedSummaries(session, options, summaries);
  const reason = recordedCompactionPoints(session, options).length === 0 ? NO_COMPACTION_REASON : NO_REBUILD_REASON;
  return captures.map(({ capture, kind }) => {
    if (kind !== "summary") return unmatched(capture, kind, "not compared", `the session file implies no ${kind} request for this agent`);
    const pair = pairs?.find((item) => item.capture === capture);
    if (!pair) return unmatched(capture, kind, "not compared", reason);
    if (pair.rebuilt === null) return unmatched(capture, kind, "unmatched", "no recorded compaction of the session left to pair it with");
    const verdict = compared(session, options, capture, pair.rebuilt);
    const why = verdict.verdict === "differs" && pair.described.length > 0 ? `not in the session file nor taught by a capture: ${pair.described.join(", ")}` : undefined;
    return { source: capture.source, kind, turn: null, auxiliary: null, teaches: pair.teaches, ...verdict, ...(why ? { reason: why } : {}) };
  });
}

/**
 * Each capture's auxiliary row: every capture whose body equals a row of its purpose claims that
 * row first, then the others take the rows left, in order. So a capture the file holds no row for
 * (a failed compaction attempt whose request the agent never logs) cannot take the row of a later
 * capture that equals it.
 */
function pairRows<Row extends { row: { index: number; purpose: string }; request: { body: unknown } }>(built: readonly Row[], captures: readonly { capture: VerifyCapture; kind: CapturedRequestKind }[]): Map<VerifyCapture, Row> {
  const claimed = new Set<number>();
  const pairs = new Map<VerifyCapture, Row>();
  const claim = (capture: VerifyCapture, row: Row | undefined) => {
    if (!row) return;
    claimed.add(row.row.index);
    pairs.set(capture, row);
  };
  for (const { capture, kind } of captures) {
    const wire = sortedJson(capture.body);
    claim(capture, built.find((item) => !claimed.has(item.row.index) && item.row.purpose === kind && sortedJson(item.request.body) === wire));
  }
  for (const { capture, kind } of captures) {
    if (!pairs.has(capture)) claim(capture, built.find((item) => !claimed.has(item.row.index) && item.row.purpose === kind));
  }
  return pairs;
}

/**
 * Summariser and title captures against the auxiliary rows of the same purpose: a row whose body
 * equals first, else the next unclaimed one in order (pairRows). The captures of each purpose teach the fixed
 * texts the file never holds (a title prompt, a compaction instruction), each from the first
 * capture that holds it, like the first main capture teaches the system prompt; those captures are
 * marked as teaching, and a difference left where the file holds nothing is named.
 */
function verifyAuxiliary(session: Session, options: PipelineOptions, captures: readonly { capture: VerifyCapture; kind: CapturedRequestKind }[]): VerifyResult[] {
  const support = findAgent(session.formatId)?.auxiliary;
  const rows = support ? (analyzeSession(session, options).auxiliary ?? []) : [];
  if (!support || rows.length === 0) return verifyRecorded(session, options, captures);
  const ofPurpose = (purpose: string) => captures.filter((item) => item.kind === purpose).map((item) => item.capture);
  const built = rows.map((row) => ({ row, ...support.build(session, options, row.index, ofPurpose(row.purpose)) }));
  const teachers = new Set(built.flatMap((item) => item.taughtBy ?? []));
  const pairs = pairRows(built, captures);
  return captures.map(({ capture, kind }) => {
    const next = pairs.get(capture);
    if (!next) return unmatched(capture, kind, "unmatched", `no ${kind} row left in the session`);
    const verdict = compared(session, options, capture, next.request.body);
    const missing = next.request.notRecorded;
    const reason = verdict.verdict === "differs" && missing.length > 0 ? `not in the session file nor taught by a capture: ${missing.join(", ")}` : undefined;
    return { source: capture.source, kind, turn: null, auxiliary: next.row.index, teaches: teachers.has(capture.source), ...verdict, ...(reason ? { reason } : {}) };
  });
}

/**
 * Every capture of `captures` verified against `session` (in the captures' order). `options`
 * carries the profile; its header and captures are replaced by the facts of the captures, or by
 * `kept` (a facts file's: then no capture teaches, every one is checked against those facts).
 */
export function verifySession(session: Session, options: PipelineOptions, captures: readonly VerifyCapture[], kept?: Pick<PipelineOptions, "header" | "captures">): VerifyResult[] {
  const facts = kept ? { header: kept.header ?? null, captures: kept.captures ?? [], teachers: new Set<string>() } : factsOfCaptures(captures);
  const withFacts: PipelineOptions = { ...options, header: facts.header, captures: facts.captures };
  const kinds = captures.map(kindOf);
  const mains = captures.filter((_, i) => kinds[i] === "main");
  const turns = matchCaptureTurns(session, withFacts, mains);
  const mainResults = new Map<VerifyCapture, VerifyResult>();
  mains.forEach((capture, i) => {
    const turn = turns[i] ?? null;
    if (turn === null) {
      mainResults.set(capture, unmatched(capture, "main", "unmatched", "no turn of the session carries this conversation"));
      return;
    }
    const built = buildTurnRequest(session, withFacts, turn).body;
    mainResults.set(capture, { source: capture.source, kind: "main", turn, auxiliary: null, teaches: facts.teachers.has(capture.source), ...compared(session, withFacts, capture, built) });
  });
  const others = captures.map((capture, i) => ({ capture, kind: kinds[i]! })).filter((item) => item.kind !== "main" && item.kind !== "count");
  const auxiliary = new Map(verifyAuxiliary(session, withFacts, others).map((result, i) => [others[i]!.capture, result]));
  for (const capture of captures.filter((_, i) => kinds[i] === "count")) {
    auxiliary.set(capture, unmatched(capture, "count", "not compared", "a token-count request: nothing is generated, no turn sends it"));
  }
  return captures.map((capture) => mainResults.get(capture) ?? auxiliary.get(capture)!);
}

/** What the app shows of a verified session: the headline and each turn's verdict. */
export interface WireVerification {
  headline: string;
  turns: { turn: number; verdict: Verdict; source: string }[];
}

export function wireVerification(results: readonly VerifyResult[]): WireVerification {
  const turns = results.flatMap((result) => (result.turn !== null ? [{ turn: result.turn, verdict: result.verdict, source: result.source }] : []));
  return { headline: verifiedHeadline(results).text, turns };
}

/**
 * The headline: "15 of 15 turns equal to the wire", over every main capture (one that matched no
 * turn counts as not equal, and is said); declared differences count as equal, and are said.
 */
export function verifiedHeadline(results: readonly VerifyResult[]): { equal: number; declared: number; total: number; text: string } {
  const mains = results.filter((result) => result.kind === "main");
  const equal = mains.filter((result) => result.verdict === "equal").length;
  const declared = mains.filter((result) => result.verdict === "declared").length;
  const unmatched = mains.filter((result) => result.verdict === "unmatched").length;
  const notes = [
    ...(declared > 0 ? [`${declared} but for fields declared not derivable`] : []),
    ...(unmatched > 0 ? [`${unmatched} matched no turn`] : []),
  ];
  const text = `${equal + declared} of ${mains.length} turns equal to the wire${notes.length > 0 ? ` (${notes.join("; ")})` : ""}`;
  return { equal, declared, total: mains.length, text };
}
