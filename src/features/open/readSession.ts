// Streams a session source (File, bytes, pasted text or same-origin URL) through the line
// splitter into the format reader chosen from the first lines. Runs inside the worker; bytes are
// decoded line by line (never as one huge string, design §3), progress is reported as it goes and
// the read stops at the next chunk boundary once the caller reports it cancelled. What the files
// are (a database with its -wal, an agent's store or note files, sessions in a compressed
// container) is the intake's plan (src/core/intake/); this file follows it. The read bounds are the
// CLI's defaults (src/core/intake/bounds.ts): a line over the line bound is skipped and named (by
// the follower), a container's decoding stops at its decoded-size bound with a warning.
import type { Session } from "../../core/model";
import { attachSideFiles, FORMAT_READERS, readSideFiles } from "../../core/session/index";
import { headRole, missingDatabaseMessage, planOpen, type OpenPlan } from "../../core/intake/index";
import type { ReaderWarning } from "../../core/model";
import { SessionFollower } from "../../core/session/follow";
import { boundedDecoding, DEFAULT_READ_BOUNDS } from "../../core/intake/bounds";
import { capWarningsPerKind } from "../../core/readers/finish";
import type { LoadProgress, OpenSource } from "./protocol";
import { readPlannedDatabase } from "./readDatabase";
import { yieldIfDue } from "../../app/yieldToEventLoop";
import { linkSessions, unlinkedWarning } from "../../core/session/threads";
import { intakeSources } from "../../worker/intakeFiles";
import { ProvisionalSchedule } from "./provisionalSchedule";
import { concatBytes } from "../../core/util/concat-bytes";
import { droppedFileTextSource } from "./fileTextSource";

/** Stop buffering for detection after this many characters (a single line can be huge). */
const DETECT_CHARS = 4 * 1024 * 1024;
/** Chunk size used when the bytes are already in memory. */
const MEMORY_CHUNK = 1024 * 1024;
const PROGRESS_INTERVAL_MS = 50;

/** Share links and bundles are decoded by ./openShared.ts, not streamed as session files. */
type SharedSourceKind = "share-link" | "share-bundle";

export class ReadCancelledError extends Error {
  constructor() {
    super("Reading was cancelled");
    this.name = "ReadCancelledError";
  }
}

export interface ReadControl {
  isCancelled(): boolean;
  onProgress(progress: LoadProgress): void;
  /**
   * Optional: the entries read so far while the file is still read (./provisionalSchedule.ts
   * says when), for formats whose reader can tell (LineReader.snapshot).
   */
  onSnapshot?(session: Session, progress: LoadProgress): void;
  /**
   * The file will be followed as it grows: a line format's read ends with the follower (its reader
   * and its unfinished last line), and the session is the entries of the complete lines.
   */
  live?: boolean;
  /**
   * Optional: a file of at least this many bytes read once leaves its long texts in the file
   * (./fileTextSource.ts), read back when needed, instead of a copy in the worker; for the
   * session shown. Without it every text read is copied.
   */
  textsInFileFrom?: number;
}

export interface ReadResult {
  session: Session;
  byteLength: number;
  /** Names of the files read (a database and its -wal), when several inputs were involved. */
  fileNames?: string[];
  /** The line reader's state, to read the bytes appended later (a live read of a line format). */
  follower?: SessionFollower;
}

interface ChunkSource {
  name: string;
  totalBytes: number | null;
  /** Returns the next chunk, or null at the end. */
  next(): Promise<Uint8Array | null>;
  cancel(): void;
}

function memoryChunks(name: string, bytes: Uint8Array): ChunkSource {
  let offset = 0;
  return {
    name,
    totalBytes: bytes.byteLength,
    async next() {
      if (offset >= bytes.byteLength) return null;
      const chunk = bytes.subarray(offset, offset + MEMORY_CHUNK);
      offset += chunk.byteLength;
      return chunk;
    },
    cancel() {
      offset = bytes.byteLength;
    },
  };
}

