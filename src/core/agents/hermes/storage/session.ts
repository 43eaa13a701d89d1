// A hermes store (./store.ts) and a chosen session → one Session: the compression chain of that
// session (HS-23, HS-24) laid out as segments, one per stored session, in order. Every stored
// message becomes an entry (rows the model no longer sees are kept and marked, HS-20). Where a
// compression child starts with the compacted history (head + summary + tail copied from the
// parent, HS-23, HS-44), that region is marked so the pipeline does not count its copied
// assistant messages as new answers. Schema 30's in-place compaction (HS-25) is laid out the same
// way inside one session: the archived rows (`compacted = 1`) form the segment before.
import type { ReaderWarning, RecordedUsage, Session, SessionEntry, SessionListing } from "../../../model";
import { HERMES_FORMAT_ID } from "../reader";
import { compressionChain, defaultSessionId, lineageLabel } from "./lineage";
import type { HermesRequestDump, HermesSource, HermesStore, HermesStoredMessage, HermesStoredSession } from "./store";
import { isoFromEpochMs } from "../../../util/iso-time";

export const HERMES_STORAGE_LABEL = "hermes-agent storage";

/** Summary prefixes over time (HS-44): legacy, K-era and G-era. */
const SUMMARY_PREFIXES: readonly string[] = ["[CONTEXT COMPACTION", "[CONTEXT SUMMARY]"];

/** One session of the picker, in the shape the opencode picker uses plus hermes' own facts. */
interface HermesSessionListing extends SessionListing {
  source: string | null;
  model: string | null;
  lineage: string | null;
  endReason: string | null;
}

/** The compacted history a segment starts with (HS-23): positions are entry indexes. */
interface HermesCompactedRegion {
  /** Index of the summary message, or null when none was found (merged into a tail message, HS-44). */
  summary: number | null;
  /** Entries [segment start, headEnd) are the protected head copied from the previous segment. */
  headEnd: number;
  /** Entries [tailStart, end) are the protected tail copied from the previous segment. */
  tailStart: number;
  end: number;
  /** Entry ids of the previous segment that the head and tail copy. */
  keptFrom: string[];
}

export interface HermesSegment {
  sessionId: string;
  /** "session": a stored session; "archived": schema 30 rows archived by in-place compaction. */
  kind: "session" | "archived";
  start: number;
  end: number;
  model: string | null;
  baseUrl: string | null;
  platform: string | null;
  systemPrompt: string | null;
  systemPromptFrom: HermesSource | null;
  tools: unknown[] | null;
  toolsFrom: HermesSource | null;
  endReason: string | null;
  messagesFrom: HermesSource | null;
  compacted: HermesCompactedRegion | null;
  /** The stored session's token counters (state.db), when it has them: hermes records usage per session only. */
  usageTotals?: RecordedUsage | null;
}

/** Session.header of a Session read from hermes storage. */
export interface HermesStorageHeader {
  hermesStorage: true;
  origin: HermesStore["origin"];
  sessionId: string;
  sessions: HermesSessionListing[];
  segments: HermesSegment[];
  /** Entries the model does not see (rewound by /undo, HS-20): indexes. */
  excluded: number[];
  dumps: HermesRequestDump[];
  fileNames: string[];
}

export function hermesStorageHeaderOf(session: Session): HermesStorageHeader | null {
  const header = session.header as Partial<HermesStorageHeader> | null;
  return header && header.hermesStorage === true ? (header as HermesStorageHeader) : null;
}

function contentText(message: Record<string, unknown>): string {
  return typeof message.content === "string" ? message.content : JSON.stringify(message.content ?? null);
}

export function isSummaryMessage(message: Record<string, unknown>): boolean {
  if (message._compressed_summary === true) return true;
  const content = typeof message.content === "string" ? message.content : "";
  return SUMMARY_PREFIXES.some((prefix) => content.startsWith(prefix));
}

/** Same message for the copy test: role, content, tool calls, tool call id. */
function sameMessage(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  return a.role === b.role && contentText(a) === contentText(b) && JSON.stringify(a.tool_calls ?? null) === JSON.stringify(b.tool_calls ?? null) && (a.tool_call_id ?? null) === (b.tool_call_id ?? null);
}

