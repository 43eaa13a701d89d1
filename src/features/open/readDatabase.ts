// Opening inputs that are SQLite databases rather than text (FM-OC-1): sniffing the first bytes of
// dropped files, collecting a database (with its `-wal`, without its `-shm`) into memory and
// handing it to src/features/open/sqlite.ts. A lone `-wal` or `-shm` file gets an error that says what to
// drop instead. Runs in the worker.
import type { Session } from "../../core/model";
import { isSqliteHeader, isWalHeader, storageSummary } from "../../core/session/index";
import type { DatabaseSummary } from "../../worker/protocol";
import { readDatabaseFileSet } from "./sqlite";
import { sideFilesOf } from "./sideFiles";

async function firstBytes(file: Blob, count = 16): Promise<Uint8Array> {
  return new Uint8Array(await file.slice(0, count).arrayBuffer());
}

/** What each dropped file is, from its first bytes (the file name is not trusted, only used for -shm). */
export type DroppedKind = "database" | "wal" | "shm" | "other";

export async function classifyDroppedFile(file: File): Promise<DroppedKind> {
  const head = await firstBytes(file);
  if (isSqliteHeader(head)) return "database";
  if (isWalHeader(head)) return "wal";
  if (/-shm$/i.test(file.name)) return "shm";
  return "other";
}

/** Error for a drop holding a `-wal`/`-shm` file but no database: names the file to add. */
export function missingDatabaseMessage(names: string[]): string {
  const list = names.map((name) => `"${name}"`).join(" and ");
  return (
    `${list} ${names.length === 1 ? "is" : "are"} SQLite side file${names.length === 1 ? "" : "s"} (write-ahead log / shared memory), not a session. ` +
    "Expected the opencode database itself: drop opencode.db together with opencode.db-wal " +
    "(both in ~/.local/share/opencode/)."
  );
}

/** Reads the database among `files` (paired with its -wal), session `sessionId` or the default. */
export async function readDatabaseFiles(files: readonly { name: string; data: Blob | Uint8Array }[], sessionId: string | null): Promise<Session> {
  const dropped = await Promise.all(
    files.map(async (file) => ({
      name: file.name,
      bytes: file.data instanceof Uint8Array ? file.data : new Uint8Array(await file.data.arrayBuffer()),
    })),
  );
  // The text files of the drop that are an agent's side files go with its database (hermes-agent's state.db).
  const sideFiles = await sideFilesOf(dropped.map((file) => ({ name: file.name, data: file.bytes })));
  const sqliteFiles = new Set(await Promise.all(dropped.map(async (file) => (isSqliteHeader(file.bytes) || isWalHeader(file.bytes) || /-(wal|shm)$/i.test(file.name) ? file.name : ""))));
  const otherFileNames = dropped.map((file) => file.name).filter((name) => !sqliteFiles.has(name) && !sideFiles.some((side) => side.name === name));
  return readDatabaseFileSet({ files: dropped, sessionId, sideFiles, otherFileNames });
}

/** The session picker's and the WAL banner's facts, for a Session read from a database. */
export function databaseSummary(session: Session, fileNames: string[]): DatabaseSummary | undefined {
  const summary = storageSummary(session);
  return summary ? { ...summary, fileNames } : undefined;
}
