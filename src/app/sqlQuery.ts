// The SqlQuery the agents' database readers take (src/core/storage/sqlite.ts), over an open sql.js
// database. Environment-free, so the worker and the CLI (src/cli/sqlite.ts) both use it.
import type { Database, SqlValue } from "sql.js";
import type { SqlQuery } from "../core/storage/sqlite";

/** Runs one statement and returns every row as an object; the statement is always freed. */
export function sqlQuery(db: Database): SqlQuery {
  return (sql, params = []) => {
    const statement = db.prepare(sql);
    try {
      statement.bind(params as SqlValue[]);
      const rows: Record<string, unknown>[] = [];
      while (statement.step()) rows.push(statement.getAsObject());
      return rows;
    } finally {
      statement.free();
    }
  };
}
