// The record types of a Kilo session (the report of what a file holds,
// src/core/session/recordReport.ts): one entry per stored message, named by its role, and the Kilo
// versions the session row names. The database's other tables (events, the task board, projects)
// are never read, so they are not records of the session.
import type { RecordCatalog } from "../descriptor";
import type { Session } from "../../model";
import { kiloHeaderOf } from "./session";

export const KILO_RECORD_CATALOG: RecordCatalog = {
  read: ["message:user", "message:assistant"],
  skipped: {},
  versions: (session: Session) => {
    const version = kiloHeaderOf(session)?.version;
    return typeof version === "string" && version !== "" ? [version] : [];
  },
};
