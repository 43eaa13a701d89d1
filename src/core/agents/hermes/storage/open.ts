// Opens hermes-agent storage from what was dropped or named together: a `state.db` (through a
// query function) and/or the side files of `<HERMES_HOME>/sessions/`. Merges them into one store
// (HS-49 order: a request dump's tools over a snapshot's over nothing; the database's rows over a
// snapshot's messages, except that a transcript with more messages than the database wins, as
// `load_transcript` does, HS-30) and builds the Session of the chosen session. Pure.
import type { ReaderWarning, Session } from "../../../model";
import { readHermesSideFile } from "./sideFiles";
import { buildHermesStorageSession } from "./session";
import { HermesStorageError, inspectStateDb, listStateDbSessions, stateDbMessages, type HermesSqlQuery } from "./stateDb";
import { emptyStoredSession, type HermesRequestDump, type HermesStore, type HermesStoredSession } from "./store";
import { isObject } from "../../../util/is-object";

export interface HermesOpenInput {
  database?: { query: HermesSqlQuery; fileName: string; walApplied: boolean; walWarnings?: string[] } | null;
  /** Other files dropped or found with it (decoded text); files that are not hermes' are named in a warning. */
  sideFiles: readonly { name: string; text: string }[];
  /** Files that came with them and were not read (a dropped home folder's config, logs, …). */
  otherFileNames?: readonly string[];
  sessionId?: string | null;
}

function mergeInto(sessions: HermesStoredSession[], incoming: HermesStoredSession, kind: "snapshot" | "transcript", warnings: ReaderWarning[]): void {
  const existing = sessions.find((s) => s.id === incoming.id);
  if (!existing) {
    sessions.push(incoming);
    return;
  }
  existing.model ??= incoming.model;
  existing.baseUrl ??= incoming.baseUrl;
  existing.platform ??= incoming.platform;
  existing.startedAt ??= incoming.startedAt;
  if (existing.systemPrompt === null && incoming.systemPrompt !== null) {
    existing.systemPrompt = incoming.systemPrompt;
    existing.systemPromptFrom = incoming.systemPromptFrom;
  }
  if (existing.tools === null && incoming.tools !== null) {
    existing.tools = incoming.tools;
    existing.toolsFrom = incoming.toolsFrom;
  }
  if (incoming.messageCount > existing.messageCount) {
    if (existing.messagesFrom === "state.db") {
      warnings.push({ line: 0, reason: `session ${incoming.id}: the ${kind} holds ${incoming.messageCount} messages, state.db ${existing.messageCount}; the ${kind}'s are shown (hermes prefers the longer history, HS-30)` });
    }
    existing.messages = incoming.messages;
    existing.messageCount = incoming.messageCount;
    existing.messagesFrom = incoming.messagesFrom;
  }
}

function systemText(message: unknown): string | null {
  if (!isObject(message) || message.role !== "system") return null;
  if (typeof message.content === "string") return message.content;
  if (Array.isArray(message.content)) return message.content.map((part) => (isObject(part) && typeof part.text === "string" ? part.text : "")).join("");
  return null;
}

/**
 * A session known only from a request dump (HS-33): its body's messages after the system message,
 * cache markers taken off, so the rebuilt request can be compared with the dump itself.
 */
function sessionFromDump(dump: HermesRequestDump): HermesStoredSession {
  const session = emptyStoredSession(dump.sessionId ?? dump.fileName);
  const list = Array.isArray(dump.body.messages) ? (dump.body.messages as unknown[]) : [];
  const system = systemText(list[0]);
  if (system !== null) {
    session.systemPrompt = system;
    session.systemPromptFrom = "request dump";
  }
  session.model = typeof dump.body.model === "string" ? dump.body.model : null;
  session.messages = list.slice(system !== null ? 1 : 0).filter(isObject).map((message) => ({ message: withoutMarkers(message), row: null, from: "request dump" as const, line: 0 }));
  session.messageCount = session.messages.length;
  session.messagesFrom = "request dump";
  return session;
}

