// A Kilo session carried by a share link: the link holds the session's header line and its
// opencode rows, so opencode's reader reads them and the session gets Kilo's identity back (as
// ./database.ts gives it). Never chosen by detection: only a link that names Kilo's format reads
// with it.
import type { FormatReader, LineReader } from "../../readers/types";
import { opencodeExportReader } from "../opencode/reader";
import { asKiloSession, KILO_FORMAT_ID } from "./session";

/** The link's header line names Kilo; opencode's reader reads the same header named opencode's. */
function asOpencodeHeaderLine(text: string): string {
  try {
    const header: unknown = JSON.parse(text);
    if (typeof header === "object" && header !== null && !Array.isArray(header) && (header as { agent?: unknown }).agent === "kilo") {
      return JSON.stringify({ ...header, agent: "opencode" });
    }
  } catch {
    // Not JSON: opencode's reader reports it with its line number.
  }
  return text;
}

function kiloLineReader(fileName: string): LineReader {
  const rows = opencodeExportReader.createLineReader(fileName);
  let headerSeen = false;
  return {
    pushLine: (text, lineNumber) => {
      if (!headerSeen && text.trim() !== "") {
        headerSeen = true;
        rows.pushLine(asOpencodeHeaderLine(text), lineNumber);
      } else rows.pushLine(text, lineNumber);
    },
    finish: () => {
      const session = rows.finish();
      // The link's header says whether the original database was read with its -wal file.
      return asKiloSession(session, session.header?.walApplied !== false);
    },
  };
}

export const kiloShareReader: FormatReader = {
  id: KILO_FORMAT_ID,
  label: "Kilo database",
  mismatchMessage: "not a Kilo session: Kilo's sessions are read from its kilo.db database (with its kilo.db-wal)",
  detect: () => false,
  createLineReader: (fileName) => kiloLineReader(fileName),
};
