// One walk over a deepseek-harness log that finds every provider call it implies: each step's
// conversation request (the latest `request/header` plus the surface as it stood at the step's
// first `assistant/chunk`), the session-title request, and each compaction (successful: start,
// summary, checkpoint, end; failed: start and end with an error). The surface is folded as the
// harness folds it: appends push a node, a replacement splices the range between two nodes
// (found by position in the surface, not by seq order) into the one new node.
import type { ReaderWarning, Session, SessionEntry } from "../../model";
import { isObject } from "../../util/is-object";
import { dataOf, isSurfaceType, num, replaceOp, seqOf, str } from "./events";

/** One conversation request: a step of an agent turn. */
export interface StepRequest {
  /** Our turn number (1-based, the N-th request of the session). */
  turn: number;
  harnessTurn: number | null;
  step: number | null;
  /** Index (in session.entries) of the request/header in force, or null when none was logged. */
  header: number | null;
  /**
   * The surface list in force when the request was built and its length then: the surface nodes
   * (entry indices, model-visible order) are its first `surfaceLength` items.
   * Between two replacements the surface only grows, so the requests of that stretch share one
   * list instead of a copy each (thousands of requests of hundreds of nodes in a long session).
   */
  surface: readonly number[];
  surfaceLength: number;
  /** The entry the request is attached to: its answer, else the step's first chunk or its end. */
  entry: number;
  /** The step's assistant/message, or null when the step failed before answering. */
  answer: number | null;
  /** The route's context window (`request/context`) in force, when logged. */
  contextWindow: number | null;
  /** A compaction replaced part of the surface since the previous request. */
  afterCompaction: boolean;
  /** Why the step ended without an answer, when it did. */
  failure: string | null;
}

/** One compaction attempt. */
export interface CompactionRecord {
  compactionId: string | null;
  start: number;
  summary: number | null;
  checkpoint: number | null;
  end: number | null;
  /** `compaction/end.error` of a failed attempt (its provider call is not logged). */
  error: string | null;
  /** Manual (`/compact`): it names the command that ran it. */
  manual: boolean;
  /** Number of requests before it. */
  afterRequests: number;
  /** Surface nodes just before the replacement (entry indices), and just after it. */
  nodesBefore: number[];
  nodesAfter: number[] | null;
  /** The header in force, for the summarisation request. */
  header: number | null;
}

interface TitleRecord {
  entry: number;
  afterRequests: number;
}

export interface HarnessIndex {
  requests: StepRequest[];
  compactions: CompactionRecord[];
  titles: TitleRecord[];
  /** Tool names by call id (for tool results). */
  toolNames: Map<string, string>;
  /** Index of the first event after the seeded prefix (a fork child's copy of its parent's log). */
  seedEnd: number;
  warnings: ReaderWarning[];
}

const indexCache = new WeakMap<Session, HarnessIndex>();
const seqCache = new WeakMap<Session, Map<number, number>>();

/**
 * Entry index by event seq (the last entry with that seq). Made when first asked for (only a
 * compaction's summariser request reads it), not in the index's pass over every entry.
 */
export function entriesBySeq(session: Session): ReadonlyMap<number, number> {
  let bySeq = seqCache.get(session);
  if (!bySeq) {
    bySeq = new Map();
    session.entries.forEach((entry, position) => {
      const seq = seqOf(entry);
      if (seq >= 0) bySeq!.set(seq, position);
    });
    seqCache.set(session, bySeq);
  }
  return bySeq;
}

/** Events copied from the parent (`seedLength` in a fork child's header). */
function seedLength(session: Session): number {
  const header = session.header;
  return header && typeof header.seedLength === "number" && header.seedLength > 0 ? header.seedLength : 0;
}

function stepKey(data: Record<string, unknown>): string {
  return `${num(data.turn) ?? "?"}/${num(data.step) ?? "?"}`;
}

