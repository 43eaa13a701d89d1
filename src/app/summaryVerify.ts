// `verify` for the summariser captures of an agent whose file implies no summariser row (Claude
// Code, Codex, Gemini CLI, senpi): each recorded compaction's summariser request(s) rebuilt at the
// recorded cut with the agent's policy (the timeline's rebuild), the fixed texts the file never
// holds (the compaction prompt, a billing header) taken, each, from the first summariser capture
// that holds it — the captures that taught are marked, like the first main capture of a model.
// Each capture is then paired with the rebuilt request of equal body, else of equal data part
// (the conversation the summariser was given), else the next one in order.
import type { PipelineOptions, Session } from "../core/model";
import { sortedJson } from "../core/captures/diff";
import { getPolicy, mergeSlotValues, rebuildRecordedCompaction, recordedCompactionPoints, recordedCompactionPolicy, type InstructionSlotValues, type SimulatedSummariserRequest } from "../core/session/simulate/index";

export interface SummaryCapture {
  source: string;
  body: unknown;
}

export interface SummaryPair {
  capture: SummaryCapture;
  /** The rebuilt request paired with it, or null when none is left. */
  rebuilt: Record<string, unknown> | null;
  /** Parts of the rebuild still described: not in the file, and no capture taught them. */
  described: string[];
  teaches: boolean;
}

interface Rebuilt {
  request: SimulatedSummariserRequest;
  dataPart: string;
}

/** The compactions' rebuilt summariser requests, or null when no recorded compaction of the session has a policy rebuild. */
function rebuildAll(session: Session, options: PipelineOptions, captures: readonly SummaryCapture[]): { rebuilt: Rebuilt[]; read: (c: SummaryCapture) => string | null; teachers: Set<string> } | null {
  const points = recordedCompactionPoints(session, options).flatMap((point) => {
    const policyId = recordedCompactionPolicy(session, point.entryId);
    return policyId === null ? [] : [{ point, policy: getPolicy(policyId) }];
  });
  if (points.length === 0) return null;
  const policy = points[0]!.policy;
  const valuesOf = (c: SummaryCapture): InstructionSlotValues | null => policy.readCaptured?.(c.body, c.source)?.values ?? policy.extractInstructions?.(c.body, c.source) ?? null;
  const instructions = mergeSlotValues(...captures.map(valuesOf));
  const rebuilt = points.flatMap(({ point }) =>
    rebuildRecordedCompaction(session, options, point.entryId, { instructions }).requests.map((request) => ({ request, dataPart: sortedJson(request.dataPart) })),
  );
  const read = (c: SummaryCapture): string | null => {
    const part = policy.readCaptured?.(c.body, c.source)?.dataPart;
    return part === undefined || part === null ? null : sortedJson(part);
  };
  return { rebuilt, read, teachers: new Set(Object.values(instructions.sources ?? {})) };
}

/** Each summariser capture with the rebuilt request it is compared with; null when the session's compactions have no policy rebuild. */
export function pairRecordedSummaries(session: Session, options: PipelineOptions, captures: readonly SummaryCapture[]): SummaryPair[] | null {
  if (captures.length === 0) return [];
  const all = rebuildAll(session, options, captures);
  if (!all) return null;
  const claimed = new Set<Rebuilt>();
  const free = (test: (item: Rebuilt) => boolean) => all.rebuilt.find((item) => !claimed.has(item) && test(item));
  return captures.map((capture) => {
    const wire = sortedJson(capture.body);
    const part = all.read(capture);
    const match = free((item) => sortedJson(item.request.body) === wire) ?? free((item) => part !== null && item.dataPart === part) ?? free(() => true);
    if (match) claimed.add(match);
    const described = match ? match.request.instructionSlots.filter((use) => use.filledFrom === "description").map((use) => use.slot) : [];
    return { capture, rebuilt: match?.request.body ?? null, described, teaches: all.teachers.has(capture.source) };
  });
}
