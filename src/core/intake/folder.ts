// A folder's files, by their paths: which names are looked at when a folder is walked, which
// file a sub-agent's file belongs to, and what a folder dropped with its handle opens as — the
// sessions library when it holds several sessions, one session followed with its own files (a
// database's -wal, a Claude Code session's sub-agent files, an agent's side files of notes such as
// Gemini CLI's projects.json) when it holds one, or the snapshot of the dropped files when it
// holds something only the snapshot reads (compressed sessions, captured requests, a
// reproduction bundle) or no session at all. Light on purpose: the page's main thread imports this
// file (no agent, no decoder).
import { isContainerName } from "./containers/index";
import type { JsonRole } from "./json";

export type { JsonRole };

/** Files a followed session or the library reads: line and JSON sessions, databases (never compressed: those are read whole, once). */
const FOLLOWED_NAME = /\.(jsonl|json|db)$/i;
/** A database's -wal and -shm: its own, never sessions. */
const DATABASE_FILE_NAME = /-(wal|shm)$/i;
const DATABASE_SIDE_NAME = /\.db-(wal|shm)$/i;
/** A Claude Code session's sub-agent files: `<session>/subagents/<agent>.jsonl` beside `<session>.jsonl`. */
const SUBAGENT_FILE = /^(.*)\/subagents\/[^/]+\.jsonl$/i;

/** True when a file of this name may be a session the library lists or a followed set reads (its content decides). */
export function isFollowedName(name: string): boolean {
  return FOLLOWED_NAME.test(name) && !DATABASE_FILE_NAME.test(name);
}

/** True when a file of this name may be a session read once (compressed ones included), as `scan` looks for them. */
export function isSessionName(name: string): boolean {
  return (FOLLOWED_NAME.test(name) || isContainerName(name)) && !DATABASE_FILE_NAME.test(name);
}

/** True when a dropped folder's walk keeps a file of this name: sessions, compressed or not, and a database's own files. */
export function isWalkedName(name: string): boolean {
  return isSessionName(name) || DATABASE_SIDE_NAME.test(name);
}

/** True for a database's -wal or -shm file, read with its database. */
export function isDatabaseFileName(name: string): boolean {
  return DATABASE_FILE_NAME.test(name);
}

/** The session file a sub-agent's file belongs to (`a/b/subagents/x.jsonl` → `a/b.jsonl`), or null; "/" between parts. */
export function subAgentParent(path: string): string | null {
  const owner = SUBAGENT_FILE.exec(path)?.[1];
  return owner === undefined ? null : `${owner}.jsonl`;
}

/** The folder a session's own sub-agent folder is named after (`<id>/` beside `<id>.jsonl`), for a folder walk. */
export const SUBAGENT_FOLDER = "subagents";

/** True when a dropped file is a `.json` file whose role (`jsonRole`) decides it: a recorder's `NNN.meta.json` beside each captured body is never asked about. */
export function needsJsonRole(name: string): boolean {
  const lower = name.toLowerCase();
  return lower.endsWith(".json") && !lower.endsWith(".meta.json");
}

/**
 * What a dropped file is for the drop: a file to open as a session (any file but `.json`, and a
 * `.json` file a reader recognises or an agent's side file), a captured request to attach (any
 * other `.json` file), or left out (a recorder's `.meta.json`). `role`: its `jsonRole`, when asked.
 */
export function dropRole(name: string, role: JsonRole | undefined): "session" | "capture" | "left out" {
  if (!name.toLowerCase().endsWith(".json")) return "session";
  if (!needsJsonRole(name)) return "left out";
  return role !== null && role !== undefined ? "session" : "capture";
}

export type FolderPlan =
  | { kind: "library" }
  /** Paths to open together, the session's own file first. */
  | { kind: "session"; paths: string[] }
  | { kind: "snapshot" };

/**
 * What a folder opens as. `paths`: its files, "/" between parts, relative to the folder.
 * `jsonRoles`: what each of its `.json` files is (`jsonRole`); a `.json` file that is neither a
 * session nor a side file is a captured request or a bundle, which only the snapshot opens.
 */
export function planFolder(paths: readonly string[], jsonRoles: ReadonlyMap<string, JsonRole>): FolderPlan {
  if (paths.some((path) => isContainerName(path))) return { kind: "snapshot" };
  const files = paths.filter((path) => FOLLOWED_NAME.test(path) || DATABASE_SIDE_NAME.test(path));
  if (files.some((path) => path.toLowerCase().endsWith(".json") && (jsonRoles.get(path) ?? null) === null)) return { kind: "snapshot" };
  const present = new Set(files);
  // A Claude Code session's sub-agent files (`<id>/subagents/*.jsonl` beside `<id>.jsonl`) belong to it.
  const ownerOf = (path: string) => {
    const owner = subAgentParent(path);
    return owner !== null && present.has(owner) ? owner : null;
  };
  const sideFiles = files.filter((path) => jsonRoles.get(path) === "side file");
  const sessions = files.filter((path) => !DATABASE_FILE_NAME.test(path) && ownerOf(path) === null && !sideFiles.includes(path));
  if (sessions.length > 1) return { kind: "library" };
  const main = sessions[0];
  if (main === undefined) return { kind: "snapshot" };
  // A database is read with its -wal (the -shm is not needed); a session with its sub-agent files and side files.
  if (/\.db$/i.test(main)) return { kind: "session", paths: present.has(`${main}-wal`) ? [main, `${main}-wal`] : [main] };
  const subAgents = files.filter((path) => ownerOf(path) === main).sort();
  return { kind: "session", paths: [main, ...subAgents, ...[...sideFiles].sort()] };
}
