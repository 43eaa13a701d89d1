// The record types of a Qwen Code chat file (the report of what a file holds,
// src/core/session/recordReport.ts): those the reader and the pipeline read, those Qwen Code
// writes for itself that no request holds, and the Qwen Code versions the records name. A
// `system` record is named with its subtype (reader.ts): `system/chat_compression` is read, the
// other subtypes are bookkeeping.
import type { RecordCatalog } from "../descriptor";
import type { Session } from "../../model";

export const QWEN_RECORD_CATALOG: RecordCatalog = {
  read: ["user", "assistant", "tool_result", "system/chat_compression"],
  skipped: {
    "system/attribution_snapshot": "Qwen Code's file-attribution bookkeeping (prompt count, file states); never sent",
    "system/ui_telemetry": "the CLI's telemetry events (API responses, tool calls), replayed on resume for its statistics; never sent",
    "system/slash_command": "a slash command the user ran, for the CLI's display; never sent",
    "system/goal_turn_end": "the end of a goal turn, for the CLI's goal tracking; never sent",
    "system/realtime_message": "a message shown while the agent worked, for the CLI's display; never sent",
  },
  versions: qwenVersions,
};

/** The `version` values of the records, each once, in the order first met. */
function qwenVersions(session: Session): string[] {
  const versions = new Set<string>();
  for (const entry of session.entries) if (typeof entry.raw.version === "string" && entry.raw.version !== "") versions.add(entry.raw.version);
  return [...versions];
}
