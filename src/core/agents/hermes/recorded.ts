// Recorded compactions of hermes-agent. In a Session read from storage, each compression is the
// boundary between a parent that ended with `end_reason = compression` and its continuation (or,
// schema 30, between archived and active rows, HS-23 … HS-25): it is rebuilt with the hermes
// compaction policy after the parent's last answered turn, and what the record names as kept is
// the parent's messages the continuation copies (protected head and tail). A message list only
// shows its summary message (which messages were summarised is not in it): no rebuild.
import type { RecordedCompactionPoint, RecordedCompactionSupport } from "../descriptor";
import type { Session } from "../../model";
import { hermesPolicy } from "./policy/policy";
import { storageIndex } from "./storage/pipeline";
import { hermesStorageHeaderOf } from "./storage/session";

function points(session: Session): RecordedCompactionPoint[] {
  if (!hermesStorageHeaderOf(session)) return [];
  const { header, turns, events } = storageIndex(session);
  const out: RecordedCompactionPoint[] = [];
  header.segments.forEach((segment, s) => {
    if (!segment.compacted) return;
    const event = events.find((e) => session.entries.slice(segment.start, segment.end).some((entry) => entry.id === e.entryId));
    const before = turns.filter((t) => t.segment < s && t.answer !== null).pop();
    if (!event || !before) return;
    out.push({ entryId: event.entryId, turn: before.turn, manual: false, recordedKept: segment.compacted.keptFrom });
  });
  return out;
}

export const hermesRecorded: RecordedCompactionSupport = {
  points: (session) => points(session),
  recordedKept: (session, entryId) => ({ manual: false, kept: points(session).find((p) => p.entryId === entryId)?.recordedKept ?? [] }),
  rebuildPolicy: (session, entryId) => (points(session).some((p) => p.entryId === entryId) ? hermesPolicy.id : null),
  rebuildInTimeline: true,
  noRebuildReason: "a chat-message list does not say which messages its summary replaced; open hermes' state.db (with the parent session) to rebuild the summariser request",
};
