// The record types of a Crush session (the report of what a file holds,
// src/core/session/recordReport.ts): one entry per stored message, named by its role. crush.db
// names no Crush version, so none is reported. Its other tables (file history, read files) are
// never read, so they are not records of the session.
import type { RecordCatalog } from "../descriptor";

export const CRUSH_RECORD_CATALOG: RecordCatalog = {
  read: ["message:user", "message:assistant", "message:tool"],
  skipped: {},
  versions: () => [],
};
