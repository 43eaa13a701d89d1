// Reading opencode's SQLite database (FM-OC-1 … FM-OC-3) through a query function supplied by
// the caller (sql.js in the worker and the CLI, see src/features/open/sqlite.ts and src/cli/sqlite.ts),
// so this module stays pure. Only the tables `session`, `message` and `part` are ever queried
// (FM-OC-3: the database also holds credentials, which are never read). Rows become the export's
// `{info, parts}` shape (FM-OC-2: `data` does not repeat the ids held in columns) and then a
// Session (./session.ts). Message order `(time_created, id)`, part order `id` (FM-OC-2).
import type { ReaderWarning, Session } from "../../model";
import type { OpencodeMessageRecord, OpencodeSessionInfo, OpencodeSessionListing } from "./records";
import { isObject } from "../../util/is-object";
import type { SqlQuery, SqlRow } from "../../storage/sqlite";
import { buildOpencodeSession, normalizeMessageRecord } from "./session";


const SQL_TABLE_NAMES = "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name";
const SQL_LIST_SESSIONS =
  "SELECT s.id AS id, s.title AS title, s.parent_id AS parent_id, s.directory AS directory, " +
  "s.time_created AS time_created, s.time_updated AS time_updated, " +
  "(SELECT COUNT(*) FROM message m WHERE m.session_id = s.id) AS message_count " +
  "FROM session s ORDER BY s.time_updated DESC, s.id";
const SQL_SESSION_ROW = "SELECT * FROM session WHERE id = ?";
const SQL_MESSAGES =
  "SELECT id, session_id, time_created, time_updated, data FROM message WHERE session_id = ? ORDER BY time_created, id";
const SQL_PARTS =
  "SELECT id, message_id, session_id, time_created, time_updated, data FROM part WHERE session_id = ? ORDER BY message_id, id";

export const OPENCODE_TABLES: readonly string[] = ["session", "message", "part"];

/** The columns the queries above read, per table. */
const REQUIRED_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  session: ["id", "title", "parent_id", "directory", "time_created", "time_updated"],
  message: ["id", "session_id", "time_created", "time_updated", "data"],
  part: ["id", "message_id", "session_id", "time_created", "time_updated", "data"],
};

/**
 * The tables whose columns differ from what the queries read, in words ("the message table has
 * no session_id column"), or null when every column is there: an unexpected schema is named, never
 * shown as SQLite's error about our query.
 */
function missingColumns(query: SqlQuery): string | null {
  const problems: string[] = [];
  for (const [table, columns] of Object.entries(REQUIRED_COLUMNS)) {
    const present = new Set(query(`PRAGMA table_info(${table})`).map((row) => String(row.name)));
    // No column information (a query function that answers only the reader's own queries): the
    // queries below will say.
    if (present.size === 0) continue;
    const missing = columns.filter((column) => !present.has(column));
    if (missing.length > 0) problems.push(`the ${table} table has no ${missing.join(", ")} column${missing.length > 1 ? "s" : ""}`);
  }
  return problems.length > 0 ? problems.join("; ") : null;
}

/** Why a SQLite file cannot be read as an opencode session database. */
class OpencodeDatabaseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OpencodeDatabaseError";
  }
}

export interface DatabaseReadOptions {
  fileName: string;
  /** The session to read; default: the most recently updated top-level session. */
  sessionId?: string | null;
  /** Whether the caller applied a `-wal` file (FM-OC-1): false adds the "rows may be missing" warning. */
  walApplied: boolean;
  /** Warnings of the WAL overlay (src/core/storage/wal.ts), shown with the reader's. */
  walWarnings?: string[];
}

function text(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}
function num(value: unknown): number | null {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "bigint") return Number(value);
  return null;
}

