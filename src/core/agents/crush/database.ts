// Reading Crush's SQLite database, `.crush/crush.db` in the project with its `-wal`
// (docs/formats/crush.md), through the query function the caller supplies (sql.js in the worker
// and the CLI), so this module stays pure. Only the tables `sessions` and `messages` are queried;
// `files` (file history) and `read_files` hold no request content. Rows that do not parse become
// warnings, never errors. Messages come in Crush's own order: `created_at` (whole seconds), then
// insertion order for rows of the same second.
import type { DatabaseReadInput } from "../descriptor";
import type { ReaderWarning, Session, SessionEntry, SessionListing } from "../../model";
import type { SqlQuery, SqlRow } from "../../storage/sqlite";
import { isObject } from "../../util/is-object";
import { CRUSH_DATABASE_LABEL, CRUSH_FORMAT_ID, type CrushMessageRow, type CrushPart, type CrushSessionHeader } from "./session";

/** Crush's tables since its first migration; hermes-agent's state.db has the first two but no `files`. */
const CRUSH_TABLES: readonly string[] = ["sessions", "messages", "files"];

const SQL_TABLE_NAMES = "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name";
// Crush's triggers set `updated_at` to the second of every change: sessions of the same second by creation.
const SQL_LIST_SESSIONS = "SELECT * FROM sessions ORDER BY updated_at DESC, created_at DESC, id";
const SQL_MESSAGES = "SELECT rowid AS row_order, * FROM messages WHERE session_id = ? ORDER BY created_at, rowid";

/** True when a database holding `tables` is Crush's. */
export function isCrushDatabase(tables: readonly string[]): boolean {
  return CRUSH_TABLES.every((name) => tables.includes(name));
}

function text(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}
function num(value: unknown): number | null {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "bigint") return Number(value);
  return null;
}

/** Crush writes `strftime('%s')`: whole seconds since the epoch. */
function isoOfSeconds(seconds: number | null): string | null {
  return seconds === null ? null : new Date(seconds * 1000).toISOString();
}

function listing(row: SqlRow): SessionListing {
  const seconds = (value: unknown) => {
    const n = num(value);
    return n === null ? null : n * 1000;
  };
  return {
    id: text(row.id) ?? "",
    title: text(row.title) ?? "",
    parentId: text(row.parent_session_id),
    directory: null,
    timeCreated: seconds(row.created_at),
    timeUpdated: seconds(row.updated_at),
    messageCount: num(row.message_count) ?? 0,
  };
}

/** The `parts` column: a JSON array of `{type, data}`; anything else is a warning and no parts. */
function parseParts(value: unknown, where: string, warnings: ReaderWarning[]): CrushPart[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(typeof value === "string" ? value : "");
  } catch (error) {
    warnings.push({ line: 0, reason: `${where}: parts are not valid JSON (${error instanceof Error ? error.message : String(error)}), read as empty` });
    return [];
  }
  if (!Array.isArray(parsed)) {
    warnings.push({ line: 0, reason: `${where}: parts are not a JSON array, read as empty` });
    return [];
  }
  const parts: CrushPart[] = [];
  parsed.forEach((part, index) => {
    if (isObject(part) && typeof part.type === "string" && isObject(part.data)) parts.push({ type: part.type, data: part.data });
    else warnings.push({ line: 0, reason: `${where}: part ${index} has no type or data, skipped` });
  });
  return parts;
}

function entryOf(row: SqlRow, position: number, warnings: ReaderWarning[]): SessionEntry | null {
  const id = text(row.id);
  const role = text(row.role);
  if (id === null || role === null) {
    warnings.push({ line: 0, reason: `message row ${position + 1} has no id or role, skipped` });
    return null;
  }
  const message: CrushMessageRow = {
    id,
    role,
    parts: parseParts(row.parts, `message ${id}`, warnings),
    model: text(row.model),
    provider: text(row.provider),
    createdAt: num(row.created_at),
    finishedAt: num(row.finished_at),
    isSummaryMessage: num(row.is_summary_message) === 1,
  };
  return { id, parentId: null, type: `message:${role}`, timestamp: isoOfSeconds(message.createdAt), line: 0, raw: message as unknown as Record<string, unknown> };
}

/** One session of crush.db (the given one, else the most recently updated top-level one). Throws with a message fit for a user. */
export function readCrushDatabase(input: DatabaseReadInput): Session {
  const query: SqlQuery = input.query;
  const tables = query(SQL_TABLE_NAMES).map((row) => String(row.name));
  if (!isCrushDatabase(tables)) throw new Error(`${input.fileName}: a SQLite database without Crush's sessions, messages and files tables`);
  const rows = query(SQL_LIST_SESSIONS);
  if (rows.length === 0) throw new Error(`${input.fileName}: the Crush database holds no session`);
  const warnings: ReaderWarning[] = [];
  let chosen: SqlRow | undefined;
  if (input.sessionId !== null) {
    chosen = rows.find((row) => row.id === input.sessionId);
    if (!chosen) throw new Error(`${input.fileName}: no session ${input.sessionId} in this database`);
  } else {
    // Sub-agent sessions (the agent tool's, the title's) name their parent: show the newest top-level one.
    chosen = rows.find((row) => row.parent_session_id === null || row.parent_session_id === undefined || row.parent_session_id === "") ?? rows[0]!;
    if (rows.length > 1) {
      warnings.push({ line: 0, notice: true, reason: `the database holds ${rows.length} sessions; showing the most recently updated one (${String(chosen.id)}); choose another in the session picker` });
    }
  }
  const id = String(chosen.id);
  const entries: SessionEntry[] = [];
  query(SQL_MESSAGES, [id]).forEach((row, position) => {
    const entry = entryOf(row, position, warnings);
    if (entry) entries.push(entry);
  });
  for (const warning of input.walWarnings) warnings.push({ line: 0, reason: warning });
  if (!input.walApplied) {
    warnings.unshift({
      line: 0,
      reason: "opened without its -wal file: Crush keeps the database in WAL mode, so recent rows may be missing. Drop crush.db together with crush.db-wal to read everything.",
    });
  }
  const header: CrushSessionHeader = {
    agent: "crush",
    id,
    title: text(chosen.title) ?? "",
    parentSessionId: text(chosen.parent_session_id),
    promptTokens: num(chosen.prompt_tokens),
    completionTokens: num(chosen.completion_tokens),
    cost: num(chosen.cost),
    summaryMessageId: text(chosen.summary_message_id) || null,
    sessions: rows.map(listing),
    walApplied: input.walApplied,
  };
  return {
    formatId: CRUSH_FORMAT_ID,
    formatLabel: CRUSH_DATABASE_LABEL,
    fileName: input.fileName,
    formatVersion: null,
    header: header as unknown as Record<string, unknown>,
    entries,
    warnings,
    lineCount: 0,
  };
}
