// A Kilo session is an opencode session under another name: Kilo Code CLI is a fork of opencode and
// stores the same `{info, parts}` rows (docs/formats/kilo.md). The rows are read by opencode's
// reader; this file gives the Session Kilo's identity (its format id, label and header), so the
// registry sends it to Kilo's pipeline, and reads that identity back.
import type { Session } from "../../model";
import type { OpencodeSessionHeader } from "../opencode/index";

export const KILO_FORMAT_ID = "kilo";
const KILO_DATABASE_LABEL = "Kilo database";

/** What `Session.header` holds for a Kilo session: opencode's header, named Kilo's. */
export type KiloSessionHeader = Omit<OpencodeSessionHeader, "agent"> & { agent: "kilo" };

/** `session` (read by opencode's reader) as Kilo's, with whether its `-wal` file was applied. */
export function asKiloSession(session: Session, walApplied: boolean): Session {
  const header = { ...(session.header ?? {}), agent: "kilo", walApplied };
  return { ...session, formatId: KILO_FORMAT_ID, formatLabel: KILO_DATABASE_LABEL, header };
}

/** The Kilo header of a Session read by this folder, or null for other formats. */
export function kiloHeaderOf(session: Session): KiloSessionHeader | null {
  const header = session.header;
  if (session.formatId !== KILO_FORMAT_ID || !header || header.agent !== "kilo") return null;
  return header as unknown as KiloSessionHeader;
}
