// Reading hermes-agent's `state.db` (HS-2 … HS-25) through a query function the caller supplies
// (sql.js in the worker and the CLI), so this module stays pure: statements in, rows out. Only
// SELECT and PRAGMA table_info are ever run (HS-6: read-only, no schema writes). Columns are
// discovered with PRAGMA table_info and every column beyond the v2 base is optional (HS-12):
// `schema_version.version` is shown, never trusted. FTS tables are derived data and never read
// (HS-10). Schema 30's deduplicated prompts come from `system_prompts` by hash, with the inline
// column as the fallback (HS-11).
import { parseNestedJson } from "../../../util/json-depth";
import type { ReaderWarning, RecordedUsage } from "../../../model";
import { isObject } from "../../../util/is-object";
import { messageFromRow, num, text, type HermesRow } from "./rows";
import { emptyStoredSession, type HermesStoredMessage, type HermesStoredSession, type HermesStoreOrigin } from "./store";

/** Runs one read-only statement with positional parameters and returns every row. */
export type HermesSqlQuery = (sql: string, params?: readonly (string | number)[]) => HermesRow[];

/** Newest schema version the spec documents (HS-11). */
const NEWEST_DOCUMENTED_SCHEMA = 30;
/** Oldest schema version hermes_state.py ever wrote (HS-8). */
const OLDEST_DOCUMENTED_SCHEMA = 2;

const REQUIRED_SESSION_COLUMNS = ["id"] as const;
const REQUIRED_MESSAGE_COLUMNS = ["session_id", "role"] as const;

/** Why a SQLite file that looks like hermes storage cannot be read; the message says what it is. */
export class HermesStorageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "HermesStorageError";
  }
}

/** hermes-agent's state.db by its tables (HS-8): `sessions` and `messages` (opencode's are singular). */
export function isHermesStateDb(tableNames: readonly string[]): boolean {
  return tableNames.includes("sessions") && tableNames.includes("messages");
}

function tableNames(query: HermesSqlQuery): string[] {
  return query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").map((row) => String(row.name));
}

function columnsOf(query: HermesSqlQuery, table: string): string[] {
  // Table names are from our own constant list, never from the file.
  return query(`PRAGMA table_info(${table})`).map((row) => String(row.name));
}

/** The columns and version of a hermes state.db; throws HermesStorageError naming what is missing. */
export function inspectStateDb(query: HermesSqlQuery, fileName: string, walApplied: boolean, warnings: ReaderWarning[]): HermesStoreOrigin {
  const tables = tableNames(query);
  const columns: Record<string, string[]> = {
    sessions: columnsOf(query, "sessions"),
    messages: columnsOf(query, "messages"),
  };
  if (tables.includes("system_prompts")) columns.system_prompts = columnsOf(query, "system_prompts");
  let schemaVersion: number | null = null;
  if (tables.includes("schema_version")) {
    schemaVersion = num(query("SELECT version FROM schema_version LIMIT 1")[0]?.version);
  }
  const missing = [
    ...REQUIRED_SESSION_COLUMNS.filter((c) => !columns.sessions!.includes(c)).map((c) => `sessions.${c}`),
    ...REQUIRED_MESSAGE_COLUMNS.filter((c) => !columns.messages!.includes(c)).map((c) => `messages.${c}`),
  ];
  if (missing.length > 0) {
    throw new HermesStorageError(
      `${fileName}: a hermes-agent state.db (tables sessions and messages${schemaVersion !== null ? `, schema_version ${schemaVersion}` : ""}) without the column${missing.length > 1 ? "s" : ""} ${missing.join(", ")}: this storage kind is not supported (Contextscope reads schema ${OLDEST_DOCUMENTED_SCHEMA}–${NEWEST_DOCUMENTED_SCHEMA}, where every session has an id and every message a session_id and a role).`,
    );
  }
  if (schemaVersion !== null && schemaVersion > NEWEST_DOCUMENTED_SCHEMA) {
    warnings.push({ line: 0, reason: `schema_version ${schemaVersion} is newer than the newest documented one (${NEWEST_DOCUMENTED_SCHEMA}); read by the columns it has` });
  }
  if (schemaVersion !== null && schemaVersion < OLDEST_DOCUMENTED_SCHEMA) {
    warnings.push({ line: 0, reason: `schema_version ${schemaVersion} is older than the oldest documented one (${OLDEST_DOCUMENTED_SCHEMA}); read by the columns it has` });
  }
  return { kind: "state.db", fileName, schemaVersion, walApplied, columns };
}

function selectList(available: readonly string[], wanted: readonly string[], alias = ""): string {
  return wanted.filter((c) => available.includes(c)).map((c) => `${alias}${c} AS ${c}`).join(", ");
}