function streamChunks(name: string, totalBytes: number | null, stream: ReadableStream<Uint8Array>): ChunkSource {
  const reader = stream.getReader();
  return {
    name,
    totalBytes,
    async next() {
      const { done, value } = await reader.read();
      return done ? null : value;
    },
    cancel() {
      void reader.cancel().catch(() => undefined);
    },
  };
}

async function openChunks(source: Exclude<OpenSource, { kind: "files" | SharedSourceKind }>): Promise<ChunkSource> {
  switch (source.kind) {
    case "file":
      return streamChunks(source.file.name, source.file.size, source.file.stream());
    case "bytes":
      return memoryChunks(source.name, new Uint8Array(source.bytes));
    case "text":
      return memoryChunks(source.name, new TextEncoder().encode(source.text));
    case "url": {
      const response = await fetch(source.url, { credentials: "same-origin" });
      if (!response.ok || !response.body) {
        throw new Error(`Could not load "${source.name}": HTTP ${response.status} ${response.statusText}`.trim());
      }
      const length = Number(response.headers.get("content-length"));
      // Content-Length is the compressed size when the server gzips: only trust it when plain.
      const encoded = (response.headers.get("content-encoding") ?? "identity") !== "identity";
      return streamChunks(source.name, Number.isFinite(length) && length > 0 && !encoded ? length : null, response.body);
    }
  }
}

/**
 * The error for an input no reader recognises: what it looks like, then one line per supported
 * format saying what was expected (the readers' mismatch messages), so the banner reads as a list.
 */
function unsupportedFormat(name: string, firstLines: string[]): Error {
  const firstLine = firstLines.find((line) => line.trim() !== "");
  const looksBinary = firstLine !== undefined && /[\u0000-\u0008\u000e-\u001f\ufffd]/.test(firstLine.slice(0, 512));
  const expected = FORMAT_READERS.map((reader) => `• ${reader.mismatchMessage}`).join("\n");
  return new Error(`${name}: ${looksBinary ? "this looks like a binary file" : "unsupported format"}. Expected one of:\n${expected}`);
}

/**
 * The session of a decoded container. When nothing in it could be read and the container said
 * why (damaged data behind a gzip header, say), the error is the container's, not "empty".
 */
function finishDecoded(follower: SessionFollower, name: string, containerLabel: string, problems: readonly ReaderWarning[]): Session {
  try {
    return follower.finish();
  } catch (error) {
    if (problems.length === 0) throw error;
    const expected = FORMAT_READERS.map((reader) => `• ${reader.mismatchMessage}`).join("\n");
    throw new Error(`${name}: ${containerLabel}-compressed, but ${problems.map((problem) => problem.reason).join("; ")}. Expected one of:\n${expected}`);
  }
}

/** Reads every remaining chunk into one buffer (a database is opened whole), with progress. */
async function collectAll(chunks: ChunkSource, first: Uint8Array, control: ReadControl): Promise<Uint8Array> {
  const parts = [first];
  let total = first.byteLength;
  for (;;) {
    if (control.isCancelled()) throw new ReadCancelledError();
    const chunk = await chunks.next();
    if (!chunk) break;
    parts.push(chunk);
    total += chunk.byteLength;
    control.onProgress({ bytesRead: total, totalBytes: chunks.totalBytes, lines: 0 });
    await yieldIfDue();
  }
  return concatBytes(parts);
}

/**
 * Several files at once, as the intake's plan says: a database read with its `-wal` (and the
 * agent's store files given with it), an agent's store files read as one store, or sessions read
 * one by one and linked by their agent (`linkFiles`: a session with its sub-agent files), with the
 * agent's note files read into them; a file that belongs to none of it is named in a warning.
 */
async function readFiles(source: Extract<OpenSource, { kind: "files" }>, control: ReadControl): Promise<ReadResult> {
  const plan = planOpen(await intakeSources(source.files, { together: true }), { together: true });
  return readPlan(plan, source.files, source.sessionId ?? null, control);
}

