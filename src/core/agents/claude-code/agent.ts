// The Claude Code agent: its transcript reader, its own request builder (Anthropic Messages as
// Claude Code sends them), its compaction policy and the rebuild of recorded compact boundaries.
import { learnClaudeCapture } from "./capture";
import { CLAUDE_NOT_DERIVABLE } from "./notDerivable";
import type { AgentDescriptor } from "../descriptor";
import { messageChars } from "../../tokens/charEstimate";
import { claudeCodePolicy } from "./policy/policy";
import { claudeReader, CLAUDE_FORMAT_ID } from "./reader";
import { claudeCodeRecordedCompactions } from "./recorded";
import { CLAUDE_RECORD_TYPES } from "./recordTypes";
import { carryClaudeCaches } from "./growth";
import { linkClaudeFiles } from "./threads";
import { summarizeClaudeLines } from "./summary";
import { analyzeClaudeSession, buildClaudeTurnContext, buildClaudeTurnRequest, countClaudeTurns, iterateClaudeTurnRequests } from "./turns";

export const claudeCodeAgent = {
  id: CLAUDE_FORMAT_ID,
  label: "Claude Code",
  // The newest version whose recorded requests the rebuild equals (docs/fidelity.md).
  newestVerified: [{ program: "Claude Code", version: "2.1.332" }],
  ruleDocs: [
    { prefix: "FM-CC", doc: "docs/formats/claude-code.md" },
    { prefix: "CP-CC", doc: "docs/compaction-policies/claude-code.md" },
    { prefix: "CC-INF", doc: "docs/compaction-policies/claude-code.md" },
  ],
  readableFiles: [{ agent: "Claude Code", files: "transcript JSONL (~/.claude/projects/<project>/<session>.jsonl), with its subagents/agent-<id>.jsonl" }],
  readers: [claudeReader],
  estimateMessageChars: (message) => messageChars(message),
  pipeline: {
    analyze: (session, options) => analyzeClaudeSession(session, options),
    countTurns: countClaudeTurns,
    buildTurnContext: (session, options, turn) => buildClaudeTurnContext(session, options, turn),
    buildTurnRequest: (session, options, turn) => buildClaudeTurnRequest(session, options, turn),
    // A reader that keeps no request past the turn after is handed two message lists in turn, not copies.
    iterateTurnRequests: (session, options, hooks) => iterateClaudeTurnRequests(session, options, hooks),
    // A followed transcript that grew keeps its index, branches, rebuilt records and turn summaries (growth.ts).
    carryCaches: carryClaudeCaches,
  },
  policies: [claudeCodePolicy],
  recorded: claudeCodeRecordedCompactions,
  // The analyser records each turn's usage in pi's shape (CA-21).
  // Sub-agent files dropped with their session become its threads (FM-CC-8).
  linkFiles: (sessions) => linkClaudeFiles(sessions),
  summarize: summarizeClaudeLines,
  // Claude Code keeps them in <project>/<session id>/subagents/agent-<id>.jsonl (FM-CC-8).
  missingThreadFiles: "the transcript together with its session's subagents/ folder",
  // Every conversation line names its session: lines of another session appended to a file say so.
  entrySessionId: (entry) => (typeof entry.raw.sessionId === "string" ? entry.raw.sessionId : null),
  records: CLAUDE_RECORD_TYPES,
  usageSource: "pi",
  options: [],
  notDerivable: CLAUDE_NOT_DERIVABLE,
  // Claude Code sends Anthropic Messages: its beta headers and system blocks teach model facts.
  captureLearner: { facts: (body, source, api) => (api === "anthropic-messages" ? learnClaudeCapture(body, source) : []) },
} satisfies AgentDescriptor;
