// One file `watch` follows: on each poll it reads the bytes appended since the last poll into the
// session follower (src/core/session/follow.ts) and hands the session to the live analysis, which
// reports the turns that are new. A store the agent rewrites rather than appends to (a SQLite
// database with its -wal, a JSON document) is read again whole when it changes, and only turns
// past the last one reported are printed (so are a compressed session and a file no line reader
// recognises).
//
// A line-format file is told apart from another file by its content, never by its size alone:
// - another file put in its place (`mv` over it: the identity, device and inode, changed) and a
//   rewrite in place (its first bytes changed, or it is shorter than what was read) are followed
//   as a new session from their first byte;
// - lines appended that name another session (the agent's `entrySessionId`: a Claude Code line's
//   sessionId, a Codex session_meta id) start a new session at the first such line, followed as
//   that session from there.
// Each such change comes back as a notice for standard error; all the new session's turns are printed.
//
// Keeping up: one poll analyses at most MAX_TURNS_PER_POLL new turns, the newest; when a writer
// added more since the last poll, the rest are skipped with a notice saying how many. A file
// watched lazily (one of a folder's sessions) is only looked at (its size, its identity) when
// watching starts, or not at all when the folder only listed it then (src/cli/watch/sessionFolder.ts
// gives how it was), and read up to that size when it first changes: a folder of thousands of
// sessions starts at once, and a session nobody writes to is never read.
import fs from "node:fs";
import path from "node:path";
import type { PipelineOptions, Session } from "../../core/model";
import { entrySessionId, LiveTurns, SessionFollower, type LiveTurn } from "../../core/session/follow";
import { storageSummary } from "../../core/session/index";
import { readBoundsFromEnv } from "../readBounds";
import { readsWhole } from "../../core/intake/index";
import type { TokenizerChoice } from "../../core/tokens/counters";
import { loadTokenizerTables } from "../../core/tokens/tables";
import { sessionTables } from "../../core/tokens/sessionTables";
import { analyzeSession } from "../../core/session/pipeline";
import { releaseSessionTexts } from "../../core/session/textStores";
import { loadAnySession } from "../inputs";
import { datasetPriceTable } from "../../core/pricing/dataset";
import type { CliIo } from "../io";
import type { FileStamp } from "./sessionFolder";

/** Bytes read per call when catching up with a file. */
const READ_CHUNK = 4 * 1024 * 1024;
/** The first bytes kept to tell a rewrite in place from an append. */
const HEAD_BYTES = 1024;
/** New turns one poll analyses and reports at most (the newest); more are skipped, with a notice. */
const MAX_TURNS_PER_POLL = 200;
/**
 * A session file that is one JSON document (Gemini CLI's older `.json` chats, an opencode export, a
 * hermes snapshot), rewritten whole on every change rather than appended to: read whole, and never
 * lazily (its bytes at the start cannot be read back once it has been rewritten).
 */
export const WHOLE_DOCUMENT_NAME = /\.json$/i;

export interface WatchSettings {
  pipeline: PipelineOptions;
  tokenizer: TokenizerChoice;
}

/** What a poll found: the new turns, and what changed about the file (sentences for standard error). */
export interface PollResult {
  turns: LiveTurn[];
  notices: string[];
}

interface Stamp {
  size: number;
  mtimeMs: number;
  /** The file's identity: another file moved over it has another. */
  dev: number;
  ino: number;
  walSize: number;
  walMtimeMs: number;
}

/** The file's stamp; its -wal's only when `withWal` (a file known to be lines has none to read). */
function stampOf(file: string, withWal: boolean): Stamp | null {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (!stat) return null;
  const wal = withWal ? fs.statSync(`${file}-wal`, { throwIfNoEntry: false }) : undefined;
  return { size: stat.size, mtimeMs: stat.mtimeMs, dev: stat.dev, ino: stat.ino, walSize: wal?.size ?? 0, walMtimeMs: wal?.mtimeMs ?? 0 };
}

function sameStamp(a: Stamp | null, b: Stamp | null): boolean {
  return a !== null && b !== null && a.size === b.size && a.mtimeMs === b.mtimeMs && a.dev === b.dev && a.ino === b.ino && a.walSize === b.walSize && a.walMtimeMs === b.walMtimeMs;
}