const SESSION_COLUMNS = [
  "id", "source", "user_id", "model", "model_config", "system_prompt", "parent_session_id", "started_at", "ended_at", "end_reason", "message_count", "title", "cwd", "system_prompt_hash", "display_name", "hidden", "archived",
  "input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens",
];

/** The session's token counters (schema 5 on: `input_tokens` excludes the cache reads and writes, as hermes adds them apart). */
function usageTotalsOf(row: Record<string, unknown>): RecordedUsage | null {
  const input = num(row.input_tokens);
  const output = num(row.output_tokens);
  if (input === null && output === null) return null;
  const cacheRead = num(row.cache_read_tokens) ?? 0;
  const cacheWrite = num(row.cache_write_tokens) ?? 0;
  const usage = { input: input ?? 0, output: output ?? 0, cacheRead, cacheWrite, totalTokens: (input ?? 0) + (output ?? 0) + cacheRead + cacheWrite };
  return usage.totalTokens > 0 ? usage : null;
}

function parseConfig(value: unknown): Record<string, unknown> | null {
  if (typeof value !== "string" || value === "") return null;
  try {
    const parsed: unknown = parseNestedJson(value);
    return isObject(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** Every session row (newest first), with the number of message rows it has. */
export function listStateDbSessions(query: HermesSqlQuery, origin: HermesStoreOrigin): HermesStoredSession[] {
  const sessionColumns = origin.columns.sessions ?? [];
  const promptJoin = sessionColumns.includes("system_prompt_hash") && (origin.columns.system_prompts ?? []).includes("prompt");
  const order = sessionColumns.includes("started_at") ? "s.started_at DESC, s.id" : "s.id";
  const sql =
    `SELECT ${selectList(sessionColumns, SESSION_COLUMNS, "s.")}` +
    (promptJoin ? ", (SELECT p.prompt FROM system_prompts p WHERE p.hash = s.system_prompt_hash) AS deduped_prompt" : "") +
    ", (SELECT COUNT(*) FROM messages m WHERE m.session_id = s.id) AS row_count" +
    ` FROM sessions s ORDER BY ${order}`;
  return query(sql).map((row) => {
    const session = emptyStoredSession(text(row.id) ?? "");
    session.platform = text(row.source);
    session.model = text(row.model);
    session.title = text(row.title) ?? text(row.display_name);
    session.parentId = text(row.parent_session_id);
    session.startedAt = num(row.started_at);
    session.endedAt = num(row.ended_at);
    session.endReason = text(row.end_reason);
    session.cwd = text(row.cwd);
    session.modelConfig = parseConfig(row.model_config);
    // HS-11: the deduplicated prompt by hash, else the legacy inline column.
    const prompt = text(row.deduped_prompt) ?? text(row.system_prompt);
    if (prompt !== null && prompt !== "") {
      session.systemPrompt = prompt;
      session.systemPromptFrom = "state.db";
    }
    session.messageCount = num(row.row_count) ?? 0;
    session.messagesFrom = "state.db";
    session.usageTotals = usageTotalsOf(row);
    return session;
  });
}

const MESSAGE_COLUMNS = [
  "id", "session_id", "role", "content", "tool_call_id", "tool_calls", "tool_name", "timestamp", "token_count", "finish_reason",
  "reasoning", "reasoning_content", "reasoning_details", "codex_reasoning_items", "codex_message_items",
  "active", "compacted", "api_content", "_compressed_summary", "display_kind",
];

/** The message rows of one session in hermes' order `(timestamp, id)` (HS-15), every row kept. */
export function stateDbMessages(query: HermesSqlQuery, origin: HermesStoreOrigin, sessionId: string, warnings: ReaderWarning[]): HermesStoredMessage[] {
  const columns = origin.columns.messages ?? [];
  const order = ["timestamp", "id"].filter((c) => columns.includes(c)).join(", ") || "rowid";
  const rows = query(`SELECT ${selectList(columns, MESSAGE_COLUMNS)} FROM messages WHERE session_id = ? ORDER BY ${order}`, [sessionId]);
  const out: HermesStoredMessage[] = [];
  for (const row of rows) {
    // One row that cannot be read is named and skipped; the session and the database stay open.
    let read: ReturnType<typeof messageFromRow>;
    try {
      read = messageFromRow(row, warnings);
    } catch (error) {
      warnings.push({ line: 0, reason: `messages row ${num(row.id) ?? "?"}: could not be read (${error instanceof Error ? error.message : String(error)}); skipped` });
      continue;
    }
    if (read) out.push({ message: read.message, row: read.info, from: "state.db", line: 0 });
  }
  return out;
}
