// The event types of a GitHub Copilot CLI event log (the report of what a file holds,
// src/core/session/recordReport.ts): those the reader and the pipeline read, those the CLI writes
// for itself that no request holds (each with why), and the CLI versions the log names. The names
// come from the session-events schema shipped in @github/copilot 1.0.102
// (schemas/session-events.schema.json, docs/formats/copilot-cli.md); a type in neither list is
// named by the reader as unknown, kept and never sent.
import type { RecordCatalog } from "../descriptor";
import type { Session } from "../../model";

export const COPILOT_RECORD_CATALOG: RecordCatalog = {
  read: [
    "session.start",
    "session.resume",
    "session.model_change",
    "system.message",
    "user.message",
    "assistant.message",
    "tool.execution_start",
    "tool.execution_complete",
    "session.usage_record",
    "session.shutdown",
    "session.compaction_start",
    "session.compaction_complete",
    "session.truncation",
    "session.info",
    "session.warning",
    "session.error",
    "abort",
  ],
  skipped: {
    "assistant.turn_start": "marks the start of a model call; the call itself is its assistant.message",
    "assistant.turn_end": "marks the end of a model call; never sent",
    "assistant.intent": "the one-line intent the CLI shows while working; never sent",
    "assistant.reasoning": "reasoning text also carried by the assistant message; counted there",
    "assistant.idle": "the agent went idle; never sent",
    "session.idle": "the session went idle; never sent",
    "session.usage_checkpoint": "running AI-credit totals for the CLI's own accounting; the calls' usage is read from session.usage_record",
    "session.usage_info": "the context window's fill as the CLI's status line shows it; never sent",
    "session.mode_changed": "the interactive / plan / autopilot mode switch, for the CLI's display",
    "session.plan_changed": "the plan file changed; never sent",
    "session.title_changed": "the session's title, for the session picker",
    "session.todos_changed": "the to-do list, for the CLI's display",
    "session.workspace_file_changed": "a workspace file the CLI tracks changed; never sent",
    "session.context_changed": "the working directory or repository changed; never sent by itself",
    "session.skills_loaded": "the skills the CLI found; never sent by itself",
    "session.mcp_servers_loaded": "the MCP servers the CLI started; never sent by itself",
    "session.mcp_server_status_changed": "an MCP server's status, for the CLI's display",
    "session.custom_agents_updated": "the custom agents the CLI found; never sent by itself",
    "session.task_complete": "the agent marked its task complete; never sent",
    "session.snapshot_rewind": "the user rewound the session to a snapshot; the events after it say what was sent",
    "session.handoff": "the session was handed to another surface; never sent",
    "hook.start": "a hook the CLI ran, for its log",
    "hook.end": "a hook the CLI ran, for its log",
    "skill.invoked": "a skill loaded; its text reaches the model as a tool result",
    "subagent.started": "a sub-agent started; its calls carry its agent id and are not main turns",
    "subagent.completed": "a sub-agent finished; its result reaches the model as a tool result",
    "subagent.failed": "a sub-agent failed; its result reaches the model as a tool result",
    "subagent.selected": "a custom agent chosen for the session, for the CLI's display",
    "subagent.deselected": "a custom agent set aside, for the CLI's display",
    "permission.requested": "a permission prompt, for the CLI's display",
    "permission.completed": "a permission answer, for the CLI's display",
    "tool.user_requested": "a tool the user ran directly; never sent by itself",
    "tool.execution_partial_result": "streamed tool output; the complete result is sent",
    "tool.execution_progress": "a tool's progress message, for the CLI's display",
    "system.notification": "a notice for the user (a shell finished, an agent idled)",
    "command.execute": "a slash command the user ran, for the CLI's display",
    "command.completed": "a slash command finished, for the CLI's display",
    "pending_messages.modified": "the queue of messages typed while the agent worked, for the CLI's display",
  },
  versions: copilotVersions,
};

/** The `copilotVersion` of each session.start and session.resume, each once, in the order first met. */
function copilotVersions(session: Session): string[] {
  const versions = new Set<string>();
  for (const entry of session.entries) {
    const data = entry.raw.data;
    if (typeof data === "object" && data !== null && typeof (data as Record<string, unknown>).copilotVersion === "string") versions.add((data as Record<string, unknown>).copilotVersion as string);
  }
  return [...versions];
}
