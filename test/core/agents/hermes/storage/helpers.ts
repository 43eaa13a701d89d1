// Test helpers for hermes-agent storage: sql.js under Node (the CLI's engine), a query function
// over an open database, building small state.db files from DDL + rows (our own data, built to
// the DDL of hermes-storage.md HS-8 … HS-11), and reading one through the same core reader as the
// worker and the CLI.
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import type { Database, SqlValue } from "sql.js";
import type { Session } from "../../../../../src/core/model";
import { applyWal } from "../../../../../src/core/storage/wal";
import { readHermesStorage, type HermesSqlQuery } from "../../../../../src/core/agents/hermes/storage";
import { sqlQuery } from "../../../../../src/app/sqlQuery";
import { loadSqlEngine } from "../../../../../src/cli/sqlite";

export type Row = Record<string, SqlValue>;

/** A database built from statements, returned as file bytes. */
export async function buildDb(statements: string[], rows: { table: string; row: Row }[] = []): Promise<Uint8Array> {
  const SQL = await loadSqlEngine();
  const db = new SQL.Database();
  try {
    for (const statement of statements) db.run(statement);
    for (const { table, row } of rows) {
      const columns = Object.keys(row);
      db.run(`INSERT INTO ${table} (${columns.map((c) => `"${c}"`).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`, columns.map((c) => row[c]!));
    }
    return db.export();
  } finally {
    db.close();
  }
}

export async function withDb<T>(bytes: Uint8Array, wal: Uint8Array | null, use: (query: HermesSqlQuery, db: Database) => T): Promise<T> {
  const SQL = await loadSqlEngine();
  const db = new SQL.Database(applyWal(bytes, wal).bytes);
  try {
    return use(sqlQuery(db), db);
  } finally {
    db.close();
  }
}

export async function readDb(bytes: Uint8Array, options: { wal?: Uint8Array | null; sideFiles?: { name: string; text: string }[]; sessionId?: string | null; fileName?: string } = {}): Promise<Session> {
  return withDb(bytes, options.wal ?? null, (query) =>
    readHermesStorage({
      database: { query, fileName: options.fileName ?? "state.db", walApplied: options.wal !== undefined && options.wal !== null },
      sideFiles: options.sideFiles ?? [],
      sessionId: options.sessionId ?? null,
    }),
  );
}

/** The text files of a folder (side files of a hermes home's `sessions/`). */
export function folderTexts(folder: string): { name: string; text: string }[] {
  return readdirSync(folder)
    .sort()
    .map((name) => ({ name, text: readFileSync(path.join(folder, name), "utf8") }));
}
