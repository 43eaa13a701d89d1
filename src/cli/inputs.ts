// Reading the CLI's inputs: session files (bytes → readSessionBytes, reader warnings to stderr;
// compressed ones decoded by their container, databases through sql.js, ./sqlite.ts, as the
// intake says from the first bytes),
// captured request headers and captured compaction requests.
import fs from "node:fs";
import path from "node:path";
import { homeDatabase, sideFileWithCompanions } from "./sideFiles";
import type { Session } from "../core/model";
import type { RequestHeader } from "../core/model";
import { allAgents, extractCompactionInstructions, mergeCompactionInstructions, readSessionChunks, type CompactionInstructions } from "../core/session/index";
import { headRole, homeFolderHint } from "../core/intake/index";
import { learnCapture } from "../core/session/captures";
import { CliError, type CliIo } from "./io";
import { setReadersKeepStoredTexts } from "../core/text/storedTextsSwitch";
import { boundedStream, isNonRegularFile, readBoundsFromEnv } from "./readBounds";

// Large texts kept as bytes by the readers that can (off by default until every stage takes them).
if (process.env.CONTEXTSCOPE_STORED_TEXTS === "0") setReadersKeepStoredTexts(false);

function cannotRead(error: unknown, file: string, what: string): CliError {
  const code = (error as NodeJS.ErrnoException).code;
  const reason = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a directory" : (error as Error).message;
  return new CliError(`cannot read ${what} ${file}: ${reason}`);
}

function readBytes(io: CliIo, file: string, what: string): Uint8Array {
  try {
    return io.readFile(file);
  } catch (error) {
    throw cannotRead(error, file, what);
  }
}

/** The file as consecutive chunks: streamed when the io can, else its whole bytes as one chunk. */
function readChunks(io: CliIo, file: string, what: string): Iterable<Uint8Array> {
  if (!io.readFileChunks) return [readBytes(io, file, what)];
  try {
    const chunks = io.readFileChunks(file);
    // A FIFO or a device (/dev/zero) has no size to go by: its bytes are bounded.
    return isNonRegularFile(file) ? boundedStream(chunks, (reason) => io.stderr(`warning: ${reason}\n`)) : chunks;
  } catch (error) {
    throw cannotRead(error, file, what);
  }
}

/**
 * Reads and parses a session file, streamed: lines reach the reader as bytes (no string of the
 * whole file, none kept per line). Reader warnings go to stderr as `warning: line N: reason`.
 */
export function loadSession(io: CliIo, file: string, chunks: Iterable<Uint8Array> = readChunks(io, file, "session file")): Session {
  const decoder = new TextDecoder("utf-8");
  // The file itself keeps the large texts when the io can read it again (a regular file).
  const textSource = io.openTextSource?.(file) ?? undefined;
  let session: Session;
  try {
    session = readSessionChunks(chunks, path.basename(file), (lineBytes) => decoder.decode(lineBytes), undefined, textSource, readBoundsFromEnv());
  } catch (error) {
    textSource?.close?.();
    throw new CliError(`unsupported input: ${(error as Error).message}`);
  }
  // No text was left in the file (another format, or no large text): it need not stay open.
  if (textSource && session.textStore?.sourced === undefined) textSource.close?.();
  for (const warning of session.warnings) io.stderr(`warning: line ${warning.line}: ${warning.reason}\n`);
  if (session.entries.length === 0) throw new CliError(`no session entries in ${file}`);
  return session;
}

/**
 * Reads a session file of any supported format. An opencode SQLite database (FM-OC-1) is opened with sql.js, with its `<file>-wal` applied when it exists;
 * `sessionId` picks one of its sessions (default: the most recently updated top-level one).
 */