/** Reads `files` as `plan` says (the plan made of these files, in this order). */
async function readPlan(plan: OpenPlan, files: readonly File[], sessionId: string | null, control: ReadControl): Promise<ReadResult> {
  const allBytes = () => files.reduce((sum, file) => sum + file.size, 0);
  const allNames = () => files.map((file) => file.name);
  switch (plan.kind) {
    case "refused":
      throw new Error(plan.message);
    case "database": {
      const session = await readPlannedDatabase(plan, files, sessionId);
      if (control.isCancelled()) throw new ReadCancelledError();
      return { session, byteLength: allBytes(), fileNames: allNames() };
    }
    case "store":
      return { session: readSideFiles(plan.files, sessionId)!, byteLength: allBytes(), fileNames: allNames() };
    case "sessions":
      break;
  }
  const withSideFiles = (read: ReadResult): ReadResult =>
    plan.sideFiles.length === 0
      ? read
      : { ...read, session: attachSideFiles(read.session, plan.sideFiles), fileNames: [...(read.fileNames ?? [read.session.fileName]), ...plan.sideFiles.map((file) => file.name)] };
  const texts = plan.sessions.map((planned) => files[planned.index]!);
  if (texts.length === 1) return withSideFiles(await readSession({ kind: "file", file: texts[0]! }, control));
  const sessions: Session[] = [];
  let byteLength = 0;
  const failed: string[] = [];
  for (const file of texts) {
    try {
      // Files linked together are shown once all are read (no provisional snapshots of one of them).
      const read = await readSession({ kind: "file", file }, { isCancelled: () => control.isCancelled(), onProgress: (progress) => control.onProgress(progress) });
      sessions.push(read.session);
      byteLength += read.byteLength;
    } catch (error) {
      if (error instanceof ReadCancelledError) throw error;
      // One unreadable file of several is named, not fatal; when none is readable, say why. The
      // whole message, its list of expected formats included, on one line of the warnings panel.
      const message = (error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, " ");
      failed.push(message.startsWith(`${file.name}:`) ? message : `${file.name}: ${message}`);
    }
  }
  if (sessions.length === 0) throw new Error(`None of the dropped files could be read:\n${failed.join("\n")}`);
  const linked = linkSessions(sessions);
  const warnings = [
    ...linked.session.warnings,
    ...linked.unlinked.map((other) => unlinkedWarning(linked.session.fileName, other)),
    ...failed.map((reason) => ({ line: 0, reason: `not read: ${reason}` })),
  ];
  return withSideFiles({ session: { ...linked.session, warnings }, byteLength, fileNames: texts.map((file) => file.name) });
}

