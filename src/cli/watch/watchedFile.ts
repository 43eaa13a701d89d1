// One file `watch` follows: on each poll it reads the bytes appended since the last poll into the
// session follower (src/core/session/follow.ts) and hands the session to the live analysis, which
// reports the turns that are new. A file that shrank starts again from its first byte. A store the
// agent rewrites rather than appends to (a SQLite database with its -wal, a JSON document) is read
// again whole when it changes, and only turns past the last one reported are printed (so are a
// compressed session and a file no line reader recognises).
import fs from "node:fs";
import path from "node:path";
import type { PipelineOptions, Session } from "../../core/model";
import { LiveTurns, SessionFollower, type LiveTurn } from "../../core/session/follow";
import { storageSummary } from "../../core/session/index";
import { readsWhole } from "../../core/intake/index";
import type { TokenizerChoice } from "../../core/tokens/counters";
import { loadTokenizerTables } from "../../core/tokens/tables";
import { sessionTables } from "../../core/tokens/sessionTables";
import { analyzeSession } from "../../core/session/pipeline";
import { releaseSessionTexts } from "../../core/session/textStores";
import { loadAnySession } from "../inputs";
import { datasetPriceTable } from "../../core/pricing/dataset";
import type { CliIo } from "../io";

/** Bytes read per call when catching up with a file. */
const READ_CHUNK = 4 * 1024 * 1024;

export interface WatchSettings {
  pipeline: PipelineOptions;
  tokenizer: TokenizerChoice;
}

/** What a poll found: the new turns, and whether the whole session had to be analysed again. */
export interface PollResult {
  turns: LiveTurn[];
  restarted: boolean;
}

interface Stamp {
  size: number;
  mtimeMs: number;
  walSize: number;
  walMtimeMs: number;
}

function stampOf(file: string): Stamp | null {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (!stat) return null;
  const wal = fs.statSync(`${file}-wal`, { throwIfNoEntry: false });
  return { size: stat.size, mtimeMs: stat.mtimeMs, walSize: wal?.size ?? 0, walMtimeMs: wal?.mtimeMs ?? 0 };
}

function sameStamp(a: Stamp | null, b: Stamp | null): boolean {
  return a !== null && b !== null && a.size === b.size && a.mtimeMs === b.mtimeMs && a.walSize === b.walSize && a.walMtimeMs === b.walMtimeMs;
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
  /** The session as last read (a sub-agent file's is linked to its parent's for the thread's label). */
  session: Session | null = null;
  private readonly decoder = new TextDecoder("utf-8");

  constructor(
    readonly file: string,
    private readonly settings: WatchSettings,
    private readonly io: CliIo,
    /** The turns there at the first poll are not reported (only the last one is analysed, to compare the next with). */
    existingUnreported: boolean,
  ) {
    this.follower = this.newFollower();
    this.live = new LiveTurns({ ...settings, primeWithLastTurn: existingUnreported, prices: datasetPriceTable() });
  }

  private newFollower(): SessionFollower {
    return new SessionFollower(path.basename(this.file), (bytes) => this.decoder.decode(bytes));
  }

  /** Turns the first poll found (the file as it was when watching started). */
  get turnCount(): number {
    return this.live.turnCount;
  }

  /** Reads what changed since the last poll; null when nothing did. */
  async poll(): Promise<PollResult | null> {
    const stamp = stampOf(this.file);
    if (stamp === null || sameStamp(stamp, this.stamp)) return null;
    const previous = this.stamp;
    this.stamp = stamp;
    // A database or a compressed file is read whole on every change (the intake tells from the first bytes).
    if (this.readsWhole === null && stamp.size > 0) this.readsWhole = readsWhole(readRange(this.file, 0, 16));
    let session: Session | null = null;
    if (!this.readsWhole) {
      if (previous !== null && stamp.size < this.follower.offset) {
        // Shorter than what was read: rewritten, not appended to.
        this.follower = this.newFollower();
      }
      try {
        this.readAppended(stamp.size);
        session = this.follower.session();
      } catch {
        // No agent's line format (its first lines did not say): read whole from now on.
        this.readsWhole = true;
      }
    }
    // A format read as one JSON document (or a file too short to detect yet) is read whole.
    session ??= await this.readWhole();
    if (session === null || session.entries.length === 0) return null;
    return this.analyse(session);
  }

  private readAppended(size: number): void {
    const fd = fs.openSync(this.file, "r");
    try {
      const buffer = new Uint8Array(Math.min(READ_CHUNK, Math.max(1, size - this.follower.offset)));
      while (this.follower.offset < size) {
        const read = fs.readSync(fd, buffer, 0, Math.min(buffer.length, size - this.follower.offset), this.follower.offset);
        if (read <= 0) break;
        this.follower.append(buffer.subarray(0, read));
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

  private async analyse(session: Session): Promise<PollResult> {
    if (!this.tablesLoaded) {
      await loadTokenizerTables(sessionTables(this.settings.tokenizer, analyzeSession(session, this.settings.pipeline), this.settings.pipeline));
      this.tablesLoaded = true;
    }
    // A file read again (rewritten, or a format read whole) comes with a new store: the old one goes.
    releaseSessionTexts(this.session, session);
    this.session = session;
    const update = this.live.update(session);
    const turns = update.turns.filter((turn) => turn.turn > this.reported);
    for (const turn of turns) this.reported = Math.max(this.reported, turn.turn);
    return { turns, restarted: update.kind === "restarted" && this.reported > 0 };
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
