// Which dropped files belong together (opencode FM-OC-1, hermes-agent's state.db alike): the database (SQLite magic), its `-wal` file
// (same name + "-wal", or the only file ending in "-wal") and its `-shm` file (ignored: the
// shared-memory index is rebuilt from the WAL). Pure: takes names and first bytes.
import { isSqliteHeader } from "./sqlite";

export interface DroppedFile {
  name: string;
  bytes: Uint8Array;
}

export interface DatabaseFileSet {
  database: DroppedFile;
  wal: DroppedFile | null;
  /** Files that were dropped with it but are not used (the -shm file, anything else). */
  ignored: string[];
}

/** The database and its WAL among `files`, or null when none of them is a SQLite database. */
export function pairDatabaseFiles(files: readonly DroppedFile[]): DatabaseFileSet | null {
  const database = files.find((file) => isSqliteHeader(file.bytes));
  if (!database) return null;
  const walCandidates = files.filter((file) => file !== database && /-wal$/i.test(file.name));
  const wal = walCandidates.find((file) => file.name === `${database.name}-wal`) ?? (walCandidates.length === 1 ? walCandidates[0] ?? null : null);
  const ignored = files.filter((file) => file !== database && file !== wal).map((file) => file.name);
  return { database, wal, ignored };
}

/** True when `bytes` start like a SQLite WAL file (magic 0x377f0682 / 0x377f0683, big-endian). */
export function isWalHeader(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x37 && bytes[1] === 0x7f && bytes[2] === 0x06 && (bytes[3] === 0x82 || bytes[3] === 0x83);
}
