// The sessions under a folder `watch` follows, kept up to date from check to check. A check walks
// the folder (the same files as `scan`: src/cli/scan/discover.ts) and stats each file not followed
// yet; what a file is (a session, or not: the intake's `scanRole`, from its first bytes) is told
// once per version of it, keyed by its path, identity (device, inode), size and modification time,
// so a check reads only files that are new or changed. A file once followed is the followed file's
// to stat (src/cli/watch/watchedFile.ts), never the folder's.
//
// At the start a small folder is told whole. A large one (many files, or many first bytes to read)
// is only listed: its line files (`.jsonl`) are told when they first change, and then followed
// from how they were when watching started, as if told then. So a folder of thousands of
// sessions starts at the cost of listing it; a database, a compressed file or a JSON document
// (Gemini CLI's older `.json` chats) is told at once: it is read whole on every change, and its
// bytes at the start cannot be read back once it has been rewritten, so its state at the start is
// read then, to compare its changes with.
import fs from "node:fs";
import path from "node:path";
import { intakeHeadLength, scanRole } from "../../core/intake/index";
import { sessionFilesUnder } from "../scan/discover";
import { intakeSource } from "../intakeFile";

/** A folder whose files' first bytes add up to more than this is only listed at the start. */
const START_TELL_BYTES = 8 * 1024 * 1024;
/** Nor are more files than this told at the start (each costs opening it). */
const START_TELL_FILES = 500;
/** The names told later when a folder is only listed at the start: the line files a lazily followed session is. */
const LINE_FILE_NAME = /\.jsonl$/i;

/** A file's version: another file moved over it has another identity; a write changes its size or time. */
export interface FileStamp {
  size: number;
  mtimeMs: number;
  dev: number;
  ino: number;
}

/** A session (or sub-agent file) found by a check, not followed before. */
export interface FoundFile {
  file: string;
  /** The session file it is a sub-agent file of, followed with it (found by the same check or before); null for a session. */
  parent: string | null;
  /** How it was when watching started, when it was only listed then (told once it changed): followed from there. */
  listedAs: FileStamp | null;
}

interface Known {
  stamp: FileStamp;
  /** "untold": listed at the start, not looked into until it changes. */
  role: "untold" | "session" | "other";
  /** Its version at the start while it is untold (kept for the session it turns out to be). */
  listedAs: FileStamp | null;
}

function stampOf(file: string): FileStamp | null {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  return stat ? { size: stat.size, mtimeMs: stat.mtimeMs, dev: stat.dev, ino: stat.ino } : null;
}

function sameStamp(a: FileStamp, b: FileStamp): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.dev === b.dev && a.ino === b.ino;
}

/** What `file` is for watch: a session (of a supported agent, a database, a compressed file) or not. */
function tell(file: string, stamp: FileStamp): "session" | "other" {
  if (stamp.size === 0) return "other";
  try {
    return scanRole(intakeSource(file, { together: true, follow: true })).kind === "session" ? "session" : "other";
  } catch {
    // Gone or unreadable meanwhile: told again when it changes.
    return "other";
  }
}

/** The session file of a sub-agent file (`<dir>/<id>/subagents/x.jsonl` → `<dir>/<id>.jsonl`), or null. */
function parentPath(file: string): string | null {
  const parts = file.split(path.sep);
  const at = parts.lastIndexOf("subagents");
  return at > 1 ? `${parts.slice(0, at).join(path.sep)}.jsonl` : null;
}

export class SessionFolder {
  private readonly known = new Map<string, Known>();
  private readonly followed = new Set<string>();
  private started = false;

  /** `tellAll`: every file is told at the start, whatever the folder's size (its turns are printed then). */
  constructor(
    private readonly root: string,
    private readonly tellAll: boolean,
  ) {}

  /** Files listed at the start and not looked into yet. */
  get untold(): number {
    let count = 0;
    for (const known of this.known.values()) if (known.role === "untold") count++;
    return count;
  }

  /** The sessions and sub-agent files found since the last check (all of them on the first), each after its session. */
  check(): FoundFile[] {
    const starting = !this.started;
    this.started = true;
    const files = sessionFilesUnder(this.root).map((file) => path.resolve(file));
    const present = new Set(files);
    for (const file of this.known.keys()) if (!present.has(file)) this.known.delete(file);
    const stamps = new Map<string, FileStamp>();
    for (const file of files) {
      if (this.followed.has(file)) continue;
      const stamp = stampOf(file);
      if (stamp) stamps.set(file, stamp);
    }
    const listOnly = starting && !this.tellAll && this.largeStart(stamps);
    for (const [file, stamp] of stamps) {
      const known = this.known.get(file);
      if (known && sameStamp(known.stamp, stamp)) continue;
      if (listOnly && LINE_FILE_NAME.test(file) && stamp.size > 0) this.known.set(file, { stamp, role: "untold", listedAs: stamp });
      else {
        // Listed at the start and a session now: followed from how it was then. Anything else is
        // as if told at the start: should it become a session later, it is a new one.
        const role = tell(file, stamp);
        this.known.set(file, { stamp, role, listedAs: role === "session" ? (known?.listedAs ?? null) : null });
      }
    }
    return this.found([...stamps.keys()]);
  }

  /** True when telling every file at the start would read too much (too many files, or too many first bytes). */
  private largeStart(stamps: Map<string, FileStamp>): boolean {
    if (stamps.size > START_TELL_FILES) return true;
    let bytes = 0;
    for (const [file, stamp] of stamps) bytes += intakeHeadLength(path.basename(file), stamp.size, { together: true, follow: true });
    return bytes > START_TELL_BYTES;
  }

  /** Of `files` (not followed yet), the sessions, each sub-agent file with its session when that is one. */
  private found(files: string[]): FoundFile[] {
    const mains: FoundFile[] = [];
    const children: FoundFile[] = [];
    for (const file of files) {
      const known = this.known.get(file)!;
      if (known.role !== "session") continue;
      const parent = parentPath(file);
      if (parent !== null && this.isSession(parent)) children.push({ file, parent, listedAs: known.listedAs });
      else mains.push({ file, parent: null, listedAs: known.listedAs });
    }
    // A session told only because a sub-agent file of it changed is found with it.
    for (const child of children) {
      if (this.followed.has(child.parent!) || mains.some((main) => main.file === child.parent)) continue;
      mains.push({ file: child.parent!, parent: null, listedAs: this.known.get(child.parent!)!.listedAs });
    }
    const all = [...mains, ...children];
    for (const found of all) {
      this.followed.add(found.file);
      this.known.delete(found.file);
    }
    return all;
  }

  /** True when `file` is a session followed or found: told now when it was only listed. */
  private isSession(file: string): boolean {
    if (this.followed.has(file)) return true;
    const known = this.known.get(file);
    if (known?.role === "untold") known.role = tell(file, known.stamp);
    return known?.role === "session";
  }
}