function iso(seconds: number | null | undefined): string | null {
  return typeof seconds === "number" ? isoFromEpochMs(seconds * 1000) : null;
}

/**
 * A stored message's own time: epoch seconds, or the ISO text a gateway transcript writes on every
 * line (`datetime.now().isoformat()`, local time without a zone: kept as written, so the page shows
 * the clock time hermes saw).
 */
function messageTime(value: unknown): string | null {
  if (typeof value === "number") return iso(value);
  return typeof value === "string" && !Number.isNaN(Date.parse(value)) ? value : null;
}

function sessionListing(store: HermesStore): HermesSessionListing[] {
  return store.sessions.map((s) => ({
    id: s.id,
    title: s.title ?? "",
    parentId: s.parentId,
    directory: s.cwd,
    timeCreated: s.startedAt === null ? null : Math.round(s.startedAt * 1000),
    timeUpdated: s.endedAt === null ? (s.startedAt === null ? null : Math.round(s.startedAt * 1000)) : Math.round(s.endedAt * 1000),
    messageCount: s.messageCount,
    source: s.platform,
    model: s.model,
    lineage: lineageLabel(store.sessions, s),
    endReason: s.endReason,
  }));
}

/**
 * The compacted history at the start of `messages` (a continuation of `previous`): the head is
 * the longest common prefix before the summary, the tail the longest run after it that equals
 * the end of `previous`.
 */
function findCompactedRegion(previous: readonly Record<string, unknown>[], messages: readonly Record<string, unknown>[]): { summary: number | null; head: number; tail: number } {
  const summary = messages.findIndex((m) => isSummaryMessage(m));
  let head = 0;
  const headLimit = summary >= 0 ? summary : messages.length;
  while (head < headLimit && head < previous.length && sameMessage(messages[head]!, previous[head]!)) head++;
  const after = summary >= 0 ? summary + 1 : head;
  let tail = Math.min(messages.length - after, previous.length - head);
  for (; tail > 0; tail--) {
    let equal = true;
    for (let i = 0; i < tail && equal; i++) equal = sameMessage(messages[after + i]!, previous[previous.length - tail + i]!);
    if (equal) break;
  }
  return { summary: summary >= 0 ? summary : null, head, tail };
}

interface SegmentInput {
  session: HermesStoredSession;
  kind: "session" | "archived";
  messages: HermesStoredMessage[];
}

/**
 * The Session of `chosenId`'s compression chain. `loadMessages` returns the state.db rows of a
 * session (null when the store holds it from files only). Throws nothing: problems are warnings.
 */
