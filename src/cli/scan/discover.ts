// Which sessions `scan` reads: every file and folder given, folders walked (symbolic links to
// folders are not followed). What a file is, the intake says (src/core/intake/scan.ts): a session
// when the agent registry detects its format from its first lines (JSONL, JSON), when it is
// compressed (Zstandard, gzip) or a SQLite database (opencode.db, hermes-agent's state.db; their
// -wal is applied when read). Sub-agent files are joined to their parent: a file
// in `<dir>/<id>/subagents/` goes with `<dir>/<id>.jsonl` when that file is there (the layout in
// which Claude Code writes a session's sub-agent transcripts); the agent's own `linkFiles` then
// links them when the job is read. The side files of a hermes-agent home (`sessions/` beside a
// `state.db`) are read with the database, not on their own. An agent's side files that are not
// sessions (Gemini CLI's projects.json and logs.json) are read with the sessions in their folder
// and the folders below it, as the app's library does. Everything else is named as skipped.
import fs from "node:fs";
import path from "node:path";
import { foldersReadWithDatabase, intakeHeadLength, isSessionName, scanRole, sideFileNear, type IntakeSource, type ScanRole } from "../../core/intake/index";

export interface ScanJob {
  /** The session file (or database) the line is about. */
  file: string;
  /** Files read with it and linked to it as threads. */
  with: string[];
  /** The agent's side files read with it (not sessions themselves). */
  sideFiles: string[];
  /** The agent each of `file` and `with` was detected as when found (null: known once read), not detected again. */
  agentIds: (string | null)[];
  bytes: number;
}

export interface Discovery {
  jobs: ScanJob[];
  skipped: { file: string; reason: string }[];
}

/** The files under `dir` whose names may be sessions' (the side-file folders of a database's home left out), in name order. */
export function sessionFilesUnder(dir: string): string[] {
  const files: string[] = [];
  walk(dir, files);
  return files;
}

function walk(dir: string, out: string[]): void {
  const entries = fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
  // The side-file folder of a home that holds its agent's database (hermes-agent: sessions/ beside state.db).
  const sideFolders = foldersReadWithDatabase(entries.filter((entry) => entry.isFile()).map((entry) => entry.name));
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (sideFolders.has(entry.name)) continue;
      walk(full, out);
    } else if (entry.isFile() && isSessionName(entry.name)) out.push(full);
  }
}

/** The sessions under `inputs` (files and folders). Throws when an input does not exist. */
export function discoverSessions(inputs: readonly string[]): Discovery {
  const files: string[] = [];
  for (const input of inputs) {
    const stat = fs.statSync(input, { throwIfNoEntry: false });
    if (!stat) throw new Error(`${input}: no such file or folder`);
    if (stat.isDirectory()) walk(input, files);
    else files.push(input);
  }
  const unique = [...new Set(files.map((file) => path.resolve(file)))];
  const skipped: Discovery["skipped"] = [];
  const sessions = new Map<string, string | null>();
  const companions: string[] = [];
  const source = headReader();
  for (const file of unique) {
    let role: ScanRole;
    try {
      role = scanRole(source(file));
    } catch (error) {
      role = { kind: "skipped", reason: (error as Error).message };
    }
    if (role.kind === "side file") companions.push(file);
    else if (role.kind === "skipped") skipped.push({ file, reason: role.reason });
    else sessions.set(file, role.agentId);
  }
  const jobs = new Map<string, ScanJob>();
  const children: string[] = [];
  for (const file of sessions.keys()) {
    const parts = file.split(path.sep);
    const at = parts.lastIndexOf("subagents");
    const parent = at > 1 ? `${parts.slice(0, at).join(path.sep)}.jsonl` : null;
    if (parent && sessions.has(parent)) children.push(file);
    else jobs.set(file, { file, with: [], sideFiles: companionsOf(file, companions), agentIds: [sessions.get(file) ?? null], bytes: fs.statSync(file).size });
  }
  for (const child of children) {
    const parts = child.split(path.sep);
    const parent = jobs.get(`${parts.slice(0, parts.lastIndexOf("subagents")).join(path.sep)}.jsonl`)!;
    parent.with.push(child);
    parent.agentIds.push(sessions.get(child) ?? null);
    parent.bytes += fs.statSync(child).size;
  }
  // A side file no session below its folder was read with is named, never dropped unseen.
  const used = new Set([...jobs.values()].flatMap((job) => job.sideFiles));
  for (const file of companions) if (!used.has(file)) skipped.push({ file, reason: "an agent's side file with no session of it in this folder or below" });
  return { jobs: [...jobs.values()], skipped };
}

/** The side files in the session's folder or a folder above it. */
function companionsOf(file: string, companions: readonly string[]): string[] {
  return companions.filter((companion) => sideFileNear(companion, file, path.sep));
}

/**
 * Each file as the intake sees it (src/cli/intakeFile.ts: its name, size and the first bytes the
 * intake asks for), the bytes read into one buffer kept from file to file: the intake is done with
 * a file's head before the next is read (`scanRole` keeps no bytes), and a new buffer per file had
 * the system zero and map 256 KB for every large session.
 */
export function headReader(): (file: string) => IntakeSource {
  let buffer = new Uint8Array(0);
  return (file) => {
    const fd = fs.openSync(file, "r");
    try {
      const size = fs.fstatSync(fd).size;
      const name = path.basename(file);
      const length = intakeHeadLength(name, size, { together: true, follow: true });
      if (buffer.length < length) buffer = new Uint8Array(length);
      const read = length > 0 ? fs.readSync(fd, buffer, 0, length, 0) : 0;
      return { name, size, head: buffer.subarray(0, read) };
    } finally {
      fs.closeSync(fd);
    }
  };
}
