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

function range(ids: readonly string[]): string {
  if (ids.length === 0) return "—";
  return ids.length === 1 ? ids[0]! : `${ids[0]} … ${ids[ids.length - 1]} (${ids.length})`;
}

/** The record's own account (HS-23, HS-44): summary message, protected head and tail, what was summarised. */
function recordedFacts(session: Session, entryId: string): { label: string; value: string }[] {
  if (!hermesStorageHeaderOf(session)) return [];
  const { header } = storageIndex(session);
  const s = header.segments.findIndex((seg) => session.entries.slice(seg.start, seg.end).some((e) => e.id === entryId));
  const segment = header.segments[s];
  const before = header.segments[s - 1];
  const region = segment?.compacted;
  if (!segment || !before || !region) return [];
  const ids = (from: number, to: number) => session.entries.slice(from, to).map((e) => e.id);
  const previous = ids(before.start, before.end);
  const kept = new Set(region.keptFrom);
  const head = region.headEnd - segment.start;
  const tail = region.end - region.tailStart;
  return [
    { label: "compressed session", value: `${before.sessionId} (end_reason ${before.endReason ?? "—"})` },
    { label: "continued in", value: segment.sessionId },
    { label: "summary message", value: region.summary === null ? "not found (merged into a tail message?)" : session.entries[region.summary]!.id },
    { label: "protected head (copied)", value: range(previous.slice(0, head)) },
    { label: "protected tail (copied)", value: range(previous.slice(previous.length - tail)) },
    { label: "summarised (recorded)", value: range(previous.filter((id) => !kept.has(id))) },
  ];
}

export const hermesRecorded: RecordedCompactionSupport = {
  recordedFacts: (session, entryId) => recordedFacts(session, entryId),
  points: (session) => points(session),
  recordedKept: (session, entryId) => ({ manual: false, kept: points(session).find((p) => p.entryId === entryId)?.recordedKept ?? [] }),
  rebuildPolicy: (session, entryId) => (points(session).some((p) => p.entryId === entryId) ? hermesPolicy.id : null),
  // A manual `/compress` ends the parent with the same end_reason as an automatic compression.
  recordsManual: false,
  rebuildInTimeline: true,
  noRebuildReason: "A chat-message list does not say which messages its summary replaced: open hermes' state.db (with the parent session) to rebuild the summariser request.",
};
