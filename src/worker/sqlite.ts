// Opens an opencode database in the worker (FM-OC-1): sql.js (SQLite compiled to WebAssembly),
// loaded from our own bundle (the .wasm file is emitted by Vite; never a CDN), on an in-memory
// image with the dropped `-wal` file's committed frames applied first (src/core/agents/opencode/wal.ts),
// then only the session, message and part tables are queried (FM-OC-3) by
// src/core/agents/opencode/database.ts. The database bytes never leave the worker.
import initSqlJs, { type SqlJsStatic } from "sql.js";
import wasmUrl from "sql.js/dist/sql-wasm-browser.wasm?url";
import type { Session } from "../core/model";
import { applyWal, pairDatabaseFiles, readOpencodeDatabase, type DroppedFile } from "../core/agents/opencode";
import { sqlQuery } from "../app/sqlQuery";

let engine: Promise<SqlJsStatic> | null = null;

/** The sql.js engine, initialised once per worker. */
export function loadSqlEngine(): Promise<SqlJsStatic> {
  engine ??= initSqlJs({ locateFile: () => wasmUrl });
  return engine;
}

export interface DatabaseReadRequest {
  /** Every file dropped together: the database, optionally its -wal (and -shm, ignored). */
  files: DroppedFile[];
  /** Session to show (session picker); default: the most recently updated top-level one. */
  sessionId?: string | null;
}

/**
 * Reads one session of a dropped opencode database. Throws an Error with a message fit for the
 * UI when no file is a SQLite database or the database is not opencode's.
 */
export async function readOpencodeDatabaseFiles(request: DatabaseReadRequest): Promise<Session> {
  const set = pairDatabaseFiles(request.files);
  if (!set) throw new Error("None of the dropped files is a SQLite database (expected opencode.db).");
  const overlay = applyWal(set.database.bytes, set.wal?.bytes ?? null);
  const SQL = await loadSqlEngine();
  const db = new SQL.Database(overlay.bytes);
  try {
    return readOpencodeDatabase(sqlQuery(db), {
      fileName: set.database.name,
      sessionId: request.sessionId ?? null,
      walApplied: set.wal !== null,
      walWarnings: overlay.warnings,
    });
  } finally {
    db.close();
  }
}