export function harnessIndex(session: Session): HarnessIndex {
  const cached = indexCache.get(session);
  if (cached) return cached;
  const entries = session.entries;
  const index: HarnessIndex = { requests: [], compactions: [], titles: [], toolNames: new Map(), seedEnd: 0, warnings: [] };
  const seeded = seedLength(session);
  let nodes: number[] = [];
  let header: number | null = null;
  let contextWindow: number | null = null;
  let replacedSinceRequest = false;
  let inSeed = seeded > 0;
  const stepRequests = new Map<string, StepRequest>();
  const openCompactions = new Map<string, CompactionRecord>();
  let lastCompaction: CompactionRecord | null = null;

  // The step the last chunk belonged to: a step streams many chunks in a row, each of which would
  // otherwise build its step's key and look it up. Forgotten when a step's entry is deleted.
  let lastStep: { turn: unknown; step: unknown; request: StepRequest } | null = null;
  const emit = (data: Record<string, unknown>, at: number, failure: string | null = null): StepRequest | null => {
    if (inSeed) return null;
    if (lastStep !== null && data.turn === lastStep.turn && data.step === lastStep.step) return lastStep.request;
    const key = stepKey(data);
    const existing = stepRequests.get(key);
    if (existing) {
      lastStep = { turn: data.turn, step: data.step, request: existing };
      return existing;
    }
    const request: StepRequest = {
      turn: index.requests.length + 1,
      harnessTurn: num(data.turn),
      step: num(data.step),
      header,
      surface: nodes,
      surfaceLength: nodes.length,
      entry: at,
      answer: null,
      contextWindow,
      afterCompaction: replacedSinceRequest,
      failure,
    };
    replacedSinceRequest = false;
    stepRequests.set(key, request);
    lastStep = { turn: data.turn, step: data.step, request };
    index.requests.push(request);
    return request;
  };

  entries.forEach((entry: SessionEntry, position) => {
    if (inSeed && (position >= seeded || entry.type === "session/end-seed")) {
      inSeed = false;
      index.seedEnd = entry.type === "session/end-seed" ? position + 1 : position;
    }
    const data = dataOf(entry);
    switch (entry.type) {
      case "request/header":
        if (isObject(data.header)) header = position;
        return;
      case "request/context":
        contextWindow = num(data.contextWindow) ?? contextWindow;
        return;
      case "step/start":
        // A new lifecycle may number its turns and steps from 1 again: forget older steps.
        stepRequests.delete(stepKey(data));
        lastStep = null;
        return;
      case "assistant/chunk":
      case "text-chunks":
      case "reasoning-chunks":
      case "tool-call-chunks":
        // A packed row (its members' turn and step are the row's) is a chunk too.
        emit(data, position);
        return;
      case "step/end": {
        // A step that failed before streaming still made its request (the harness logs no chunk).
        const key = stepKey(data);
        if (!stepRequests.has(key) && !inSeed) emit(data, position, "the step ended without a streamed answer (failed request)");
        return;
      }
      case "tool/call": {
        const callId = str(data.callId);
        const name = str(data.name);
        if (callId !== null && name !== null) index.toolNames.set(callId, name);
        return;
      }
      case "session/title-llm-request":
        if (!inSeed) index.titles.push({ entry: position, afterRequests: index.requests.length });
        return;
      case "compaction/start": {
        const record: CompactionRecord = {
          compactionId: str(data.compactionId),
          start: position,
          summary: null,
          checkpoint: null,
          end: null,
          error: null,
          manual: str(data.sourceCommandId) !== null,
          afterRequests: index.requests.length,
          nodesBefore: [...nodes],
          nodesAfter: null,
          header,
        };
        if (record.compactionId !== null) openCompactions.set(record.compactionId, record);
        lastCompaction = record;
        if (!inSeed) index.compactions.push(record);
        return;
      }
      case "compaction/summary": {
        const record = openCompactions.get(str(data.compactionId) ?? "") ?? lastCompaction;
        if (record) {
          record.summary = position;
          record.header = header;
        }
        return;
      }
      case "compaction/end": {
        const record = openCompactions.get(str(data.compactionId) ?? "") ?? lastCompaction;
        if (record) {
          record.end = position;
          const error = data.error;
          if (error !== undefined && error !== null) record.error = typeof error === "string" ? error : isObject(error) ? (str(error.message) ?? JSON.stringify(error)) : String(error);
          if (record.compactionId !== null) openCompactions.delete(record.compactionId);
        }
        return;
      }
    }
    if (!isSurfaceType(entry.type)) return;
    if (entry.type === "assistant/message") {
      const request = emit(data, position);
      if (request && request.answer === null) {
        request.answer = position;
        request.entry = position;
      }
    }
    const op = replaceOp(entry);
    if (op === null) {
      nodes.push(position);
      return;
    }
    const startAt = nodes.findIndex((node) => seqOf(entries[node]!) === op.start);
    const endAt = nodes.findIndex((node) => seqOf(entries[node]!) === op.end);
    if (startAt < 0 || endAt < 0) {
      index.warnings.push({ line: entry.line, reason: `surface replacement of seq ${op.start}…${op.end}: ${startAt < 0 ? `seq ${op.start}` : `seq ${op.end}`} is not on the surface; the message is appended instead` });
      nodes.push(position);
      return;
    }
    const before = [...nodes];
    const from = Math.min(startAt, endAt);
    const to = Math.max(startAt, endAt);
    nodes = [...nodes.slice(0, from), position, ...nodes.slice(to + 1)];
    replacedSinceRequest = true;
    const source = isObject(data.source) ? data.source : {};
    const compactionId = str(source.compactionId);
    const record = (compactionId !== null ? index.compactions.find((c) => c.compactionId === compactionId) : null) ?? (entry.type === "user/message" ? lastCompaction : null);
    if (record && record.checkpoint === null && entry.type === "user/message") {
      record.checkpoint = position;
      record.nodesBefore = before;
      record.nodesAfter = [...nodes];
    }
  });
  // A compaction still open at the end (the process died during it) is an unfinished attempt.
  indexCache.set(session, index);
  return index;
}
