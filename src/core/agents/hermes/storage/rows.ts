// One `messages` row of hermes-agent's state.db → the OpenAI chat message dict hermes holds in
// memory (hermes-storage.md HS-15 … HS-21). Every column is optional beyond `role` (HS-12: columns
// are discovered, never implied by the schema version). List content stored as `"\x00json:" +
// JSON` is decoded (HS-16); `tool_calls`, `reasoning_details`, `codex_reasoning_items` and
// `codex_message_items` are JSON text (HS-17, HS-19). The row's bookkeeping (id, session, time,
// active / compacted flags, api_content) is kept under `_row` so nothing of the row is lost; keys
// starting with `_` are never sent (HS-38).
import type { ReaderWarning } from "../../../model";
import { capMessageDepth } from "./depth";

/** A row as the SQL glue returns it: column name → value. */
export type HermesRow = Record<string, unknown>;

/** The prefix hermes puts before JSON-encoded list content (HS-16, `_CONTENT_JSON_PREFIX`). */
const CONTENT_JSON_PREFIX = "\u0000json:";

/** Bookkeeping of a stored message: what the row says beside the message itself. */
export interface HermesRowInfo {
  table: "messages";
  id: number | null;
  sessionId: string;
  /** Epoch seconds (REAL). */
  timestamp: number | null;
  /** HS-20: 0 = rewound by /undo or archived by in-place compaction; absent column = 1. */
  active: boolean;
  /** HS-20/HS-25 (schema 30): archived by in-place compaction. */
  compacted: boolean;
  /** HS-21 (schema 30): the exact string sent when it differed from `content`. */
  apiContent: string | null;
  /** HS-21: `_compressed_summary = 1` marks a compaction summary row. */
  compressedSummary: boolean;
  tokenCount: number | null;
  displayKind: string | null;
}

export function num(value: unknown): number | null {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "bigint") return Number(value);
  return null;
}

export function text(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

function flag(value: unknown, absent: boolean): boolean {
  if (value === null || value === undefined) return absent;
  return num(value) !== 0;
}

/** Decodes `content`: plain text, or a `\x00json:` list (HS-16). */
function decodeContent(value: unknown, where: string, warnings: ReaderWarning[]): unknown {
  if (typeof value !== "string" || !value.startsWith(CONTENT_JSON_PREFIX)) return value ?? null;
  try {
    return JSON.parse(value.slice(CONTENT_JSON_PREFIX.length)) as unknown;
  } catch (error) {
    warnings.push({ line: 0, reason: `${where}: content starts with the \\x00json: prefix but is not valid JSON (${(error as Error).message}); kept as text` });
    return value;
  }
}

function jsonColumn(value: unknown, column: string, where: string, warnings: ReaderWarning[]): unknown {
  if (value === null || value === undefined || value === "") return undefined;
  // A `hermes sessions export` line holds the columns already parsed (HS-46).
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value) as unknown;
  } catch (error) {
    warnings.push({ line: 0, reason: `${where}: ${column} is not valid JSON (${(error as Error).message}); kept as text` });
    return value;
  }
}

/**
 * The message dict of a row, in the key order hermes builds it (role, content, then the
 * optional fields), and its bookkeeping. Null (with a warning) for a row without a role.
 */
export function messageFromRow(row: HermesRow, warnings: ReaderWarning[]): { message: Record<string, unknown>; info: HermesRowInfo } | null {
  const id = num(row.id);
  const where = `messages row ${id ?? "?"}`;
  const role = text(row.role);
  if (!role) {
    warnings.push({ line: 0, reason: `${where}: no role; skipped` });
    return null;
  }
  const message: Record<string, unknown> = { role, content: decodeContent(row.content, where, warnings) };
  const calls = jsonColumn(row.tool_calls, "tool_calls", where, warnings);
  if (calls !== undefined) {
    if (Array.isArray(calls)) {
      if (calls.length > 0) message.tool_calls = calls;
    } else {
      warnings.push({ line: 0, reason: `${where}: tool_calls is not a JSON list; kept as written` });
      message.tool_calls = calls;
    }
  }
  if (text(row.tool_call_id) !== null) message.tool_call_id = row.tool_call_id;
  if (text(row.tool_name) !== null) message.tool_name = row.tool_name;
  if (text(row.reasoning) !== null) message.reasoning = row.reasoning;
  if (text(row.reasoning_content) !== null) message.reasoning_content = row.reasoning_content;
  for (const column of ["reasoning_details", "codex_reasoning_items", "codex_message_items"] as const) {
    const value = jsonColumn(row[column], column, where, warnings);
    if (value !== undefined) message[column] = value;
  }
  if (text(row.finish_reason) !== null) message.finish_reason = row.finish_reason;
  const compressedSummary = flag(row._compressed_summary, false);
  if (compressedSummary) message._compressed_summary = true;
  const info: HermesRowInfo = {
    table: "messages",
    id,
    sessionId: text(row.session_id) ?? "",
    timestamp: num(row.timestamp),
    active: flag(row.active, true),
    compacted: flag(row.compacted, false),
    apiContent: text(row.api_content),
    compressedSummary,
    tokenCount: num(row.token_count),
    displayKind: text(row.display_kind),
  };
  return { message: capMessageDepth(message, where, 0, warnings), info };
}
