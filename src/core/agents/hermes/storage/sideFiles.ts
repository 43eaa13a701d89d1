// The JSON files hermes-agent writes beside state.db in `<HERMES_HOME>/sessions/` (HS-3):
// `session_<id>.json` snapshots (HS-26 … HS-29: session_id, model, base_url, platform,
// session_start, last_updated, system_prompt, tools, message_count, messages), gateway
// `<id>.jsonl` transcripts (HS-30: one OpenAI message dict per line; the gateway starts a fresh
// session's transcript with a `{"role": "session_meta", "tools", "model", "platform", "timestamp"}`
// line — NousResearch/hermes-agent `gateway/run.py` @ 9480426946295178d8258352e6128665ca2aa71c,
// `_handle_message`: "the same list of dicts sent as tools=[...] in the API request") and
// `request_dump_<id>_<ts>.json` (HS-32: timestamp, session_id, reason, request{method, url,
// headers, body}, error?). Pure parsing of one file's text; lenient: a bad line or message is a
// warning with its line number, every good one is kept. The gateway routing index
// `sessions.json` is recognised and named (it maps platform keys to sessions, it is no transcript).
import type { ReaderWarning } from "../../../model";
import { describeByteOffsets, escapeControlCharsInStrings, type ControlCharRepair } from "../../../readers/control-chars";
import { isObject } from "../../../util/is-object";
import { capParsedValue } from "../../../util/json-depth";
import { capMessageDepth } from "./depth";
import { messageFromRow, num } from "./rows";
import { emptyStoredSession, type HermesRequestDump, type HermesStoredMessage, type HermesStoredSession } from "./store";

export type HermesSideFile =
  | { kind: "snapshot"; session: HermesStoredSession; warnings: ReaderWarning[] }
  | { kind: "export"; sessions: HermesStoredSession[]; warnings: ReaderWarning[] }
  | { kind: "transcript"; session: HermesStoredSession; warnings: ReaderWarning[] }
  | { kind: "dump"; dump: HermesRequestDump; warnings: ReaderWarning[] }
  | { kind: "routing-index"; warnings: ReaderWarning[] };

const ROLES = new Set(["system", "user", "assistant", "tool"]);

/** Top-level keys of a snapshot (HS-26); `session_id` and `messages` are enough to recognise one. */
function looksLikeSnapshot(value: unknown): value is Record<string, unknown> {
  return isObject(value) && typeof value.session_id === "string" && Array.isArray(value.messages) && ("system_prompt" in value || "session_start" in value);
}

/** HS-32: `request.body` with `session_id` or `reason` beside it. */
function looksLikeDump(value: unknown): value is Record<string, unknown> {
  return isObject(value) && isObject(value.request) && isObject(value.request.body) && ("session_id" in value || "reason" in value);
}

function epochSeconds(iso: unknown): number | null {
  if (typeof iso !== "string") return null;
  // hermes writes local isoformat without a zone (HS-26); read as UTC, shown as written.
  const ms = Date.parse(/[zZ]|[+-]\d\d:\d\d$/.test(iso) ? iso : `${iso}Z`);
  return Number.isFinite(ms) ? ms / 1000 : null;
}

/** The session id in a file name: `session_<id>.json`, `<id>.jsonl`, `request_dump_<id>_<ts>.json`. */
export function sessionIdFromFileName(fileName: string): string | null {
  const base = fileName.replace(/^.*[\\/]/, "");
  const snapshot = /^session_(.+)\.json$/i.exec(base);
  if (snapshot) return snapshot[1]!;
  const dump = /^request_dump_(.+)_\d{8}_\d{6}(?:_\d+)?\.json$/i.exec(base);
  if (dump) return dump[1]!;
  const transcript = /^(.+)\.jsonl$/i.exec(base);
  return transcript ? transcript[1]! : null;
}

function storedMessages(list: unknown[], from: "snapshot" | "transcript", where: string, warnings: ReaderWarning[], lines?: number[]): HermesStoredMessage[] {
  const out: HermesStoredMessage[] = [];
  list.forEach((value, index) => {
    const line = lines?.[index] ?? 0;
    if (!isObject(value) || typeof value.role !== "string" || !ROLES.has(value.role)) {
      warnings.push({ line, reason: `${where} message [${index}]: not a chat message (object with role system|user|assistant|tool); skipped` });
      return;
    }
    out.push({ message: capMessageDepth(value, `message [${index}]`, line, warnings), row: null, from, line });
  });
  return out;
}

