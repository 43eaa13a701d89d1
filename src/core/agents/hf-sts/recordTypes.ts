// The record types of a session trace (the report of what a file holds,
// src/core/session/recordReport.ts): the format has two, the header and the message envelope
// (docs/formats/sts.md). The reader keeps the header apart; every entry is a message.
import type { RecordCatalog } from "../descriptor";
import type { Session } from "../../model";

export const STS_RECORD_CATALOG: RecordCatalog = {
  read: ["message"],
  skipped: {},
  versions: harnesses,
};

/** The harness the header names: the program whose session the trace is. */
function harnesses(session: Session): string[] {
  const harness = session.header?.harness;
  return typeof harness === "string" && harness !== "" ? [harness] : [];
}
