// Re-running a policy at every compaction recorded in a session (pi/senpi, Claude Code, Codex,
// opencode) (`--replay-recorded`):
// the history as it stood just before each compaction, the recorded summary, and — given captured
// summariser requests — the instruction slots (and the user's focus) filled from them. Each line
// says whether the simulated cut keeps the same messages as the recording and whether each built
// request's data part / whole body equals a captured one.
import { UnreplayablePointError } from "../../simulate/point-error";
import type { PipelineOptions, Session } from "../../model";
import type { RecordedCompactionPoint } from "../../agents/descriptor";
import { findAgent } from "../agents";
import { analyzeSession } from "../pipeline";
import { getPolicy } from "./policies";
import { stringifyWithTexts } from "../../text/text";
import { mergeSlotValues } from "../../simulate/instruction-slots";
import { simulateCompaction } from "./simulate";
import type { CapturedSummariserRequest, InstructionSlotValues, LimitOverrides, PolicyId, PolicyParameters, SimulationResult } from "../../simulate/types";

export interface CapturedBody {
  source: string;
  body: unknown;
}

interface RequestMatch {
  /** Source of the captured request whose data part equals this one, or null. */
  captured: string | null;
  dataPartMatches: boolean;
  bodyMatches: boolean;
}

export interface RecordedCompactionLine {
  kind: "compaction";
  /** 1-based index among the session's recorded compactions (file order). */
  index: number;
  entryId: string;
  keptMatches: boolean;
  recordedFirstKeptEntryId: string | null;
  simulatedFirstKeptEntryId: string | null;
  /** Everything the record names as kept, and the simulated counterpart (see recordedCompactionPoints). */
  recordedKept: string[];
  simulatedKept: string[];
  verdict: string;
  summariserRequests: Record<string, unknown>[];
  matches: RequestMatch[];
  /** Why this compaction could not be re-run (verdict "failed"): a damaged file can leave a record with nothing before it. */
  error?: string;
}

export interface RecordedReplayOptions {
  parameters?: PolicyParameters;
  captured?: CapturedBody[];
  limits?: LimitOverrides;
  /** Which of `limits` settings inference supplied. */
  inferredLimits?: readonly (keyof LimitOverrides)[];
  api?: PipelineOptions["api"];
}

function same(a: unknown, b: unknown): boolean {
  return stringifyWithTexts(a) === stringifyWithTexts(b);
}

export type { RecordedCompactionPoint } from "../../agents/descriptor";

/** Every recorded compaction of a session (pi/senpi, Claude Code, Codex, opencode), in order; none for an agent that records none. */
export function recordedCompactionPoints(session: Session, options: PipelineOptions = {}): RecordedCompactionPoint[] {
  const recorded = findAgent(session.formatId)?.recorded;
  if (!recorded) return [];
  if (recorded.points) return recorded.points(session, options);
  const analysis = analyzeSession(session, options);
  const points: RecordedCompactionPoint[] = [];
  for (const item of analysis.timeline) {
    if (item.kind !== "compaction") continue;
    const turn = (item.beforeTurn ?? analysis.turns.length + 1) - 1;
    const { manual, kept, keptNothing } = recorded.recordedKept?.(session, item.entryId) ?? { manual: false, kept: [] };
    points.push({ entryId: item.entryId, turn, manual, recordedKept: kept, ...(keptNothing ? { keptNothing } : {}) });
  }
  return points;
}

export function recordedCompactionIds(session: Session, options?: PipelineOptions): string[] {
  return recordedCompactionPoints(session, options).map((p) => p.entryId);
}

/** The simulated counterpart of `RecordedCompactionPoint.recordedKept`. */
export function simulatedKept(session: Session, result: SimulationResult): string[] {
  const own = findAgent(session.formatId)?.recorded?.simulatedKept;
  if (own) return own(result);
  const details = result.partition.details;
  if (result.partition.keptIds) return result.partition.keptIds;
  if (typeof details.tailStartId === "string") return [details.tailStartId];
  return result.partition.kept.flatMap((r) => r.entryIds);
}

