// Messages between the page and a sessions-library worker (./library.worker.ts). Types only.
import type { LibraryRowFacts } from "../app/libraryRow";

/** One session to read: its file (a database: the database first, then its -wal). */
export interface LibraryJob {
  id: number;
  handles: FileSystemFileHandle[];
}

export type LibraryReply = { id: number; ok: true; facts: LibraryRowFacts } | { id: number; ok: false; error: string };