function snapshotFromJson(value: Record<string, unknown>, fileName: string): HermesSideFile {
  const warnings: ReaderWarning[] = [];
  const session = emptyStoredSession(String(value.session_id));
  session.model = typeof value.model === "string" ? value.model : null;
  session.baseUrl = typeof value.base_url === "string" ? value.base_url : null;
  session.platform = typeof value.platform === "string" ? value.platform : null;
  session.startedAt = epochSeconds(value.session_start);
  session.endedAt = epochSeconds(value.last_updated);
  if (typeof value.system_prompt === "string" && value.system_prompt !== "") {
    session.systemPrompt = value.system_prompt;
    session.systemPromptFrom = "snapshot";
  }
  if (Array.isArray(value.tools)) {
    const tools = capParsedValue(value.tools);
    if (tools.note !== null) warnings.push({ line: 0, reason: `tools: ${tools.note}` });
    session.tools = tools.value as unknown[];
    session.toolsFrom = "snapshot";
  } else if (value.tools !== undefined && value.tools !== null) {
    warnings.push({ line: 0, reason: `${fileName}: tools is not a list; ignored` });
  }
  session.messages = storedMessages(value.messages as unknown[], "snapshot", fileName, warnings);
  session.messageCount = session.messages.length;
  session.messagesFrom = "snapshot";
  return { kind: "snapshot", session, warnings };
}

function dumpFromJson(value: Record<string, unknown>, fileName: string): HermesSideFile {
  const request = value.request as Record<string, unknown>;
  const dump: HermesRequestDump = {
    fileName,
    sessionId: typeof value.session_id === "string" ? value.session_id : sessionIdFromFileName(fileName),
    timestamp: typeof value.timestamp === "string" ? value.timestamp : null,
    reason: typeof value.reason === "string" ? value.reason : null,
    url: typeof request.url === "string" ? request.url : null,
    body: request.body as Record<string, unknown>,
    error: isObject(value.error) ? value.error : null,
  };
  return { kind: "dump", dump, warnings: [] };
}

/** The gateway's header line of a transcript: not a message, the session's tools, model and platform. */
function isSessionMeta(value: unknown): value is Record<string, unknown> {
  return isObject(value) && value.role === "session_meta";
}

/** What a `session_meta` line says about the session: its tools (as sent), model, platform and start. */
function applySessionMeta(session: HermesStoredSession, meta: Record<string, unknown>, line: number, fileName: string, warnings: ReaderWarning[]): void {
  if (Array.isArray(meta.tools)) {
    if (session.tools === null && meta.tools.length > 0) {
      // Cut as a snapshot's tools are: later stages recurse into them.
      const tools = capParsedValue(meta.tools);
      if (tools.note !== null) warnings.push({ line, reason: `session_meta tools: ${tools.note}` });
      session.tools = tools.value as unknown[];
      session.toolsFrom = "transcript";
    }
  } else if (meta.tools !== undefined && meta.tools !== null) {
    warnings.push({ line, reason: `${fileName}: session_meta tools is not a list; ignored` });
  }
  if (typeof meta.model === "string" && meta.model !== "") session.model ??= meta.model;
  if (typeof meta.platform === "string" && meta.platform !== "") session.platform ??= meta.platform;
  session.startedAt ??= epochSeconds(meta.timestamp);
}

/** A `<id>.jsonl` transcript: one message dict per line (HS-30), after the gateway's `session_meta` line when it wrote one. */
function transcriptFromText(textValue: string, fileName: string): HermesSideFile {
  const warnings: ReaderWarning[] = [];
  const values: unknown[] = [];
  const lines: number[] = [];
  const session = emptyStoredSession(sessionIdFromFileName(fileName) ?? fileName);
  textValue.split("\n").forEach((line, index) => {
    const trimmed = line.trim();
    if (trimmed === "") return;
    let value: unknown;
    try {
      value = JSON.parse(trimmed) as unknown;
    } catch (error) {
      warnings.push({ line: index + 1, reason: `not valid JSON (${(error as Error).message}); skipped` });
      return;
    }
    // hermes strips these lines before the agent sees the history; a later one (a session
    // rewritten by /retry or /undo) says the same as the first.
    if (isSessionMeta(value)) applySessionMeta(session, value, index + 1, fileName, warnings);
    else {
      values.push(value);
      lines.push(index + 1);
    }
  });
  session.messages = storedMessages(values, "transcript", fileName, warnings, lines);
  session.messageCount = session.messages.length;
  session.messagesFrom = "transcript";
  const first = session.messages[0]?.message.timestamp;
  if (typeof first === "number") session.startedAt = first;
  else if (typeof first === "string") session.startedAt = epochSeconds(first);
  return { kind: "transcript", session, warnings };
}

/** A `hermes sessions export` line (HS-46): a sessions row with its raw message rows. */
export function looksLikeExportLine(value: unknown): value is Record<string, unknown> {
  return isObject(value) && typeof value.id === "string" && Array.isArray(value.messages) && "started_at" in value && "source" in value;
}

