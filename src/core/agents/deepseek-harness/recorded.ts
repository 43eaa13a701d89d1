// The compactions a deepseek-harness log records: each successful one (start, summary, checkpoint,
// end) is a point the simulator can re-run with the deepseek-harness policy, compared with what
// the record kept (the surface nodes the checkpoint did not replace); a failed attempt (start and
// an end with an error) has no logged provider call, so nothing to rebuild, and is shown as failed.
import type { RecordedCompactionPoint, RecordedCompactionSupport } from "../descriptor";
import type { Session } from "../../model";
import { compactionOfEntry, shadowedSeqsOf } from "./auxiliary";
import { dataOf, num, str } from "./events";
import { deepseekHarnessPolicy } from "./policy/policy";
import { harnessIndex, type CompactionRecord } from "./sessionIndex";

function keptIds(session: Session, record: CompactionRecord): string[] {
  return (record.nodesAfter ?? []).filter((node) => node !== record.checkpoint).map((node) => session.entries[node]!.id);
}

function succeeded(record: CompactionRecord): boolean {
  return record.error === null && record.summary !== null && record.checkpoint !== null;
}

function points(session: Session): RecordedCompactionPoint[] {
  return harnessIndex(session)
    .compactions.filter((record) => succeeded(record) && record.afterRequests >= 1)
    .map((record) => ({ entryId: session.entries[record.checkpoint!]!.id, turn: record.afterRequests, manual: record.manual, recordedKept: keptIds(session, record) }));
}

function recordedFacts(session: Session, entryId: string): { label: string; value: string }[] {
  const record = compactionOfEntry(session, entryId);
  if (!record) return [];
  const facts = [{ label: "kind", value: record.manual ? "manual (/compact)" : "automatic" }];
  if (record.error !== null) return [...facts, { label: "failed", value: record.error }, { label: "request", value: "the summarisation call was made but is not logged: it cannot be rebuilt" }];
  if (record.summary === null) return facts;
  const summary = dataOf(session.entries[record.summary]!);
  const seqs = shadowedSeqsOf(session, record);
  return [
    ...facts,
    { label: "shadowed events", value: seqs.length === 0 ? "—" : `${seqs.length} (seq ${seqs[0]} … ${seqs[seqs.length - 1]})` },
    { label: "shadowed tokens (harness estimate)", value: String(num(summary.shadowedTokenCount) ?? "—") },
    { label: "summariser", value: `${str(summary.provider) ?? "?"}/${str(summary.model) ?? "?"}, max ${num(summary.maxTokens) ?? "—"} tokens` },
  ];
}

/** The session as if it had never compacted: no compaction events, no checkpoint replacing a range. */
function withoutCompactions(session: Session): Session {
  const index = harnessIndex(session);
  const checkpoints = new Set(index.compactions.flatMap((record) => (record.checkpoint === null ? [] : [record.checkpoint])));
  const entries = session.entries.filter((entry, position) => !entry.type.startsWith("compaction/") && !checkpoints.has(position));
  return { ...session, entries };
}

export const deepseekHarnessRecorded: RecordedCompactionSupport = {
  points: (session) => points(session),
  recordedKept: (session, entryId) => {
    const record = compactionOfEntry(session, entryId);
    return { manual: record?.manual ?? false, kept: record ? keptIds(session, record) : [] };
  },
  recordedFacts: (session, entryId) => recordedFacts(session, entryId),
  recordsManual: true,
  rebuildPolicy: (session, entryId) => {
    const record = compactionOfEntry(session, entryId);
    return record && succeeded(record) ? deepseekHarnessPolicy.id : null;
  },
  // The exact summarisation request is in the timeline already, as an auxiliary request.
  rebuildInTimeline: false,
  noRebuildReason: "A failed compaction's summarisation call is not logged (only its error): its summariser request cannot be rebuilt.",
  withoutCompactions: (session) => withoutCompactions(session),
};
