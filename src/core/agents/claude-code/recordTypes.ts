// The record types of a Claude Code transcript (the report of what a file holds,
// src/core/session/recordReport.ts): those the reader and the pipeline read, those Claude Code
// writes for itself that no request holds, and the Claude Code versions the lines name. Learnt
// from the files (Claude Code is closed source); docs/formats/claude-code.md lists them by version.
import type { RecordCatalog } from "../descriptor";
import type { Session } from "../../model";

const NAME = "the session's name or title for Claude Code's resume picker; never sent";
const FILE_BACKUP = "backups of the files the session edited, for rewind; never sent";

export const CLAUDE_RECORD_TYPES: RecordCatalog = {
  read: ["user", "assistant", "attachment", "system", "progress", "api-request", "api-request-shape", "api-request-blob", "last-prompt"],
  skipped: {
    summary: "an old version's title for a branch; never sent",
    "queue-operation": "a prompt queued while the agent worked; it is written again as a user line when sent",
    "file-history-snapshot": FILE_BACKUP,
    "file-history-delta": FILE_BACKUP,
    "permission-mode": "the session's permission mode; what a request says of it is written as an attachment",
    mode: "the session's mode; what a request says of it is written as an attachment",
    "bridge-session": "the remote-control link of the session; never sent",
    "agent-name": NAME,
    "ai-title": NAME,
    "custom-title": NAME,
    tag: NAME,
    "pr-link": "a pull request the session opened; never sent",
    "cost-state": "Claude Code's running cost tally; never sent",
    "tools-used": "the names of the tools the session has called so far, for Claude Code's own bookkeeping; never sent",
    "atis-latch": "a per-session flag Claude Code keeps for itself (2.1.332: an empty \"atis\" value); never sent",
  },
  versions: claudeVersions,
};

/** The `version` values of the lines, each once, in the order first met. */
function claudeVersions(session: Session): string[] {
  const versions = new Set<string>();
  for (const entry of session.entries) if (typeof entry.raw.version === "string" && entry.raw.version !== "") versions.add(entry.raw.version);
  return [...versions];
}
