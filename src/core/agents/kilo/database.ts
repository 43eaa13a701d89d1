// Kilo's SQLite database, ~/.local/share/kilo/kilo.db with its -wal (docs/formats/kilo.md): opencode
// 1.x's tables `session`, `message` and `part`, plus Kilo's own (`kilo_board`, `event`,
// `event_sequence`). It is told from opencode.db by those tables of its own, and its rows are read
// by opencode's database reader (only `session`, `message` and `part` are queried; the database
// also holds credentials, which are never read).
import type { DatabaseReadInput } from "../descriptor";
import type { Session } from "../../model";
import { OPENCODE_TABLES, readOpencodeDatabase } from "../opencode/index";
import { asKiloSession } from "./session";

/** A table only Kilo's schema has: its task board. opencode.db has none of it. */
const KILO_ONLY_TABLE = "kilo_board";

/** True when a database holding `tables` is Kilo's: opencode's session tables and Kilo's own. */
export function isKiloDatabase(tables: readonly string[]): boolean {
  return tables.includes(KILO_ONLY_TABLE) && OPENCODE_TABLES.every((name) => tables.includes(name));
}

/** One session of kilo.db (the given one, else the most recently updated top-level one). Throws with a message fit for a user. */
export function readKiloDatabase(input: DatabaseReadInput): Session {
  let session: Session;
  try {
    // opencode's reader is told the -wal was applied: its warning names opencode.db; Kilo's is added below.
    session = readOpencodeDatabase(input.query, { fileName: input.fileName, sessionId: input.sessionId, walApplied: true, walWarnings: input.walWarnings });
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new Error(`${detail} (read as a Kilo database: Kilo keeps opencode's tables)`);
  }
  const kilo = asKiloSession(session, input.walApplied);
  if (!input.walApplied) {
    kilo.warnings = [
      {
        line: 0,
        reason: "opened without its -wal file: Kilo keeps the database in WAL mode, so recent rows may be missing. Drop kilo.db together with kilo.db-wal to read everything.",
      },
      ...kilo.warnings,
    ];
  }
  return kilo;
}