function sameBytes(a: Uint8Array, b: Uint8Array, length: number): boolean {
  for (let i = 0; i < length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export class WatchedFile {
  private follower: SessionFollower;
  private live: LiveTurns;
  private stamp: Stamp | null = null;
  /** The highest turn reported so far (a store read again whole reports only turns past it). */
  private reported = 0;
  /** The file is read whole on every change (a database, a compressed file, a JSON document); null: not known yet. */
  private readsWhole: boolean | null = null;
  private tablesLoaded = false;
  /** The session of a database (or other store of many) that is followed; null until the first read. */
  private storedSessionId: string | null = null;
  /** Where the followed session's first line starts (past the lines of a session before it in the same file). */
  private base = 0;
  /** The file's first bytes as last read (a line format only): a rewrite in place changes them. */
  private head: Uint8Array = new Uint8Array(0);
  /** The session the lines name (null until a line names one), and the entries already checked for another. */
  private followedId: string | null = null;
  private checkedEntries = 0;
  /** The session as last read (a sub-agent file's is linked to its parent's for the thread's label). */
  session: Session | null = null;
  private readonly decoder = new TextDecoder("utf-8");
  /** Lazily watched and not read yet: the file as it was when watching started (read up to there on its first change). */
  private deferred: Stamp | null = null;

  constructor(
    readonly file: string,
    private readonly settings: WatchSettings,
    private readonly io: CliIo,
    /** The turns there at the first poll are not reported (only the last one is analysed, to compare the next with). */
    existingUnreported: boolean,
    /** With `existingUnreported`: a line-format file is not read until it changes. */
    private readonly lazy = false,
    /** With `lazy`: the file as it was when watching started, when it was only listed then (it is read up to there first). */
    private readonly listedAs: FileStamp | null = null,
  ) {
    this.follower = this.newFollower();
    this.live = this.newLive(existingUnreported);
  }

  private newFollower(): SessionFollower {
    // The line bound and the warnings per kind of the environment (docs/cli.md "Bounds").
    return new SessionFollower(path.basename(this.file), (bytes) => this.decoder.decode(bytes), {}, readBoundsFromEnv());
  }

  private newLive(primeWithLastTurn: boolean): LiveTurns {
    return new LiveTurns({ ...this.settings, primeWithLastTurn, prices: datasetPriceTable(), maxTurnsPerUpdate: MAX_TURNS_PER_POLL });
  }

  /** Turns the first poll found (the file as it was when watching started). */
  get turnCount(): number {
    return this.live.turnCount;
  }

  /** Whether the file has been read (a lazily watched one is not until it changes). */
  get read(): boolean {
    return this.stamp !== null && this.deferred === null;
  }

  /** Reads what changed since the last poll; null when nothing did. */
  async poll(): Promise<PollResult | null> {
    const stamp = stampOf(this.file, this.readsWhole !== false);
    if (this.lazy && this.stamp === null && this.deferred === null && stamp !== null && stamp.size > 0 && !readsWhole(readRange(this.file, 0, 16))) {
      // Only looked at: read up to this size (or the size it had when listed) when it first changes.
      this.readsWhole = false;
      this.stamp = this.deferred = this.listedAs ? { ...this.listedAs, walSize: 0, walMtimeMs: 0 } : stamp;
      if (sameStamp(stamp, this.deferred)) return null;
    }
    if (this.deferred !== null) {
      if (stamp === null || sameStamp(stamp, this.deferred)) return null;
      // The turns there when watching started are the ones the new turns are compared with; another file or a rewrite is all new.
      await this.readDeferred(stamp);
    }
    return this.pollAt(stamp);
  }

  /**
   * Reads a lazily watched file now up to how it was when watching started, its turns unreported,
   * so its session is known (a sub-agent file's turn is labelled from it). Nothing when it was read already.
   */
  async readStart(): Promise<void> {
    if (this.deferred !== null) await this.readDeferred(stampOf(this.file, false));
  }

  /** Reads the file up to its size when watching started; when `now` is another file or shorter, every turn of it is new instead. */
  private async readDeferred(now: Stamp | null): Promise<void> {
    const { deferred } = this;
    this.deferred = null;
    this.stamp = null;
    if (deferred !== null && now !== null && deferred.dev === now.dev && deferred.ino === now.ino && now.size >= deferred.size) await this.pollAt(deferred);
    else this.live = this.newLive(false);
  }

  private async pollAt(stamp: Stamp | null): Promise<PollResult | null> {
    if (stamp === null || sameStamp(stamp, this.stamp)) return null;
    const previous = this.stamp;
    this.stamp = stamp;
    const notices: string[] = [];
    /** Why the file is followed afresh as a new session, if it is. */
    let fresh: string | null = null;
    if (previous !== null && (previous.dev !== stamp.dev || previous.ino !== stamp.ino) && this.readsWhole === false) {
      // Another file moved over this one (a store the agent saves by renaming is read whole anyway).
      this.startAgain(0, null);
      this.readsWhole = null;
      fresh = "replaced by another file";
    }
    // A database or a compressed file is read whole on every change (the intake tells from the first bytes).
    if (this.readsWhole === null && stamp.size > 0) this.readsWhole = WHOLE_DOCUMENT_NAME.test(this.file) || readsWhole(readRange(this.file, 0, 16));
    let session: Session | null = null;
    if (!this.readsWhole) {
      const rewritten = fresh === null ? this.rewrittenInPlace(stamp.size) : null;
      if (rewritten !== null) {
        this.startAgain(0, null);
        fresh = `rewritten in place (${rewritten})`;
      }
      try {
        session = this.readLines(stamp.size, notices);
      } catch {
        // No agent's line format (its first lines did not say): read whole from now on.
        this.readsWhole = true;
      }
    }
    if (fresh !== null) notices.unshift(`${fresh}; followed as a new session${this.followedId !== null ? ` (${this.followedId})` : ""}`);
    // A format read as one JSON document (or a file too short to detect yet) is read whole.
    session ??= await this.readWhole();
    if (session === null || session.entries.length === 0) return notices.length > 0 ? { turns: [], notices } : null;
    return this.analyse(session, notices);
  }

  /** Why the file is not the one read so far plus appended bytes (null: it is), from its size and first bytes. */
  private rewrittenInPlace(size: number): string | null {
    if (this.head.length === 0) {
      this.head = readRange(this.file, 0, HEAD_BYTES);
      return null;
    }
    if (size < this.base + this.follower.offset) return "shorter than what was read";
    const head = readRange(this.file, 0, HEAD_BYTES);
    const changed = !sameBytes(head, this.head, Math.min(head.length, this.head.length));
    this.head = head;
    return changed ? "its first bytes changed" : null;
  }

  /** Follows the file afresh from byte `base`: a new session, every turn of it reported. */
  private startAgain(base: number, followedId: string | null): void {
    this.base = base;
    this.follower = this.newFollower();
    this.live = this.newLive(false);
    this.reported = 0;
    this.followedId = followedId;
    this.checkedEntries = 0;
    if (base === 0) this.head = new Uint8Array(0);
  }

  /** Reads the appended lines; when they start another session, follows that one from its first line. */
  private readLines(size: number, notices: string[]): Session | null {
    this.readAppended(this.follower, size);
    let session = this.follower.session() ?? this.readShortRange(size);
    const other = session ? this.otherSession(session) : null;
    if (session && other) {
      const before = this.followedId;
      this.startAgain(this.base + offsetOfLine(this.file, this.base, other.line), other.id);
      notices.push(`the lines appended belong to another session (${other.id}, not ${before}); followed as that session`);
      this.readAppended(this.follower, size);
      session = this.follower.session() ?? this.readShortRange(size);
      if (session) this.checkedEntries = session.entries.length;
    }
    return session;
  }

  /**
   * The session of the followed lines while they are too few for the follower to have told the
   * format (it waits for DETECTION_LINE_COUNT lines): read to their end by a follower of their own.
   * Null when they are not a line format the follower snapshots (a JSON document: read whole).
   */
  private readShortRange(size: number): Session | null {
    const follower = this.newFollower();
    this.readAppended(follower, size);
    try {
      const session = follower.finish();
      return follower.canSnapshot ? session : null;
    } catch {
      return null;
    }
  }

  /**
   * The first entry not checked before whose line names a session other than the one followed.
   * The lines there when watching started name the session followed (a Codex fork's copied
   * source lines included); only lines appended later can start another.
   */
  private otherSession(session: Session): { id: string; line: number } | null {
    const from = this.checkedEntries;
    // The first lines to name a session name the one followed, and so do the others read with them.
    const firstNamed = this.followedId === null;
    this.checkedEntries = session.entries.length;
    for (let index = from; index < session.entries.length; index++) {
      const entry = session.entries[index]!;
      const id = entrySessionId(session, entry);
      if (id === null) continue;
      if (this.followedId === null) this.followedId = id;
      else if (id !== this.followedId && !firstNamed) return { id, line: entry.line };
    }
    return null;
  }

  /** Feeds `follower` the file's bytes from where it stopped (counted from `base`) to `size`. */
  private readAppended(follower: SessionFollower, size: number): void {
    const fd = fs.openSync(this.file, "r");
    try {
      const buffer = new Uint8Array(Math.min(READ_CHUNK, Math.max(1, size - this.base - follower.offset)));
      while (this.base + follower.offset < size) {
        const position = this.base + follower.offset;
        const read = fs.readSync(fd, buffer, 0, Math.min(buffer.length, size - position), position);
        if (read <= 0) break;
        follower.append(buffer.subarray(0, read));
      }
    } finally {
      fs.closeSync(fd);
    }
  }

  private async readWhole(): Promise<Session | null> {
    // Texts are copied into memory: a followed file may be rewritten while its session is shown.
    const quiet: CliIo = { ...this.io, stderr: () => undefined, openTextSource: () => null };
    try {
      const session = await loadAnySession(quiet, this.file, this.storedSessionId);
      // A database holds many sessions: the one the first read opened on stays the one followed,
      // even when the agent starts a newer one meanwhile.
      this.storedSessionId ??= storageSummary(session)?.sessionId ?? null;
      return session;
    } catch {
      // Not readable yet (a file being created, a database mid-write): the next change tries again.
      return null;
    }
  }

  private async analyse(session: Session, notices: string[]): Promise<PollResult> {
    if (!this.tablesLoaded) {
      await loadTokenizerTables(sessionTables(this.settings.tokenizer, analyzeSession(session, this.settings.pipeline), this.settings.pipeline));
      this.tablesLoaded = true;
    }
    // A file read again (rewritten, or a format read whole) comes with a new store: the old one goes.
    releaseSessionTexts(this.session, session);
    this.session = session;
    const update = this.live.update(session);
    const turns = update.turns.filter((turn) => turn.turn > this.reported);
    if (update.skipped > 0) notices.push(`${update.skipped} new turn${update.skipped === 1 ? "" : "s"} skipped to keep up with the writer; the newest ${turns.length} printed`);
    if (update.kind === "restarted" && this.reported > 0 && notices.length === 0) {
      // The same session, but an earlier turn now answers from another entry (the conversation branched).
      notices.push(`earlier turns changed (the conversation took another branch); analysed again, turns after ${this.reported} printed`);
    }
    for (const turn of turns) this.reported = Math.max(this.reported, turn.turn);
    return { turns, notices };
  }
}

/** Where line `line` (1-based, counted from byte `base`) of `file` starts. */
function offsetOfLine(file: string, base: number, line: number): number {
  const fd = fs.openSync(file, "r");
  try {
    const buffer = new Uint8Array(READ_CHUNK);
    let newlines = 0;
    let position = base;
    for (;;) {
      if (newlines >= line - 1) return position - base;
      const read = fs.readSync(fd, buffer, 0, buffer.length, position);
      if (read <= 0) return position - base;
      for (let i = 0; i < read; i++) {
        if (buffer[i] === 0x0a && ++newlines === line - 1) return position + i + 1 - base;
      }
      position += read;
    }
  } finally {
    fs.closeSync(fd);
  }
}

function readRange(file: string, position: number, length: number): Uint8Array {
  const fd = fs.openSync(file, "r");
  try {
    const buffer = new Uint8Array(length);
    const read = fs.readSync(fd, buffer, 0, length, position);
    return buffer.subarray(0, read);
  } finally {
    fs.closeSync(fd);
  }
}
