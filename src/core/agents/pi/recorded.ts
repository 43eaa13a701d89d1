// pi's and senpi's recorded compactions: every `compaction` entry of the file, what it names as
// kept (`firstKeptEntryId`), and which rebuild applies. A compaction senpi's summariser wrote
// (its details schema, CP-SE-INF-5) is rebuilt by the senpi policy in its cache-friendly replay
// form; any other is pi's standalone form (PI-R12), rebuilt by `buildCompactionRequests`.
import type { RecordedCompactionSupport } from "../descriptor";
import type { Session, SessionEntry } from "../../model";
import { isObject } from "../../util/is-object";
import { buildCompactionRequests } from "./compaction/rebuild";
import { findCompactionPoint } from "./policies/compaction-point";
import { senpiPolicy } from "./policies/senpi-policy";
import { SENPI_COMPACTION_SCHEMA } from "./writtenBy";
import { getPiSessionCache } from "./sessionCache";


/** The session without its compaction entries (children re-attached to the compaction's parent). */
function withoutCompactions(session: Session): Session {
  const parentOf = new Map<string, string | null>();
  for (const e of session.entries) if (e.type === "compaction") parentOf.set(e.id, e.parentId);
  if (parentOf.size === 0) return session;
  const resolve = (id: string | null): string | null => {
    let current = id;
    while (current !== null && parentOf.has(current)) current = parentOf.get(current) ?? null;
    return current;
  };
  const entries: SessionEntry[] = [];
  for (const e of session.entries) {
    if (e.type === "compaction") continue;
    const parentId = resolve(e.parentId);
    entries.push(parentId === e.parentId ? e : { ...e, parentId, raw: { ...e.raw, parentId } });
  }
  return { ...session, entries };
}

export const piRecordedCompactions: RecordedCompactionSupport = {
  points: (session) =>
    session.entries
      .filter((e) => e.type === "compaction")
      .map((e) => ({ entryId: e.id, turn: 1, manual: false, recordedKept: typeof e.raw.firstKeptEntryId === "string" ? [e.raw.firstKeptEntryId] : [] })),
  simulatedKept: (result) => {
    const details = result.partition.details;
    return typeof details.firstKeptEntryId === "string" ? [details.firstKeptEntryId] : [];
  },
  rebuildPolicy: (session, entryId) => {
    // By id in the session's memoised tree, not a search of every entry (each step onto a compaction row asks).
    const details = getPiSessionCache(session).tree.byId.get(entryId)?.raw.details;
    return isObject(details) && details.schema === SENPI_COMPACTION_SCHEMA ? senpiPolicy.id : null;
  },
  rebuildInTimeline: true,
  recordsManual: false,
  noRebuildReason: "pi standalone form: use buildCompactionRequests",
  // Re-simulation: the turn is the last one answered before the recorded compaction.
  replayTurn: (session, options, turn, entryId) => findCompactionPoint(session, options.leafId, turn, entryId).turn,
  withoutCompactions,
  standaloneRebuild: buildCompactionRequests,
};
