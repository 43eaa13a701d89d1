// A Crush session as Contextscope holds it: one entry per row of crush.db's `messages` table (its
// JSON `parts` parsed), and a header with the session row's own facts (title, token counters,
// cost, the summary message it compacted to) and the listing of every session of the database.
// This file names the format and reads that header back; ./database.ts makes the Session.
import type { Session, SessionListing } from "../../model";

export const CRUSH_FORMAT_ID = "crush";
export const CRUSH_DATABASE_LABEL = "Crush database";

/** One part of a stored message, as Crush wraps it: `{type, data}` (internal/message/message.go). */
export interface CrushPart {
  type: string;
  data: Record<string, unknown>;
}

/** What `SessionEntry.raw` holds for a Crush message row. */
export interface CrushMessageRow {
  id: string;
  role: string;
  parts: CrushPart[];
  model: string | null;
  provider: string | null;
  createdAt: number | null;
  finishedAt: number | null;
  isSummaryMessage: boolean;
}

/** What `Session.header` holds for a Crush session. */
export interface CrushSessionHeader {
  agent: "crush";
  id: string;
  title: string;
  parentSessionId: string | null;
  /** The counters Crush keeps: the last call's prompt tokens (input and cache reads) and output tokens, and the cost summed. */
  promptTokens: number | null;
  completionTokens: number | null;
  cost: number | null;
  /** The summary message the session was last compacted to: requests start from it. */
  summaryMessageId: string | null;
  sessions: SessionListing[];
  walApplied: boolean;
}

/** The Crush header of a Session read by this folder, or null for other formats. */
export function crushHeaderOf(session: Session): CrushSessionHeader | null {
  const header = session.header;
  if (session.formatId !== CRUSH_FORMAT_ID || !header || header.agent !== "crush") return null;
  return header as unknown as CrushSessionHeader;
}

/** The stored message an entry of a Crush session holds. */
export function crushRowOf(raw: Record<string, unknown>): CrushMessageRow {
  return raw as unknown as CrushMessageRow;
}
