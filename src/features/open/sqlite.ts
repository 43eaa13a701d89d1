// Opens a dropped SQLite database in the worker: sql.js (SQLite compiled to WebAssembly), loaded
// from our own bundle (the .wasm file is emitted by Vite; never a CDN), on an in-memory image with
// the dropped `-wal` file's committed frames applied first (src/core/storage/wal.ts). Then the
// tables decide whose it is (`readDatabase` asks each agent's descriptor: hermes-agent's state.db
// with the side files dropped with it, opencode's opencode.db, …). Only SELECT and PRAGMA
// table_info run; the database bytes never leave the worker.
import initSqlJs, { type SqlJsStatic } from "sql.js";
import wasmUrl from "sql.js/dist/sql-wasm-browser.wasm?url";
import type { Session } from "../../core/model";
import { readDatabase, readWithWal, type DroppedFile } from "../../core/session/index";
import { sqlQuery } from "../../app/sqlQuery";

let engine: Promise<SqlJsStatic> | null = null;

/** The sql.js engine, initialised once per worker. */
function loadSqlEngine(): Promise<SqlJsStatic> {
  engine ??= initSqlJs({ locateFile: () => wasmUrl });
  return engine;
}

export interface DatabaseReadRequest {
  /** The database and its -wal (null: none), as the intake paired them. */
  database: DroppedFile;
  wal: DroppedFile | null;
  /** Session to show (session picker); default: the most recently updated top-level one. */
  sessionId?: string | null;
  /** Text files dropped with it (hermes: session_<id>.json, <id>.jsonl, request_dump_*.json). */
  sideFiles?: { name: string; text: string }[];
  /** The other files of the drop (a dropped hermes home holds config and logs): named, not read. */
  otherFileNames?: string[];
}

/**
 * Reads one session of a dropped database. Throws an Error with a message fit for the UI when the
 * database is no supported agent's.
 */
export async function readDatabaseFileSet(request: DatabaseReadRequest): Promise<Session> {
  const SQL = await loadSqlEngine();
  return readWithWal(request.database.bytes, request.wal?.bytes ?? null, ({ bytes, walApplied, walWarnings }) => {
    const db = new SQL.Database(bytes);
    try {
      return readDatabase({
        query: sqlQuery(db),
        fileName: request.database.name,
        walApplied,
        walWarnings,
        sessionId: request.sessionId ?? null,
        sideFiles: request.sideFiles ?? [],
        otherFileNames: request.otherFileNames ?? [],
      });
    } finally {
      db.close();
    }
  });
}
