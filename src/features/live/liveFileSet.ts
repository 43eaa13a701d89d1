// Several files followed together, as one session (File System Access API handles: a drop, or a
// row of the sessions library):
// - a SQLite database with its -wal (opencode.db, hermes-agent's state.db): the agent writes new
//   rows to the -wal first, so both are read again whole whenever either changes, and the session
//   shown stays the one chosen (the picker's choice, else the one the first read opened on);
// - a session with its sub-agent files (Claude Code's `<session>/subagents/agent-<id>.jsonl`):
//   each file is followed on its own (only its appended bytes are read) and the sessions are
//   linked again by their agent (`linkSessions`) after each change, and each linked value is told
//   it grew from the one before (`sessionGrew`), so the agent's caches carry over when the main
//   file only appended (else they are built again); an agent's files beside its
//   sessions that are not sessions (Gemini CLI's projects.json) are read once, into the session.
import type { Session } from "../../core/model";
import { attachSideFiles, storageSummary, type OwnedSideFile } from "../../core/session/index";
import { planOpen } from "../../core/intake/index";
import { sessionGrew } from "../../core/session/growth";
import { linkSessions, unlinkedWarning } from "../../core/session/threads";
import { FollowedFile, type LiveRead, type LiveSource } from "./liveFile";
import { intakeSources, ReadCancelledError, readSession, type ReadControl, type ReadResult } from "../open/worker";

interface Stamp {
  size: number;
  lastModified: number;
}

const stampOf = (file: File): Stamp => ({ size: file.size, lastModified: file.lastModified });
const QUIET: ReadControl = { isCancelled: () => false, onProgress: () => undefined };

/** A database and its -wal (and -shm, which is not read), read again whole on every change. */
class FollowedDatabase implements LiveSource {
  constructor(
    private readonly handles: readonly FileSystemFileHandle[],
    private stamps: Stamp[],
    /** The session shown: kept across reads, so a session the agent starts meanwhile does not replace it. */
    private readonly sessionId: string | null,
  ) {}

  async readChanges(): Promise<LiveRead | null> {
    const files = await Promise.all(this.handles.map((handle) => handle.getFile()));
    const stamps = files.map(stampOf);
    if (stamps.every((stamp, index) => stamp.size === this.stamps[index]?.size && stamp.lastModified === this.stamps[index]?.lastModified)) return null;
    // A read that fails (the agent in the middle of a checkpoint) leaves the stamps, so the next poll tries again.
    const read = await readSession({ kind: "files", files, sessionId: this.sessionId }, QUIET);
    this.stamps = stamps;
    const byteLength = files.reduce((sum, file) => sum + file.size, 0);
    return { kind: "rewritten", session: read.session, byteLength, readBytes: byteLength };
  }
}

/** A session file with the files of its sub-agent threads: each followed on its own, linked again after a change. */
class FollowedLinkedFiles implements LiveSource {
  constructor(
    private readonly parts: { file: FollowedFile; session: Session; byteLength: number }[],
    /** Files of the set that could not be read, named on the linked session. */
    private readonly failed: string[],
    /** An agent's files beside its sessions (Gemini CLI's projects.json), read once and read into the session. */
    private readonly sideFiles: OwnedSideFile[],
  ) {}

  async readChanges(): Promise<LiveRead | null> {
    let changed = false;
    let rewritten = false;
    let readBytes = 0;
    for (const part of this.parts) {
      const read = await part.file.readChanges();
      if (!read) continue;
      changed = true;
      rewritten ||= read.kind === "rewritten";
      readBytes += read.readBytes;
      part.session = read.session;
      part.byteLength = read.byteLength;
    }
    if (!changed) return null;
    const previous = this.lastLinked;
    const session = this.linked();
    if (previous && !rewritten) sessionGrew(previous, session);
    return { kind: rewritten ? "rewritten" : "appended", session, byteLength: this.byteLength(), readBytes };
  }

  /** The value handed out last, which the next one may have grown from. */
  private lastLinked: Session | null = null;

  linked(): Session {
    this.lastLinked = attachSideFiles(
      linkedSession(
        this.parts.map((part) => part.session),
        this.failed,
      ),
      this.sideFiles,
    );
    return this.lastLinked;
  }

  byteLength(): number {
    return this.parts.reduce((sum, part) => sum + part.byteLength, 0);
  }
}

function linkedSession(sessions: readonly Session[], failed: readonly string[]): Session {
  const linked = linkSessions(sessions);
  const warnings = [
    ...linked.session.warnings,
    ...linked.unlinked.map((other) => unlinkedWarning(linked.session.fileName, other)),
    ...failed.map((reason) => ({ line: 0, reason: `not read: ${reason}` })),
  ];
  return { ...linked.session, warnings };
}

/**
 * Reads the files of `handles` as one session and keeps what is needed to read their changes, as
 * the intake's plan for followed files says: a database set, else a session and its linked files
 * (with the agent's note files read into it once).
 */
export async function openFileSet(
  handles: readonly FileSystemFileHandle[],
  sessionId: string | null,
  control: ReadControl,
): Promise<{ read: ReadResult; source: LiveSource }> {
  const files = await Promise.all(handles.map((handle) => handle.getFile()));
  const plan = planOpen(await intakeSources(files, { together: true, follow: true }), { together: true, follow: true });
  if (plan.kind === "refused") throw new Error(plan.message);
  if (plan.kind !== "sessions") {
    const read = await readSession({ kind: "files", files, sessionId }, control);
    const shown = sessionId ?? storageSummary(read.session)?.sessionId ?? null;
    return { read, source: new FollowedDatabase(handles, files.map(stampOf), shown) };
  }
  const parts: { file: FollowedFile; session: Session; byteLength: number }[] = [];
  const failed: string[] = [];
  for (const { index } of plan.sessions) {
    const file = files[index]!;
    try {
      const read = await readSession({ kind: "file", file }, { isCancelled: () => control.isCancelled(), onProgress: (progress) => control.onProgress(progress), live: true });
      parts.push({ file: new FollowedFile(handles[index]!, read.follower ?? null, file), session: read.session, byteLength: read.byteLength });
    } catch (error) {
      if (error instanceof ReadCancelledError) throw error;
      const message = (error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, " ");
      failed.push(message.startsWith(`${file.name}:`) ? message : `${file.name}: ${message}`);
    }
  }
  if (parts.length === 0) throw new Error(`None of the files could be read:\n${failed.join("\n")}`);
  const source = new FollowedLinkedFiles(parts, failed, plan.sideFiles);
  return { read: { session: source.linked(), byteLength: source.byteLength(), fileNames: files.map((file) => file.name) }, source };
}
