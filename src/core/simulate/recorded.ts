// Re-running a policy at every compaction recorded in a session (issue item 7, `--replay-recorded`):
// the history as it stood just before each compaction, the recorded summary, and — given captured
// summariser requests — the instruction slots (and the user's focus) filled from them. Each line
// says whether the simulated cut keeps the same messages as the recording and whether each built
// request's data part / whole body equals a captured one.
import type { PipelineOptions, Session } from "../model";
import { getPolicy } from "./policies";
import { mergeSlotValues } from "./instruction-slots";
import { simulateCompaction } from "./simulate";
import type { CapturedSummariserRequest, LimitOverrides, PolicyId, PolicyParameters, SimulationResult } from "./types";

export interface CapturedBody {
  source: string;
  body: unknown;
}

export interface RequestMatch {
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
  verdict: string;
  summariserRequests: Record<string, unknown>[];
  matches: RequestMatch[];
}

export interface RecordedReplayOptions {
  parameters?: PolicyParameters;
  captured?: CapturedBody[];
  limits?: LimitOverrides;
  api?: PipelineOptions["api"];
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function recordedCompactionIds(session: Session): string[] {
  return session.entries.filter((e) => e.type === "compaction").map((e) => e.id);
}

export function replayRecordedCompactions(session: Session, options: PipelineOptions, policyId: PolicyId, replay: RecordedReplayOptions = {}): RecordedCompactionLine[] {
  const policy = getPolicy(policyId);
  if (session.formatId !== "pi") throw new Error(`--replay-recorded with policy ${policyId} needs a pi/senpi session (got ${session.formatLabel})`);
  const captured: (CapturedSummariserRequest & { source: string; body: unknown })[] = [];
  for (const item of replay.captured ?? []) {
    const read = policy.readCaptured?.(item.body, item.source) ?? null;
    const values = read?.values ?? policy.extractInstructions?.(item.body, item.source) ?? null;
    if (values) captured.push({ values, focus: read?.focus ?? null, dataPart: read?.dataPart ?? null, source: item.source, body: item.body });
  }
  const instructions = captured.length > 0 ? mergeSlotValues(...captured.map((c) => c.values)) : undefined;
  return recordedCompactionIds(session).map((entryId, i) => {
    const run = (focus: string | null): SimulationResult =>
      simulateCompaction({
        session,
        options,
        turn: 1,
        policyId,
        parameters: replay.parameters,
        limits: replay.limits,
        instructions,
        recordedCompactionEntryId: entryId,
        manual: false,
        focus,
        followingTurns: 0,
        api: replay.api ?? null,
      });
    let result = run(null);
    // A captured request with the same data part that carried a user focus: rebuild with it.
    const withFocus = captured.find((c) => c.focus !== null && !("automaticFocus" in c.values.slots) && result.summariserRequests.some((r) => same(r.dataPart, c.dataPart)));
    if (withFocus) result = run(withFocus.focus);
    const entry = session.entries.find((e) => e.id === entryId)!;
    const recordedKept = typeof entry.raw.firstKeptEntryId === "string" ? entry.raw.firstKeptEntryId : null;
    const simulatedKept = typeof result.partition.details.firstKeptEntryId === "string" ? result.partition.details.firstKeptEntryId : null;
    return {
      kind: "compaction" as const,
      index: i + 1,
      entryId,
      keptMatches: recordedKept !== null && recordedKept === simulatedKept,
      recordedFirstKeptEntryId: recordedKept,
      simulatedFirstKeptEntryId: simulatedKept,
      verdict: result.verdict.verdict,
      summariserRequests: result.summariserRequests.map((r) => r.body),
      matches: result.summariserRequests.map((r) => {
        const match = captured.find((c) => same(c.dataPart, r.dataPart));
        return { captured: match?.source ?? null, dataPartMatches: match !== undefined, bodyMatches: captured.some((c) => same(c.body, r.body)) };
      }),
    };
  });
}