export function replayRecordedCompactions(session: Session, options: PipelineOptions, policyId: PolicyId, replay: RecordedReplayOptions = {}): RecordedCompactionLine[] {
  const policy = getPolicy(policyId);
  const captured: (CapturedSummariserRequest & { source: string; body: unknown })[] = [];
  for (const item of replay.captured ?? []) {
    const read = policy.readCaptured?.(item.body, item.source) ?? null;
    const values = read?.values ?? policy.extractInstructions?.(item.body, item.source) ?? null;
    if (values) captured.push({ values, focus: read?.focus ?? null, dataPart: read?.dataPart ?? null, source: item.source, body: item.body });
  }
  const merged = captured.length > 0 ? mergeSlotValues(...captured.map((c) => c.values)) : undefined;
  return recordedCompactionPoints(session, options).map((point, i) => {
    try {
      return replayPoint(point, i);
    } catch (error) {
      // Only a point the file leaves no way to re-run becomes a line; any other error (a policy
      // of another agent, a bug) still stops the replay.
      if (!(error instanceof UnreplayablePointError)) throw error;
      // One record that cannot be re-run (nothing before it, no answered turn before it) is named
      // on its own line; the other records are still replayed.
      return {
        kind: "compaction" as const,
        index: i + 1,
        entryId: point.entryId,
        keptMatches: false,
        recordedFirstKeptEntryId: point.recordedKept[0] ?? null,
        simulatedFirstKeptEntryId: null,
        recordedKept: point.recordedKept,
        simulatedKept: [],
        verdict: "failed",
        summariserRequests: [],
        matches: [],
        error: error.message,
      };
    }
  });

  function replayPoint(point: RecordedCompactionPoint, i: number): RecordedCompactionLine {
    const run = (focus: string | null, instructions: InstructionSlotValues | undefined): SimulationResult =>
      simulateCompaction({
        session,
        providerCount: false,
        options,
        turn: point.turn,
        policyId,
        parameters: replay.parameters,
        limits: replay.limits,
        inferredLimits: replay.inferredLimits ?? [],
        instructions,
        recordedCompactionEntryId: point.entryId,
        manual: point.manual,
        focus,
        followingTurns: 0,
        api: replay.api ?? null,
      });
    let result = run(null, merged);
    // The captured request with the same data part is this compaction's own: its slot values come
    // first (request fields such as a billing header differ between captures), and a user focus it
    // carried is used.
    const own = captured.find((c) => result.summariserRequests.some((r) => same(r.dataPart, c.dataPart)));
    if (own) {
      const focus = own.focus !== null && !("automaticFocus" in own.values.slots) ? own.focus : null;
      const ownFirst = mergeSlotValues(own.values, ...captured.map((c) => c.values));
      if (focus !== null || !same(ownFirst, merged)) result = run(focus, ownFirst);
    }
    const recordedKept = point.recordedKept;
    const simulated = simulatedKept(session, result);
    return {
      kind: "compaction" as const,
      index: i + 1,
      entryId: point.entryId,
      // An empty record matches only when it says nothing was kept (not when it names nothing).
      keptMatches: (recordedKept.length > 0 || point.keptNothing === true) && same(recordedKept, simulated),
      recordedFirstKeptEntryId: recordedKept[0] ?? null,
      simulatedFirstKeptEntryId: simulated[0] ?? null,
      recordedKept,
      simulatedKept: simulated,
      verdict: result.verdict.verdict,
      summariserRequests: result.summariserRequests.map((r) => r.body),
      matches: result.summariserRequests.map((r) => {
        const match = captured.find((c) => same(c.dataPart, r.dataPart));
        return { captured: match?.source ?? null, dataPartMatches: match !== undefined, bodyMatches: captured.some((c) => same(c.body, r.body)) };
      }),
    };
  }
}
