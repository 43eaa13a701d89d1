// The record types of a Codex rollout (the report of what a file holds,
// src/core/session/recordReport.ts): the line types read (`type` of the envelope, or what an older
// shape maps to, lines.ts), the ones Codex writes for itself that no request holds, and the Codex
// versions its `session_meta` lines name (a resumed or forked rollout repeats them).
import type { RecordCatalog } from "../descriptor";
import type { Session } from "../../model";
import { linePayload } from "./lines";

const OWN_STATE = "a record of Codex's own state, kept to resume the session; no request holds it";

export const CODEX_RECORD_TYPES: RecordCatalog = {
  read: ["session_meta", "response_item", "event_msg", "turn_context", "compacted", "token_usage_record"],
  skipped: { world_state: OWN_STATE, state: OWN_STATE },
  versions: codexVersions,
};

/** `cli_version` of each `session_meta` line, each once, in the order first met. */
function codexVersions(session: Session): string[] {
  const versions = new Set<string>();
  for (const entry of session.entries) {
    if (entry.type !== "session_meta") continue;
    const version = linePayload(entry)?.cli_version;
    if (typeof version === "string" && version !== "") versions.add(version);
  }
  return [...versions];
}
