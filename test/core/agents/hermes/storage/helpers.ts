// Test helpers for hermes-agent storage: sql.js under Node (the CLI's engine), a query function
// over an open database, and reading a state.db through the same core reader as the worker and
// the CLI.
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import type { Database } from "sql.js";
import type { Session } from "../../../../../src/core/model";
import { applyWal } from "../../../../../src/core/storage/wal";
import { readHermesStorage, type HermesSqlQuery } from "../../../../../src/core/agents/hermes/storage";
import { sqlQuery } from "../../../../../src/app/sqlQuery";
import { loadSqlEngine } from "../../../../../src/cli/sqlite";

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
