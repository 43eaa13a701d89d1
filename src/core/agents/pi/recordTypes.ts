// The entry types of a pi session file, as pi, senpi and OpenClaw write them (the report of what a
// file holds, src/core/session/recordReport.ts): those the pipeline reads and those no request
// holds. pi's header names the format version, not the version of the agent that wrote it.
import type { RecordCatalog } from "../descriptor";

const NEVER_SENT = "an extension's or the app's own record; never part of a request";

export const PI_RECORD_TYPES: RecordCatalog = {
  read: ["message", "thinking_level_change", "model_change", "compaction", "branch_summary", "custom_message", "context_edit"],
  skipped: {
    custom: NEVER_SENT,
    label: "a bookmark on an entry; never sent",
    session_info: "the session's name; never sent",
    configuration_update: NEVER_SENT,
    model_change_rejected: "a model change senpi refused; the model stays as it was",
  },
  versions: () => [],
};