/** `hermes sessions export` JSONL: one session per line, rows as stored (HS-46). */
function exportFromText(textValue: string): HermesSideFile {
  const warnings: ReaderWarning[] = [];
  const sessions: HermesStoredSession[] = [];
  textValue.split("\n").forEach((line, index) => {
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      warnings.push({ line: index + 1, reason: `not valid JSON (${(error as Error).message}); skipped` });
      return;
    }
    if (!looksLikeExportLine(value)) {
      warnings.push({ line: index + 1, reason: "not a session line of `hermes sessions export` (id, source, started_at, messages); skipped" });
      return;
    }
    const session = emptyStoredSession(value.id as string);
    session.platform = typeof value.source === "string" ? value.source : null;
    session.model = typeof value.model === "string" ? value.model : null;
    session.title = typeof value.title === "string" ? value.title : null;
    session.parentId = typeof value.parent_session_id === "string" ? value.parent_session_id : null;
    session.startedAt = num(value.started_at);
    session.endedAt = num(value.ended_at);
    session.endReason = typeof value.end_reason === "string" ? value.end_reason : null;
    session.cwd = typeof value.cwd === "string" ? value.cwd : null;
    if (typeof value.system_prompt === "string" && value.system_prompt !== "") {
      session.systemPrompt = value.system_prompt;
      session.systemPromptFrom = "transcript";
    }
    const rowWarnings: ReaderWarning[] = [];
    session.messages = [];
    for (const row of value.messages as unknown[]) {
      const read = isObject(row) ? messageFromRow({ session_id: session.id, ...row }, rowWarnings) : null;
      if (read) session.messages.push({ message: read.message, row: read.info, from: "transcript", line: index + 1 });
      else if (!isObject(row)) rowWarnings.push({ line: 0, reason: "message is not an object; skipped" });
    }
    for (const w of rowWarnings) warnings.push({ line: index + 1, reason: `session ${session.id}: ${w.reason}` });
    session.messageCount = session.messages.length;
    session.messagesFrom = "transcript";
    sessions.push(session);
  });
  return { kind: "export", sessions, warnings };
}

/** True when the first line of a JSONL file is a hermes transcript message (role, no `type`) or the gateway's `session_meta` line. */
export function looksLikeTranscriptLine(line: string): boolean {
  try {
    const value: unknown = JSON.parse(line);
    if (isSessionMeta(value) && !("type" in value)) return true;
    return isObject(value) && typeof value.role === "string" && ROLES.has(value.role) && !("type" in value) && !("message" in value);
  } catch {
    return false;
  }
}

/**
 * True when the lines after the first (up to 20 of them) are mostly hermes transcript messages —
 * at least two, and more than half: a transcript whose first line is damaged (cut, a field of the
 * wrong type) is still one, and no other agent's JSONL has lines of that shape.
 */
export function laterLinesAreTranscript(allLines: readonly string[]): boolean {
  const lines = allLines.filter((line) => line.trim() !== "").slice(1, 21);
  const transcript = lines.filter((line) => looksLikeTranscriptLine(line.trim())).length;
  return transcript >= 2 && transcript * 2 > lines.length;
}

/**
 * The parsed JSON document; when JSON.parse refuses it only for raw control characters inside
 * strings (a CR or NUL byte), the document with them escaped, and where they were. Null when it is
 * not JSON either way.
 */
function parseWithControlCharRepair(textValue: string): { value: unknown; repaired: ControlCharRepair | null } | null {
  try {
    return { value: JSON.parse(textValue) as unknown, repaired: null };
  } catch {
    const repaired = escapeControlCharsInStrings(textValue);
    if (!repaired) return null;
    try {
      return { value: JSON.parse(repaired.text) as unknown, repaired };
    } catch {
      return null;
    }
  }
}

/**
 * Reads one hermes side file from its text, or null when it is none of them. The gateway's
 * `sessions.json` is named (kind "routing-index") so a drop that holds it can say why it was not read.
 */
export function readHermesSideFile(fileName: string, textValue: string): HermesSideFile | null {
  const base = fileName.replace(/^.*[\\/]/, "");
  if (/\.jsonl$/i.test(base)) {
    const first = textValue.split("\n").find((line) => line.trim() !== "");
    if (first === undefined) return null;
    if (looksLikeTranscriptLine(first.trim())) return transcriptFromText(textValue, base);
    try {
      if (looksLikeExportLine(JSON.parse(first))) return exportFromText(textValue);
    } catch {
      // A damaged first line: the other lines may still say what the file is.
    }
    if (laterLinesAreTranscript(textValue.split("\n", 64))) {
      const read = transcriptFromText(textValue, base);
      read.warnings.unshift({ line: 1, reason: "the first line is not a transcript message; the file was recognised as a hermes transcript by its other lines" });
      return read;
    }
    return null;
  }
  const parsed = parseWithControlCharRepair(textValue);
  if (!parsed) return null;
  const { value, repaired } = parsed;
  const read = looksLikeSnapshot(value) ? snapshotFromJson(value, base) : looksLikeDump(value) ? dumpFromJson(value, base) : null;
  if (read) {
    if (repaired) read.warnings.unshift({ line: 0, reason: `raw control character${repaired.byteOffsets.length === 1 ? "" : "s"} inside a JSON string at ${describeByteOffsets(repaired.byteOffsets)}; read as escaped characters` });
    return read;
  }
  if (/^sessions\.json$/i.test(base) && isObject(value)) {
    return { kind: "routing-index", warnings: [{ line: 0, reason: `${base}: the gateway's routing index (platform keys → session ids, HS-3); it holds no messages, not read` }] };
  }
  return null;
}
