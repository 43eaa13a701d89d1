// SQLite, as the agents that keep sessions in a database use it: the file's header, and the query
// function the worker and the CLI hand to a reader (sql.js over an in-memory image), so readers
// stay pure. Facts of the file format (sqlite.org/fileformat2.html), not of any agent.

/** A row as sql.js returns it from `getAsObject`: column name → value. */
export type SqlRow = Record<string, unknown>;
/** Runs one read-only statement with positional parameters and returns every row. */
export type SqlQuery = (sql: string, params?: readonly (string | number)[]) => SqlRow[];

/** The first 16 bytes of every SQLite database file. */
const SQLITE_MAGIC = "SQLite format 3\u0000";

/** True when `bytes` start with the SQLite header: a database, to open through a query function. */
export function isSqliteHeader(bytes: Uint8Array): boolean {
  if (bytes.length < 16) return false;
  for (let i = 0; i < 16; i++) if (bytes[i] !== SQLITE_MAGIC.charCodeAt(i)) return false;
  return true;
}

/** The names of the database's tables, in name order. */
export function tableNames(query: SqlQuery): string[] {
  return query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").map((row) => String(row.name));
}
