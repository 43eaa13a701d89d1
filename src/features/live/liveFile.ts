// A session file the worker follows as it grows (a File System Access API handle: the file picker,
// a dropped file's handle, a file of the sessions library). Each poll asks the handle for the
// file as it is now: when it only grew, the bytes past the last read are appended to the kept
// line reader (src/core/session/follow.ts); when it shrank, or the format is read whole (a
// database, a JSON document), it is read again from the start. Several files followed together
// (a database with its -wal, a session with its sub-agent files) are read by ./liveFileSet.ts
// behind the same `LiveSource`. The new turns are analysed on their own (LiveTurns, primed with
// the last turn already there) for the notices: a new cache break or compaction, with its cause
// and what it re-bills.
import type { PipelineOptions, Session } from "../../core/model";
import type { SessionAnalysis } from "../../core/session/pipeline";
import { LiveTurns, type LiveTurn, type SessionFollower } from "../../core/session/follow";
import { causeInWords } from "../../core/prefix/cause-words";
import { datasetPriceTable } from "../../core/pricing/dataset";
import type { LiveNotice } from "./protocol";
import { readSession } from "../open/worker";

/** What a poll found: nothing new, or the session as it is now. */
export type LivePollOutcome =
  | { kind: "unchanged" }
  | {
      kind: "appended" | "rewritten";
      session: Session;
      byteLength: number;
      notices: LiveNotice[];
      readBytes: number;
      /** The analysis the notices were made from (the options of the poll): the page's next `analyze` call reuses it. */
      analysis: SessionAnalysis;
    };

/** What a followed source found on a poll: null when nothing changed. */
export interface LiveRead {
  kind: "appended" | "rewritten";
  session: Session;
  byteLength: number;
  readBytes: number;
}

/** A followed source: one file, or several read together (./liveFileSet.ts). */
export interface LiveSource {
  readChanges(): Promise<LiveRead | null>;
}

/** One file: its appended bytes go to the kept line reader; shorter, or a format read whole, it is read again. */
export class FollowedFile implements LiveSource {
  private size: number;
  private lastModified: number;

  constructor(
    readonly handle: FileSystemFileHandle,
    /** The kept line reader; null for a file read whole on every change. */
    private follower: SessionFollower | null,
    file: { size: number; lastModified: number },
  ) {
    this.size = file.size;
    this.lastModified = file.lastModified;
  }

  async readChanges(): Promise<LiveRead | null> {
    const file = await this.handle.getFile();
    if (file.size === this.size && file.lastModified === this.lastModified) return null;
    const appendable = this.follower !== null && file.size >= this.follower.offset;
    this.size = file.size;
    this.lastModified = file.lastModified;
    if (appendable && this.follower) {
      const offset = this.follower.offset;
      if (file.size === offset) return null;
      this.follower.append(new Uint8Array(await file.slice(offset).arrayBuffer()));
      return { kind: "appended", session: this.follower.session()!, byteLength: file.size, readBytes: file.size - offset };
    }
    // Rewritten (shorter than what was read), or a format read whole: read it again.
    const read = await readSession({ kind: "file", file }, { isCancelled: () => false, onProgress: () => undefined, live: true });
    this.follower = read.follower ?? null;
    return { kind: "rewritten", session: read.session, byteLength: read.byteLength, readBytes: file.size };
  }
}

export class LiveFile {
  private live: LiveTurns | null = null;
  private liveKey = "";

  constructor(
    private readonly source: LiveSource,
    /** The session as last read: what the next poll's new turns are compared with. */
    private lastSession: Session,
  ) {}

  /** The notices' analysis for `options`, started from the session as last read (only its last turn is analysed). */
  private analyser(options: PipelineOptions): LiveTurns {
    const key = JSON.stringify(options);
    if (!this.live || key !== this.liveKey) {
      this.live = new LiveTurns({ pipeline: options, tokenizer: "estimate", primeWithLastTurn: true, prices: datasetPriceTable() });
      this.liveKey = key;
      this.live.update(this.lastSession);
    }
    return this.live;
  }

  async poll(options: PipelineOptions): Promise<LivePollOutcome> {
    // Primed before the file changes (the page's first poll, just after the open), so the first
    // appended turn does not wait for the analysis of the session as it was read.
    this.analyser(options);
    const read = await this.source.readChanges();
    if (!read) return { kind: "unchanged" };
    return { ...read, ...this.notices(read.session, options) };
  }

  private notices(session: Session, options: PipelineOptions): { notices: LiveNotice[]; analysis: SessionAnalysis } {
    const update = this.analyser(options).update(session);
    this.lastSession = session;
    return { notices: update.turns.flatMap((turn) => noticeOf(turn)), analysis: update.analysis };
  }
}

/** The notice a new turn raises: a compaction before it, or a cache break; none when it extends the cached prefix. */
function noticeOf(turn: LiveTurn): LiveNotice[] {
  if (!turn.afterCompaction && turn.cause === null) return [];
  return [
    {
      turn: turn.turn,
      kind: turn.afterCompaction ? "compaction" : "break",
      cause: turn.cause === null ? null : causeInWords(turn.cause, turn.causeDetail),
      rebilledTokens: turn.rebilledTokens,
      rebilledDollars: turn.cost.break?.dollars ?? null,
      tokens: turn.tokens,
    },
  ];
}