export function buildHermesStorageSession(store: HermesStore, chosenId: string | null, loadMessages: (sessionId: string, warnings: ReaderWarning[]) => HermesStoredMessage[] | null): Session {
  const warnings: ReaderWarning[] = [...store.warnings];
  const chosen = chosenId ?? defaultSessionId(store.sessions);
  const chain = chosen === null ? [] : compressionChain(store.sessions, chosen);
  if (store.sessions.length > 1 && chosenId === null && chosen !== null) {
    warnings.push({ line: 0, reason: `the storage holds ${store.sessions.length} sessions; showing the most recently started one (${chosen}); choose another in the session picker`, notice: true });
  }
  const inputs: SegmentInput[] = [];
  for (const session of chain) {
    const messages = (session.messagesFrom === "state.db" ? loadMessages(session.id, warnings) : null) ?? session.messages ?? [];
    const archived = messages.filter((m) => m.row?.compacted === true);
    if (archived.length > 0) {
      inputs.push({ session, kind: "archived", messages: archived });
      inputs.push({ session, kind: "session", messages: messages.filter((m) => m.row?.compacted !== true) });
    } else {
      inputs.push({ session, kind: "session", messages });
    }
  }
  const entries: SessionEntry[] = [];
  const segments: HermesSegment[] = [];
  const excluded: number[] = [];
  inputs.forEach((input, segmentIndex) => {
    const start = entries.length;
    input.messages.forEach((stored, position) => {
      const previous = entries[entries.length - 1];
      const rowId = stored.row?.id;
      const raw: Record<string, unknown> = { ...stored.message };
      if (stored.row) raw._row = stored.row;
      else raw._from = stored.from;
      entries.push({
        id: `${input.session.id}${input.kind === "archived" ? ":archived" : ""}:${rowId ?? position + 1}`,
        parentId: previous ? previous.id : null,
        type: "message",
        timestamp: typeof stored.row?.timestamp === "number" ? iso(stored.row.timestamp) : messageTime(stored.message.timestamp),
        line: stored.line,
        raw,
      });
      // HS-20: active = 0 rows that are not archived by compaction were rewound (/undo).
      if (stored.row && !stored.row.active && input.kind === "session") excluded.push(entries.length - 1);
    });
    const end = entries.length;
    const s = input.session;
    let compacted: HermesCompactedRegion | null = null;
    const before = segments[segmentIndex - 1];
    const continues = segmentIndex > 0 && (input.kind === "session" && (inputs[segmentIndex - 1]!.kind === "archived" || s.parentId !== null));
    if (before && continues) {
      const previous = entries.slice(before.start, before.end).map((e) => e.raw);
      const found = findCompactedRegion(previous, entries.slice(start, end).map((e) => e.raw));
      const afterSummary = found.summary === null ? start + found.head : start + found.summary + 1;
      const keptFrom = [
        ...entries.slice(before.start, before.start + found.head),
        ...entries.slice(before.end - found.tail, before.end),
      ].map((e) => e.id);
      compacted = { summary: found.summary === null ? null : start + found.summary, headEnd: start + found.head, tailStart: afterSummary, end: afterSummary + found.tail, keptFrom };
      if (found.summary === null) {
        warnings.push({ line: 0, reason: `session ${s.id}: continues ${before.sessionId} after compression, but no summary message (${SUMMARY_PREFIXES.join(" / ")}…) was found; the compaction is placed after the copied head` });
      }
    } else if (input.kind === "session") {
      // A continuation whose parent is not here (a child's snapshot alone, HS-28): the head up to
      // the summary is known to be copied; the copied tail cannot be told from new turns.
      const summary = entries.slice(start, end).findIndex((e) => isSummaryMessage(e.raw));
      if (summary >= 0) {
        const at = start + summary;
        compacted = { summary: at, headEnd: at, tailStart: at + 1, end: at + 1, keptFrom: [] };
        const parent = s.parentId === null ? "the session it continues" : `its parent ${s.parentId}`;
        warnings.push({ line: 0, reason: `session ${s.id} starts with a compaction summary, but ${parent} is not in this storage: the messages hermes copied after the summary (protected tail) are counted as new turns` });
      }
    }
    segments.push({
      sessionId: s.id,
      kind: input.kind,
      start,
      end,
      model: s.model,
      baseUrl: s.baseUrl,
      platform: s.platform,
      systemPrompt: s.systemPrompt,
      systemPromptFrom: s.systemPromptFrom,
      tools: s.tools,
      toolsFrom: s.toolsFrom,
      endReason: input.kind === "archived" ? "compression (in place)" : s.endReason,
      messagesFrom: s.messagesFrom,
      compacted,
      ...(s.usageTotals ? { usageTotals: s.usageTotals } : {}),
    });
  });
  const header: HermesStorageHeader = {
    hermesStorage: true,
    origin: store.origin,
    sessionId: chosen ?? "",
    sessions: sessionListing(store),
    segments,
    excluded,
    dumps: store.dumps.filter((d) => d.sessionId === null || chain.some((s) => s.id === d.sessionId)),
    fileNames: store.fileNames,
  };
  if (!store.origin.walApplied && store.origin.kind === "state.db") {
    warnings.unshift({ line: 0, reason: "opened without its -wal file: hermes keeps state.db in WAL mode (HS-5), so recent rows may be missing. Drop state.db together with state.db-wal to read everything." });
  }
  return {
    formatId: HERMES_FORMAT_ID,
    formatLabel: HERMES_STORAGE_LABEL,
    fileName: store.origin.fileName,
    formatVersion: store.origin.schemaVersion,
    header: header as unknown as Record<string, unknown>,
    entries,
    warnings,
    lineCount: 0,
  };
}
