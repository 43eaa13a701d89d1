// The record types of a session trace (the report of what a file holds,
// src/core/session/recordReport.ts): the format has two, the header and the message envelope
// (docs/formats/sts.md). The reader keeps the header apart; every entry is a message. The format
// names no version of itself or of its harness.
import type { RecordCatalog } from "../descriptor";

export const STS_RECORD_CATALOG: RecordCatalog = {
  read: ["message"],
  skipped: {},
  versions: () => [],
};
