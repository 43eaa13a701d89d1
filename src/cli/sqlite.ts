// Opens a SQLite database for the CLI: sql.js with its .wasm read from node_modules, the sibling
// `<db>-wal` file applied when it exists (or the one given), then the tables decide whose it is
// (`readDatabase` asks each agent's descriptor: hermes-agent's state.db with the side files of
// `<home>/sessions/`, ./sideFiles.ts; opencode's opencode.db) — the same core readers as the worker.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import initSqlJs, { type SqlJsStatic } from "sql.js";
import type { Session } from "../core/model";
import { readDatabase, readWithWal } from "../core/session/index";
import { sqlQuery } from "../app/sqlQuery";
import { sideFilesFor } from "./sideFiles";

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

/** Reads one session of an agent's database file (opencode.db, state.db). Throws on unreadable or foreign databases. */
export async function loadDatabase(databasePath: string, options: CliDatabaseOptions = {}): Promise<Session> {
  const database = new Uint8Array(fs.readFileSync(databasePath));
  const walPath = options.walPath === undefined ? (fs.existsSync(`${databasePath}-wal`) ? `${databasePath}-wal` : null) : options.walPath;
  const wal = walPath ? new Uint8Array(fs.readFileSync(walPath)) : null;
  const SQL = await loadSqlEngine();
  return readWithWal(database, wal, ({ bytes, walApplied, walWarnings }) => {
    const db = new SQL.Database(bytes);
    try {
      return readDatabase({
        query: sqlQuery(db),
        fileName: path.basename(databasePath),
        walApplied,
        walWarnings,
        sessionId: options.sessionId ?? null,
        sideFiles: sideFilesFor(databasePath),
        otherFileNames: [],
      });
    } finally {
      db.close();
    }
  });
}
