// Which of pi's two programs wrote a session file: senpi leaves marks pi never writes (its own
// entry types, custom entries named "senpi.…", compactions of its summariser's details schema,
// its home folder in the path), so such a file opens with the senpi profile and policy.
import type { Session } from "../../model";
import { isObject } from "../../util/is-object";
import type { PiProfileId } from "./profile";

/** Entry types only senpi writes (PI-F8). */
const SENPI_ENTRY_TYPES: ReadonlySet<string> = new Set(["context_edit", "configuration_update", "model_change_rejected"]);

/** `details.schema` of compactions written by senpi's summariser (CP-SE-INF-5). */
export const SENPI_COMPACTION_SCHEMA = "senpi.compaction.summary.v1";

function isSenpiEntry(entry: Session["entries"][number]): boolean {
  if (SENPI_ENTRY_TYPES.has(entry.type)) return true;
  const customType = entry.raw.customType;
  if (typeof customType === "string" && customType.startsWith("senpi.")) return true;
  const details = entry.raw.details;
  return entry.type === "compaction" && isObject(details) && details.schema === SENPI_COMPACTION_SCHEMA;
}

/** senpi when the file bears one of senpi's marks, else null (pi's own file, or no mark to tell). */
export function piSessionWrittenBy(session: Session): PiProfileId | null {
  if (/(^|[/\\])\.senpi[/\\]/.test(session.fileName)) return "senpi";
  return session.entries.some(isSenpiEntry) ? "senpi" : null;
}
