// Messages between the page and a sessions-library worker (./library.worker.ts). Types only.
import type { LibraryRowFacts } from "../../app/libraryRow";

/**
 * One session to read: its file (a database: the database first, then its -wal), then its
 * sub-agent files and child rollouts, then the agent side files near it (`sessionFiles` tells
 * where the side files start).
 */
export interface LibraryJob {
  id: number;
  handles: FileSystemFileHandle[];
  sessionFiles: number;
}

/**
 * The row's facts, or why the file could not be read. `companion`: the file is not a session but an
 * agent's file beside its sessions (Gemini CLI's projects.json), read with the sessions near it.
 */
export type LibraryReply = { id: number; ok: true; facts: LibraryRowFacts } | { id: number; ok: false; error: string; companion?: boolean };
