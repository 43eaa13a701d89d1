// What a folder dropped with its handle becomes, decided from the paths of its files: the
// sessions library on that folder when it holds several sessions, one session followed with its
// own files (a database's -wal, a Claude Code session's sub-agent files, an agent's side files
// such as Gemini CLI's projects.json) when it holds one, or today's snapshot of the dropped
// files when it holds something only the snapshot reads (compressed sessions, captured requests,
// a reproduction bundle) or no session at all.

export type DroppedFolderPlan =
  | { kind: "library" }
  /** Paths to open together, the session's own file first. */
  | { kind: "session"; paths: string[] }
  | { kind: "snapshot" };

/** Files the library and the followed sessions read (the library's candidates, with their side files). */
const FOLLOWED_FILE = /\.(jsonl|json|db)$|\.db-(wal|shm)$/i;
/** Files only a snapshot reads: compressed sessions. */
const SNAPSHOT_ONLY_FILE = /\.(zstd|zst)$/i;
const DATABASE_SIDE_FILE = /-(wal|shm)$/i;
const SUBAGENT_FILE = /^(.*)\/subagents\/[^/]+\.jsonl$/i;

/**
 * `paths`: the folder's files, "/" between parts, relative to the folder. `jsonSessions`: the
 * `.json` files a reader recognises (a session, or an agent's side file); any other `.json` file
 * is a captured request or a bundle, which only the snapshot opens. `sideFiles`: those of them
 * that are an agent's side files (Gemini CLI's projects.json), as the worker told them.
 */
export function planDroppedFolder(paths: readonly string[], jsonSessions: ReadonlySet<string>, sideFiles: ReadonlySet<string> = new Set()): DroppedFolderPlan {
  if (paths.some((path) => SNAPSHOT_ONLY_FILE.test(path))) return { kind: "snapshot" };
  const files = paths.filter((path) => FOLLOWED_FILE.test(path));
  if (files.some((path) => path.toLowerCase().endsWith(".json") && !jsonSessions.has(path))) return { kind: "snapshot" };
  const present = new Set(files);
  // A Claude Code session's sub-agent files (`<id>/subagents/*.jsonl` beside `<id>.jsonl`) belong to it.
  const ownerOf = (path: string) => {
    const owner = SUBAGENT_FILE.exec(path)?.[1];
    return owner !== undefined && present.has(`${owner}.jsonl`) ? `${owner}.jsonl` : null;
  };
  const companions = files.filter((path) => sideFiles.has(path));
  const sessions = files.filter((path) => !DATABASE_SIDE_FILE.test(path) && ownerOf(path) === null && !companions.includes(path));
  if (sessions.length > 1) return { kind: "library" };
  const main = sessions[0];
  if (main === undefined) return { kind: "snapshot" };
  // A database is read with its -wal (the -shm is not needed); a session with its sub-agent files and side files.
  if (/\.db$/i.test(main)) return { kind: "session", paths: present.has(`${main}-wal`) ? [main, `${main}-wal`] : [main] };
  const subAgents = files.filter((path) => ownerOf(path) === main).sort();
  return { kind: "session", paths: [main, ...subAgents, ...[...companions].sort()] };
}