export async function readSession(source: Exclude<OpenSource, { kind: SharedSourceKind }>, control: ReadControl): Promise<ReadResult> {
  if (source.kind === "files") return readFiles(source, control);
  // A file the intake refuses alone (an agent's note file such as Gemini CLI's projects.json) says what it is and what to open with it.
  if (source.kind === "file") {
    const plan = planOpen(await intakeSources([source.file], { together: false }), { together: false });
    if (plan.kind === "refused") throw new Error(plan.message);
  }
  const chunks = await openChunks(source);
  const decoder = new TextDecoder("utf-8");
  // A large file read once (not followed) leaves its long texts in the file: the worker keeps
  // where they are, not a copy of them. Offsets are the file's, so only when it is read as it is
  // (not a container's decoded bytes): the follower is made once the first bytes say which.
  const textSource = source.kind === "file" && control.textsInFileFrom !== undefined && !control.live ? droppedFileTextSource(source.file, control.textsInFileFrom) : null;
  let follower: SessionFollower | null = null;
  // The core's detection (the CLI's too), with this read's bound on buffering and its messages.
  const makeFollower = (withSource: boolean) =>
    new SessionFollower(chunks.name, (bytes: Uint8Array) => decoder.decode(bytes), {
      detectAfterChars: DETECT_CHARS,
      emptyError: (name) => new Error(`"${name}" is empty: there is no line to read.`),
      unsupportedError: unsupportedFormat,
      ...(withSource && textSource ? { textSource } : {}),
    });
  let bytesRead = 0;
  let lastProgress = 0;
  const schedule = new ProvisionalSchedule(chunks.totalBytes);

  const report = (force: boolean) => {
    const now = performance.now();
    if (!force && now - lastProgress < PROGRESS_INTERVAL_MS) return;
    lastProgress = now;
    control.onProgress({ bytesRead, totalBytes: chunks.totalBytes, lines: follower?.lineCount ?? 0 });
  };

  try {
    for (;;) {
      if (control.isCancelled()) throw new ReadCancelledError();
      const chunk = await chunks.next();
      if (!chunk) break;
      const role = bytesRead === 0 ? headRole(chunk) : null;
      if (role?.kind === "database" || role?.kind === "wal") {
        // Not text: a database is opened whole with sql.js; a lone WAL file cannot be read.
        if (role.kind === "wal") throw new Error(missingDatabaseMessage([chunks.name]));
        const bytes = await collectAll(chunks, chunk, control);
        const session = await readPlannedDatabase({ kind: "database", database: chunks.name, wal: null, sideFiles: [], otherFileNames: [] }, [{ name: chunks.name, bytes }], null);
        return { session, byteLength: bytes.byteLength, fileNames: [chunks.name] };
      }
      if (role?.kind === "compressed") {
        // A compressed container (a deepseek-harness `session.jsonl.zstd`, a gzipped session,
        // whatever its name): read whole, then decoded part by part into the same line reader.
        const bytes = await collectAll(chunks, chunk, control);
        await role.container.loadDecoder();
        const decodedFollower = (follower = makeFollower(false));
        bytesRead = bytes.byteLength;
        const problems: ReaderWarning[] = [];
        const onProblem = (reason: string) => problems.push({ line: 0, reason });
        // The same decoded-size bound as the CLI's, with its defaults (the page has no settings
        // for it); the line it stops inside is not read.
        const onBound = (reason: string) => {
          onProblem(reason);
          decodedFollower.discardPendingLine();
        };
        const decoded = boundedDecoding(role.container.decode([bytes], chunks.name, (problem) => onProblem(problem.reason)), () => bytes.byteLength, DEFAULT_READ_BOUNDS, onBound);
        for (const part of decoded) {
          if (control.isCancelled()) throw new ReadCancelledError();
          decodedFollower.append(part);
          report(false);
          await yieldIfDue();
        }
        // A compressed file is read whole: it is not followed as it grows.
        const session = finishDecoded(decodedFollower, chunks.name, role.container.label, problems);
        report(true);
        const warnings = problems.length === 0 ? session.warnings : capWarningsPerKind([...session.warnings, ...problems], DEFAULT_READ_BOUNDS.maxWarningsPerKind);
        return { session: { ...session, warnings }, byteLength: bytes.byteLength };
      }
      bytesRead += chunk.byteLength;
      follower ??= makeFollower(true);
      follower.append(chunk);
      report(false);
      // A snapshot is possible once the format is known, when its reader can tell.
      if (control.onSnapshot && follower.canSnapshot && schedule.due(bytesRead)) {
        const snapshot = follower.session();
        if (snapshot && snapshot.entries.length > 0) control.onSnapshot(snapshot, { bytesRead, totalBytes: chunks.totalBytes, lines: follower.lineCount });
      }
      await yieldIfDue();
    }
    if (control.live && follower?.canSnapshot) {
      // A file followed as it grows: a last line without its newline is still being written, so
      // it waits in the follower, which goes on with the bytes appended later.
      report(true);
      return { session: follower.session()!, byteLength: bytesRead, follower };
    }
  } catch (error) {
    chunks.cancel();
    throw error;
  }
  // Detects the format first when the input had fewer lines than detection waits for.
  const session = (follower ?? makeFollower(false)).finish();
  // A source no text was left in (a session without long texts) is let go now.
  if (textSource && session.textStore?.sourced === undefined) textSource.close?.();
  report(true);
  return { session, byteLength: bytesRead };
}