/** A dumped message without the `system_and_3` markers hermes added at send time (HS-42). */
function withoutMarkers(message: Record<string, unknown>): Record<string, unknown> {
  const { cache_control: _marker, ...rest } = message;
  const content = rest.content;
  if (Array.isArray(content) && content.length === 1 && isObject(content[0]) && content[0].type === "text" && "cache_control" in content[0] && typeof content[0].text === "string") {
    rest.content = content[0].text;
  }
  return rest;
}

/** The merged store, without loading any state.db message row yet. */
function openHermesStore(input: HermesOpenInput): HermesStore {
  const warnings: ReaderWarning[] = [];
  const database = input.database ?? null;
  let sessions: HermesStoredSession[] = [];
  const origin: HermesStore["origin"] = database
    ? inspectStateDb(database.query, database.fileName, database.walApplied, warnings)
    : { kind: "files", fileName: input.sideFiles[0]?.name ?? "hermes files", schemaVersion: null, walApplied: true, columns: {} };
  if (database) {
    for (const warning of database.walWarnings ?? []) warnings.push({ line: 0, reason: warning });
    sessions = listStateDbSessions(database.query, origin);
  }
  const store: HermesStore = { origin, sessions, dumps: [], warnings, fileNames: [...(database ? [database.fileName] : []), ...input.sideFiles.map((f) => f.name)] };
  const ignored: string[] = [];
  for (const file of input.sideFiles) {
    const read = readHermesSideFile(file.name, file.text);
    if (!read) {
      ignored.push(file.name);
      continue;
    }
    for (const warning of read.warnings) warnings.push({ line: warning.line, reason: `${file.name}: ${warning.reason}` });
    if (read.kind === "snapshot" || read.kind === "transcript") mergeInto(sessions, read.session, read.kind, warnings);
    else if (read.kind === "export") for (const session of read.sessions) mergeInto(sessions, session, "transcript", warnings);
    else if (read.kind === "dump") store.dumps.push(read.dump);
  }
  for (const dump of store.dumps) {
    if (!sessions.some((s) => s.id === dump.sessionId)) sessions.push(sessionFromDump(dump));
    const session = sessions.find((s) => s.id === dump.sessionId);
    if (session && session.tools === null && Array.isArray(dump.body.tools)) {
      session.tools = dump.body.tools;
      session.toolsFrom = "request dump";
    }
  }
  ignored.push(...(input.otherFileNames ?? []));
  if (ignored.length > 0) {
    const shown = ignored.slice(0, 20).join(", ");
    warnings.push({ line: 0, reason: `not hermes-agent storage, not read: ${shown}${ignored.length > 20 ? ` and ${ignored.length - 20} more` : ""}` });
  }
  return store;
}

/** Reads hermes storage into the Session of `sessionId` (default: the most recently started). */
export function readHermesStorage(input: HermesOpenInput): Session {
  const store = openHermesStore(input);
  if (store.sessions.length === 0) {
    throw new HermesStorageError(
      store.origin.kind === "state.db"
        ? `${store.origin.fileName}: the hermes-agent state.db holds no session`
        : `none of the files holds a hermes-agent session (state.db, session_<id>.json, <id>.jsonl, request_dump_*.json)${store.warnings.length > 0 ? `: ${store.warnings.map((w) => w.reason).join("; ")}` : ""}`,
    );
  }
  const chosen = input.sessionId ?? null;
  if (chosen !== null && !store.sessions.some((s) => s.id === chosen)) {
    throw new HermesStorageError(`${store.origin.fileName}: no session ${chosen} in this hermes storage`);
  }
  const database = input.database ?? null;
  return buildHermesStorageSession(store, chosen, (id, warnings) => (database ? stateDbMessages(database.query, store.origin, id, warnings) : null));
}