export async function loadAnySession(io: CliIo, file: string, sessionId: string | null = null): Promise<Session> {
  // An agent's home folder is read through its database (hermes-agent's state.db, HS-1, HS-2).
  if (fs.existsSync(file) && fs.statSync(file).isDirectory()) {
    const database = homeDatabase(file);
    if (!database) throw new CliError(`cannot read session file ${file}: is a directory (${homeFolderHint()}; this one holds none)`);
    file = database;
  }
  const sideFiles = sideFileWithCompanions(file);
  if (sideFiles) {
    let session: Session;
    try {
      session = sideFiles.read(sessionId);
    } catch (error) {
      throw new CliError(`unsupported input: ${(error as Error).message}`);
    }
    for (const warning of session.warnings) io.stderr(`warning: line ${warning.line}: ${warning.reason}\n`);
    if (session.entries.length === 0) throw new CliError(`no messages in ${file}`);
    return session;
  }
  // Read once: the first chunk's head decides the format, the same chunks are then parsed.
  const chunks = readChunks(io, file, "session file")[Symbol.iterator]();
  const first = chunks.next();
  // What the first bytes say it is (the intake): a database, its write-ahead log, or lines, compressed or not.
  const role = headRole(first.done === true ? new Uint8Array(0) : first.value.subarray(0, 16));
  if (role.kind !== "wal" && role.kind !== "database") {
    if (sessionId !== null) {
      chunks.return?.();
      throw new CliError(`--session picks a session of the database of ${databaseAgentLabels()}; ${file} is not a SQLite database`);
    }
    // A compressed file (deepseek-harness's session.jsonl.zstd, a gzipped session) needs its container's decoder first.
    if (role.kind === "compressed") await role.container.loadDecoder();
    return loadSession(io, file, withFirst(first, chunks));
  }
  chunks.return?.();
  if (role.kind === "wal") {
    throw new CliError(`unsupported input: ${file} is a SQLite write-ahead log; give the database itself (opencode.db), its -wal file is applied automatically`);
  }
  let session: Session;
  try {
    // sql.js (and its WebAssembly) loads only for a database: it costs every other command start-up time.
    const { loadDatabase } = await import("./sqlite");
    session = await loadDatabase(file, { sessionId });
  } catch (error) {
    throw new CliError(`unsupported input: ${(error as Error).message}`);
  }
  for (const warning of session.warnings) io.stderr(`warning: line ${warning.line}: ${warning.reason}\n`);
  if (session.entries.length === 0) throw new CliError(`no messages in session ${sessionId ?? "(default)"} of ${file}`);
  return session;
}

/** The agents that keep sessions in a database, for messages ("opencode or hermes-agent"). */
/** "Kilo, opencode or hermes-agent": every agent that keeps its sessions in a database. */
function databaseAgentLabels(): string {
  const labels = allAgents()
    .filter((agent) => agent.database !== undefined)
    .map((agent) => agent.label);
  return labels.length > 1 ? `${labels.slice(0, -1).join(", ")} or ${labels[labels.length - 1]}` : (labels[0] ?? "no agent");
}

/** The chunks of an iterator whose first result was already taken. */
function* withFirst(first: IteratorResult<Uint8Array>, rest: Iterator<Uint8Array>): Generator<Uint8Array> {
  if (first.done === true) return;
  yield first.value;
  for (let next = rest.next(); next.done !== true; next = rest.next()) yield next.value;
}

function readJson(io: CliIo, file: string, what: string): unknown {
  const text = new TextDecoder("utf-8").decode(readBytes(io, file, what));
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new CliError(`${what} ${file} is not JSON: ${(error as Error).message}`);
  }
}

/** A captured request body → request header (system prompt, tools, settings) with the facts it teaches. */
export function loadHeader(io: CliIo, file: string): RequestHeader {
  const body = readJson(io, file, "request header");
  try {
    return learnCapture(body, path.basename(file));
  } catch (error) {
    throw new CliError(`request header ${file}: ${(error as Error).message}`);
  }
}

/** Captured summariser requests → the instruction slots they fill (first capture of a slot wins). */
export function loadCompactionInstructions(io: CliIo, files: string[]): CompactionInstructions | undefined {
  if (files.length === 0) return undefined;
  const all: CompactionInstructions[] = [];
  for (const file of files) {
    const captured = extractCompactionInstructions(readJson(io, file, "compaction request"), path.basename(file));
    if (!captured) {
      throw new CliError(`compaction request ${file} is not a pi summariser request (system prompt + one "<conversation>" user message)`);
    }
    all.push(captured.instructions);
  }
  return mergeCompactionInstructions(...all);
}
