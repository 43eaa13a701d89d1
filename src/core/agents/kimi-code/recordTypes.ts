// The record types of a Kimi Code wire file (the report of what a file holds,
// src/core/session/recordReport.ts, and the reader's list of known types): those the fold and the
// request builder read, and those Kimi Code writes for itself that no request holds, each with why.
// From the wire manifest of its source (packages/agent-core-v2/docs/wire-manifest.d.ts) and the
// UI events 2.1.0 writes beside its records.
import type { RecordCatalog } from "../descriptor";
import type { Session } from "../../model";

const READ = [
  "profile.bind",
  "config.update",
  "context.append_message",
  "context.append_loop_event",
  "context.apply_compaction",
  "context.clear",
  "context.undo",
  "full_compaction.begin",
  "full_compaction.complete",
  "full_compaction.cancel",
  "llm.request",
  "llm.tools_snapshot",
  "usage.record",
  "token_counting.measured",
  "token_counting.rebased",
  "token_counting.truncated",
  "turn.prompt",
] as const;

const BOOKKEEPING = "Kimi Code's own bookkeeping, replayed on resume; never sent";
const UI_EVENT = "an event for Kimi Code's display (`\"kind\":\"event\"`); never sent";

const SKIPPED: Readonly<Record<string, string>> = {
  metadata: "the file's protocol version and creation time (read as its header)",
  "runtime.set_binding": "the workspace and runtime the agent runs in; never sent",
  "permission.set_mode": "the permission mode; its reminder is a context message of its own",
  "permission.record_approval_result": "an approval the user gave; never sent",
  "plugin.session_start": "what plugins said at session start; a context message of its own when sent",
  "prompt.accepted": BOOKKEEPING,
  "prompt.completed": BOOKKEEPING,
  "token_counting.turn_recorded": BOOKKEEPING,
  "turn.ended": BOOKKEEPING,
  "turn.cancel": BOOKKEEPING,
  "turn.steer": "a prompt sent while a turn ran; its message is a context record of its own",
  "tools.update_store": "the todo list's store; never sent",
  "tools.set_active_tools": "which tools are active; the tool list sent is in llm.tools_snapshot",
  "tools.reset_active_tools": "which tools are active; the tool list sent is in llm.tools_snapshot",
  "tools.register_user_tool": "a tool the client registered; the tool list sent is in llm.tools_snapshot",
  "tools.unregister_user_tool": "a tool the client removed; the tool list sent is in llm.tools_snapshot",
  "mcp.tools_discovered": "the tools an MCP server offered; the tool list sent is in llm.tools_snapshot",
  "interaction.request": "a question or approval shown to the user; never sent",
  "interaction.resolved": "the user's answer to it; never sent",
  "interruptionReminder.recorded": BOOKKEEPING,
  "staleGuard.recorded": BOOKKEEPING,
  "staleGuard.cleared": BOOKKEEPING,
  "task.started": "a background task's start; its notice is a context message of its own",
  "task.terminated": "a background task's end; its notice is a context message of its own",
  "task.waitDelivered": BOOKKEEPING,
  "cron.add": BOOKKEEPING,
  "cron.cursor": BOOKKEEPING,
  "cron.delete": BOOKKEEPING,
  forked: BOOKKEEPING,
  "goal.create": BOOKKEEPING,
  "goal.update": BOOKKEEPING,
  "goal.clear": BOOKKEEPING,
  "plan_mode.enter": BOOKKEEPING,
  "plan_mode.exit": BOOKKEEPING,
  "plan_mode.cancel": BOOKKEEPING,
  "plan.revision": BOOKKEEPING,
  "swarm_mode.enter": BOOKKEEPING,
  "swarm_mode.exit": BOOKKEEPING,
  "tower_mode.enter": BOOKKEEPING,
  "tower_mode.exit": BOOKKEEPING,
  "agent.message.appended": UI_EVENT,
  "agent.turn.started": UI_EVENT,
  "agent.turn.ended": UI_EVENT,
};

/** Every type the reader knows (read or skipped on purpose); others are named in a warning. */
export const KIMI_KNOWN_TYPES: ReadonlySet<string> = new Set([...READ, ...Object.keys(SKIPPED)]);

export const KIMI_RECORD_CATALOG: RecordCatalog = {
  read: READ,
  skipped: SKIPPED,
  // The file names its wire protocol version (the header), never the program's version.
  versions: (_session: Session) => [],
};
