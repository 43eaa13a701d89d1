// The session part of a share payload: a Session turned back into lines a reader can read again
// (header first, then one JSON text per entry, in file order), whole or cut to the branch that
// reproduces one turn. Generic over `SessionEntry.raw`: every format keeps its own line objects.
// Lines are re-serialised from the parsed entries, so blank and unreadable lines are not kept
// and line numbers may differ from the original file.
import type { Session } from "../model";
import type { ShareSessionV1 } from "./payload-v1";
import { stringifyWithTexts } from "../text/text";

/**
 * Every entry of the session as lines (header line first when the format has one: not a header
 * the reader made from the entries, which would come back as a line it does not know); stored
 * texts written as their text.
 */
export function sessionLines(session: Session): string[] {
  const lines: string[] = [];
  if (session.header && session.headerIsLine !== false) lines.push(JSON.stringify(session.header));
  for (const entry of session.entries) lines.push(stringifyWithTexts(entry.raw));
  return lines;
}

/**
 * The session cut to the path from the root to `leafEntryId` (PI-P2: follow parentId to the
 * root, stopping at an entry visited twice), entries kept in file order. Entries off that path
 * contribute nothing to the requests at that leaf (PI-P4…P6), so the turn — and every turn
 * before it on the branch — rebuilds identically; the leaf is the last entry, so it is also the
 * default leaf when the cut session is opened (PI-P1). Throws a RangeError for an unknown id.
 */
export function branchSession(session: Session, leafEntryId: string): Session {
  const byId = new Map<string, Session["entries"][number]>();
  for (const entry of session.entries) byId.set(entry.id, entry);
  if (!byId.has(leafEntryId)) throw new RangeError(`entry ${JSON.stringify(leafEntryId)} is not in the session`);
  const onPath = new Set<string>();
  let current = byId.get(leafEntryId);
  while (current && !onPath.has(current.id)) {
    onPath.add(current.id);
    current = current.parentId === null ? undefined : byId.get(current.parentId);
  }
  // With duplicated ids the path holds one entry per id: the one the walk reached.
  const kept = session.entries.filter((entry) => onPath.has(entry.id) && byId.get(entry.id) === entry);
  return { ...session, entries: kept };
}

/**
 * The session cut to its entries in file order up to `leafEntryId` (included): every line before
 * the turn, whatever the parent links say. For files whose requests depend on more than the
 * parent path (a Claude Code compaction boundary starts a chain of its own, an attachment is read
 * where it stands), this cut reproduces the turn, under its own number, where the path cut does
 * not. Throws a RangeError for an unknown id.
 */
export function fileOrderSession(session: Session, leafEntryId: string): Session {
  const at = session.entries.findIndex((entry) => entry.id === leafEntryId);
  if (at < 0) throw new RangeError(`entry ${JSON.stringify(leafEntryId)} is not in the session`);
  return { ...session, entries: session.entries.slice(0, at + 1) };
}

/** `sessionLines` of the branch up to `leafEntryId` (the minimal part that reproduces a turn). */
export function minimalSessionLines(session: Session, leafEntryId: string): string[] {
  return sessionLines(branchSession(session, leafEntryId));
}

/** The text to hand a reader (`readSessionText(text, fileName, formatId)`) for a payload session. */
export function shareSessionText(session: ShareSessionV1): string {
  return session.lines.length === 0 ? "" : `${session.lines.join("\n")}\n`;
}
