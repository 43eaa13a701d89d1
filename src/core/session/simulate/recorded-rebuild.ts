// The summariser request(s) behind one recorded compaction, for the timeline's compaction event
// (FM-CC-16, FM-CX-15/18, CP-OC-17): the recording's agent picks the policy, and
// the policy's own request builder rebuilds the request at the recorded point — one code path for
// "simulate" and "show what was sent". pi's standalone form stays with
// the pi agent's `buildCompactionRequests`; a senpi compaction written with senpi's
// details schema is rebuilt in the cache-friendly replay form with the recorded cut.
import type { PipelineOptions, Session } from "../../model";
import { findAgent } from "../agents";
import { getPolicy } from "./policies";
import { recordedCompactionPoints } from "./recorded";
import { simulateCompaction } from "./simulate";
import type { CompactionPolicy, InstructionSlotValues, LimitOverrides, PolicyId, PolicyParameters, SimulatedSummariserRequest } from "../../simulate/types";

export interface RecordedCompactionRequests {
  /** False when the recording's agent has no rebuild here (see `reason`). */
  available: boolean;
  entryId: string;
  policyId: PolicyId | null;
  requests: SimulatedSummariserRequest[];
  /** Whether the rebuilt partition keeps what the record names as kept (null: nothing recorded). */
  keptMatches: boolean | null;
  recordedKept: string[];
  simulatedKept: string[];
  /** Labelled facts for the event view. */
  facts: { label: string; value: string }[];
  /** Notes about unrecorded parts and differences from the record. */
  lints: string[];
  reason?: string;
}

/** The policy that rebuilds this recorded compaction's summariser request, or null when none does (pi's standalone form). */
export function recordedCompactionPolicy(session: Session, entryId: string): PolicyId | null {
  return findAgent(session.formatId)?.recorded?.rebuildPolicy(session, entryId) ?? null;
}

/**
 * The policy that rebuilds a recorded compaction for the timeline's compaction event, or null
 * where the agent shows its requests another way (opencode: auxiliary requests, rebuilt with the
 * recorded tail; the policy would compute the tail from model limits the session does not hold).
 */
export function timelineRebuildPolicy(session: Session, entryId: string): PolicyId | null {
  if (findAgent(session.formatId)?.recorded?.rebuildInTimeline !== true) return null;
  return recordedCompactionPolicy(session, entryId);
}

/** Parameters that pin a rebuild to what the record says (the settings in force are not recorded). */
function rebuildParameters(policy: CompactionPolicy): PolicyParameters {
  return policy.recordedRebuildParameters ?? {};
}

export interface RecordedRebuildOptions {
  /** Slot values from captured summariser requests (instruction texts, unrecorded request fields). */
  instructions?: InstructionSlotValues;
  parameters?: PolicyParameters;
  limits?: LimitOverrides;
}

/** Rebuilds the summariser request(s) of the recorded compaction `entryId` with its agent's policy. */
export function rebuildRecordedCompaction(session: Session, options: PipelineOptions, entryId: string, rebuild: RecordedRebuildOptions = {}): RecordedCompactionRequests {
  const policyId = recordedCompactionPolicy(session, entryId);
  const empty = { entryId, policyId, requests: [], keptMatches: null, recordedKept: [], simulatedKept: [], facts: [], lints: [] };
  const noRebuildReason = findAgent(session.formatId)?.recorded?.noRebuildReason;
  if (policyId === null) return { ...empty, available: false, reason: noRebuildReason ?? `no summariser rebuild for ${session.formatLabel}` };
  const point = recordedCompactionPoints(session, options).find((p) => p.entryId === entryId);
  if (!point) return { ...empty, available: false, reason: `no recorded compaction ${entryId} on this branch` };
  const policy = getPolicy(policyId);
  const profile = policy.pipelineProfile ?? options.profile;
  const result = simulateCompaction({
    session,
    providerCount: false,
    options: { ...options, profile },
    turn: point.turn,
    policyId,
    parameters: { ...rebuildParameters(policy), ...rebuild.parameters },
    ...(rebuild.limits ? { limits: rebuild.limits } : {}),
    ...(rebuild.instructions ? { instructions: rebuild.instructions } : {}),
    recordedCompactionEntryId: entryId,
    manual: point.manual,
    summary: { kind: "recorded", compactionEntryId: entryId },
    followingTurns: 0,
  });
  const details = result.partition.details;
  const simulatedKept =
    result.partition.keptIds ??
    (typeof details.firstKeptEntryId === "string" ? [details.firstKeptEntryId] : typeof details.tailStartId === "string" ? [details.tailStartId] : []);
  const keptMatches = point.recordedKept.length > 0 ? JSON.stringify(point.recordedKept) === JSON.stringify(simulatedKept) : null;
  const lints: string[] = [];
  if (keptMatches === false) lints.push(`the rebuilt partition keeps ${simulatedKept.join(", ") || "nothing"}; the record names ${point.recordedKept.join(", ")}`);
  for (const request of result.summariserRequests) {
    for (const use of request.instructionSlots) if (use.filledFrom === "description") lints.push(`${request.role} request: slot "${use.slot}" not captured (described or not recorded)`);
  }
  const facts = [
    { label: "policy", value: policyId },
    { label: "requests", value: String(result.summariserRequests.length) },
    { label: "after turn", value: String(point.turn) },
    { label: "kept (recorded)", value: point.recordedKept.join(", ") || "not named by the record" },
    { label: "kept (rebuilt)", value: simulatedKept.join(", ") || "nothing (everything summarised)" },
    ...result.summariserRequests.map((r, i) => ({ label: `request ${i + 1}`, value: `${r.role}, ${r.form}, ${r.api}` })),
    ...(findAgent(session.formatId)?.recorded?.recordedFacts?.(session, entryId) ?? []),
  ];
  return { available: true, entryId, policyId, requests: result.summariserRequests, keptMatches, recordedKept: point.recordedKept, simulatedKept, facts, lints };
}
