// Claude Code as the summary pass needs it: its id and its summariser, without its reader, request
// builder and policies (agent.ts), so that `scan`'s worker threads load only this. The id is the
// reader's format id (reader.ts, which imports the whole reader): a test holds the two equal.
import type { AgentDescriptor } from "../descriptor";
import { summarizeClaudeLines } from "./summary";

export const claudeCodeSummaryAgent: Pick<AgentDescriptor, "id" | "summarize"> = { id: "claude-code", summarize: summarizeClaudeLines };