function parseJsonColumn(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** The session row in the export's `info` shape (FM-OC-4), as far as the columns go. */
function sessionInfoFromRow(row: SqlRow): OpencodeSessionInfo {
  const info: OpencodeSessionInfo = { id: text(row.id) ?? "unknown-session" };
  const put = (key: string, value: unknown) => {
    if (value !== null && value !== undefined) info[key] = value;
  };
  put("slug", row.slug);
  put("projectID", row.project_id);
  put("workspaceID", row.workspace_id);
  put("parentID", row.parent_id);
  put("directory", row.directory);
  put("path", row.path);
  put("title", row.title);
  put("agent", row.agent);
  put("model", parseJsonColumn(row.model));
  put("version", row.version);
  put("cost", row.cost);
  if ("tokens_input" in row) {
    info.tokens = {
      input: num(row.tokens_input) ?? 0,
      output: num(row.tokens_output) ?? 0,
      reasoning: num(row.tokens_reasoning) ?? 0,
      cache: { read: num(row.tokens_cache_read) ?? 0, write: num(row.tokens_cache_write) ?? 0 },
    };
  }
  put("permission", parseJsonColumn(row.permission));
  put("revert", parseJsonColumn(row.revert));
  const time: Record<string, number> = {};
  for (const [key, column] of [["created", "time_created"], ["updated", "time_updated"], ["compacting", "time_compacting"], ["archived", "time_archived"]] as const) {
    const value = num(row[column]);
    if (value !== null) time[key] = value;
  }
  info.time = time;
  return info;
}

function listingFromRow(row: SqlRow): OpencodeSessionListing {
  return {
    id: text(row.id) ?? "",
    title: text(row.title) ?? "",
    parentId: text(row.parent_id),
    directory: text(row.directory),
    timeCreated: num(row.time_created),
    timeUpdated: num(row.time_updated),
    messageCount: num(row.message_count) ?? 0,
  };
}

function parseData(row: SqlRow, what: string, warnings: ReaderWarning[]): Record<string, unknown> | null {
  const raw = row.data;
  if (typeof raw !== "string") {
    warnings.push({ line: 0, reason: `${what}: no data column, skipped` });
    return null;
  }
  try {
    const value: unknown = JSON.parse(raw);
    if (isObject(value)) return value;
    warnings.push({ line: 0, reason: `${what}: data is not a JSON object, skipped` });
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    warnings.push({ line: 0, reason: `${what}: data is not valid JSON (${detail}), skipped` });
  }
  return null;
}

/**
 * Session from the rows of one session's `message` and `part` tables (already filtered to it and
 * ordered as the queries above order them), its session row, and the listing of all sessions.
 */
export function sessionFromDatabaseRows(
  rows: { session: SqlRow; messages: SqlRow[]; parts: SqlRow[]; listing: SqlRow[] },
  options: DatabaseReadOptions,
  warnings: ReaderWarning[] = [],
): Session {
  const info = sessionInfoFromRow(rows.session);
  const partsByMessage = new Map<string, Record<string, unknown>[]>();
  for (const row of rows.parts) {
    const id = text(row.id);
    const messageId = text(row.message_id);
    if (!id || !messageId) {
      warnings.push({ line: 0, reason: "part row without id or message_id, skipped" });
      continue;
    }
    const data = parseData(row, `part ${id}`, warnings);
    if (!data) continue;
    const list = partsByMessage.get(messageId) ?? [];
    list.push({ ...data, id, sessionID: text(row.session_id) ?? info.id, messageID: messageId });
    partsByMessage.set(messageId, list);
  }
  const records: OpencodeMessageRecord[] = [];
  for (const row of rows.messages) {
    const id = text(row.id);
    if (!id) {
      warnings.push({ line: 0, reason: "message row without id, skipped" });
      continue;
    }
    const data = parseData(row, `message ${id}`, warnings);
    if (!data) continue;
    const parts = partsByMessage.get(id) ?? [];
    partsByMessage.delete(id);
    // Parts are ordered by id within a message (FM-OC-2); the query already does, keep it stable.
    parts.sort((a, b) => (String(a.id) < String(b.id) ? -1 : String(a.id) > String(b.id) ? 1 : 0));
    const record = normalizeMessageRecord(
      { info: { ...data, id, sessionID: text(row.session_id) ?? info.id }, parts },
      `message ${id}`,
      warnings,
    );
    if (record) records.push(record);
  }
  for (const [messageId, parts] of partsByMessage) {
    warnings.push({ line: 0, reason: `${parts.length} part(s) of message ${messageId}, which is not in the database, skipped` });
  }
  for (const warning of options.walWarnings ?? []) warnings.push({ line: 0, reason: warning });
  if (!options.walApplied) {
    warnings.unshift({
      line: 0,
      reason:
        "opened without its -wal file: opencode keeps the database in WAL mode, so recent rows may be missing. Drop opencode.db together with opencode.db-wal to read everything.",
    });
  }
  const listing = rows.listing.map(listingFromRow);
  return buildOpencodeSession({
    fileName: options.fileName,
    source: "database",
    info,
    records,
    sessions: listing,
    warnings,
    lineCount: 0,
    walApplied: options.walApplied,
  });
}

/**
 * opencode by its tables (FM-GEN-1). A hermes-agent state.db (tables `sessions` and `messages`)
 * is read before this by src/core/agents/hermes/storage/; reaching here with the name `state.db`
 * means a file without hermes' tables, which is named as such.
 */
export function classifyDatabase(tableNames: readonly string[], fileName: string): "opencode" | "hermes" | "unknown" {
  if (OPENCODE_TABLES.every((name) => tableNames.includes(name))) return "opencode";
  if (/(^|[\\/])state\.db$/i.test(fileName)) return "hermes";
  return "unknown";
}

/**
 * Reads one session through `query`. Throws OpencodeDatabaseError when the database is not an
 * opencode one or holds no session; otherwise never throws on bad rows (they become warnings).
 */
export function readOpencodeDatabase(query: SqlQuery, options: DatabaseReadOptions): Session {
  const tables = query(SQL_TABLE_NAMES).map((row) => String(row.name));
  const kind = classifyDatabase(tables, options.fileName);
  if (kind === "hermes") {
    throw new OpencodeDatabaseError(
      `${options.fileName}: named like hermes-agent's state.db, but without its sessions and messages tables (HS-8): not a hermes-agent storage kind Contextscope reads (schema 2–30).`,
    );
  }
  if (kind === "unknown") {
    throw new OpencodeDatabaseError(
      `${options.fileName}: a SQLite database without opencode's session, message and part tables; expected opencode.db (~/.local/share/opencode/opencode.db)`,
    );
  }
  const missing = missingColumns(query);
  if (missing !== null) {
    throw new OpencodeDatabaseError(`${options.fileName}: opencode's tables are there, but ${missing}: a schema Contextscope does not read (it reads opencode 1.x's session, message and part tables)`);
  }
  let listing: SqlRow[];
  try {
    listing = query(SQL_LIST_SESSIONS);
  } catch (error) {
    throw new OpencodeDatabaseError(`${options.fileName}: the session list could not be read from opencode's tables (SQLite: ${error instanceof Error ? error.message : String(error)})`);
  }
  if (listing.length === 0) throw new OpencodeDatabaseError(`${options.fileName}: the opencode database holds no session`);
  const warnings: ReaderWarning[] = [];
  let chosenId = options.sessionId ?? null;
  if (chosenId !== null && !listing.some((row) => row.id === chosenId)) {
    throw new OpencodeDatabaseError(`${options.fileName}: no session ${chosenId} in this database`);
  }
  if (chosenId === null) {
    const topLevel = listing.find((row) => row.parent_id === null || row.parent_id === undefined) ?? listing[0];
    chosenId = String((topLevel as SqlRow).id);
    if (listing.length > 1) {
      warnings.push({
        line: 0,
        reason: `the database holds ${listing.length} sessions; showing the most recently updated one (${chosenId}); choose another in the session picker`,
        notice: true,
      });
    }
  }
  const session = query(SQL_SESSION_ROW, [chosenId])[0] ?? { id: chosenId };
  const messages = query(SQL_MESSAGES, [chosenId]);
  const parts = query(SQL_PARTS, [chosenId]);
  return sessionFromDatabaseRows({ session, messages, parts, listing }, options, warnings);
}
