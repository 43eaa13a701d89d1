// Opens a SQLite database for the CLI: sql.js with its .wasm read from node_modules, the sibling
// `<db>-wal` file applied when it exists (or the one given), then the tables decide: hermes-agent's
// state.db (`sessions` + `messages`, with the side files of `<home>/sessions/`, ./hermes.ts) or
// opencode's database (FM-OC-1) — the same core readers as the worker.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import initSqlJs, { type SqlJsStatic } from "sql.js";
import type { Session } from "../core/model";
import { applyWal, readOpencodeDatabase } from "../core/agents/opencode";
import { isHermesStateDb, readHermesStorage, tableNames } from "../core/agents/hermes/storage";
import { sqlQuery } from "../app/sqlQuery";
import { hermesSideFilesFor } from "./hermes";

let engine: Promise<SqlJsStatic> | null = null;

export function loadSqlEngine(): Promise<SqlJsStatic> {
  if (!engine) {
    const require = createRequire(import.meta.url);
    const wasmBinary = fs.readFileSync(require.resolve("sql.js/dist/sql-wasm.wasm"));
    engine = initSqlJs({ wasmBinary: wasmBinary.buffer.slice(wasmBinary.byteOffset, wasmBinary.byteOffset + wasmBinary.byteLength) as ArrayBuffer });
  }
  return engine;
}

export interface CliDatabaseOptions {
  /** Path of the -wal file; default `<database>-wal` when it exists; null: do not apply any. */
  walPath?: string | null;
  sessionId?: string | null;
}

/** Reads one session of an opencode or hermes-agent database file. Throws on unreadable or foreign databases. */
export async function loadOpencodeDatabase(databasePath: string, options: CliDatabaseOptions = {}): Promise<Session> {
  const database = new Uint8Array(fs.readFileSync(databasePath));
  const walPath = options.walPath === undefined ? (fs.existsSync(`${databasePath}-wal`) ? `${databasePath}-wal` : null) : options.walPath;
  const wal = walPath ? new Uint8Array(fs.readFileSync(walPath)) : null;
  const overlay = applyWal(database, wal);
  const SQL = await loadSqlEngine();
  const db = new SQL.Database(overlay.bytes);
  try {
    const query = sqlQuery(db);
    if (isHermesStateDb(tableNames(query))) {
      return readHermesStorage({
        database: { query, fileName: path.basename(databasePath), walApplied: wal !== null, walWarnings: overlay.warnings },
        sideFiles: hermesSideFilesFor(databasePath),
        sessionId: options.sessionId ?? null,
      });
    }
    return readOpencodeDatabase(query, {
      fileName: path.basename(databasePath),
      sessionId: options.sessionId ?? null,
      walApplied: wal !== null,
      walWarnings: overlay.warnings,
    });
  } finally {
    db.close();
  }
}
