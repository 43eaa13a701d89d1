// The Claude Code agent: its transcript reader, its own request builder (Anthropic Messages as
// Claude Code sends them), its compaction policy and the rebuild of recorded compact boundaries.
import { CLAUDE_NOT_DERIVABLE } from "./notDerivable";
import type { AgentDescriptor } from "../descriptor";
import { claudeCodePolicy } from "./policy/policy";
import { claudeReader, CLAUDE_FORMAT_ID } from "./reader";
import { claudeCodeRecordedCompactions } from "./recorded";
import { linkClaudeFiles } from "./threads";
import { analyzeClaudeSession, buildClaudeTurnContext, buildClaudeTurnRequest, countClaudeTurns } from "./turns";

export const claudeCodeAgent = {
  id: CLAUDE_FORMAT_ID,
  label: "Claude Code",
  readers: [claudeReader],
  pipeline: {
    analyze: (session, options) => analyzeClaudeSession(session, options),
    countTurns: countClaudeTurns,
    buildTurnContext: (session, options, turn) => buildClaudeTurnContext(session, options, turn),
    buildTurnRequest: (session, options, turn) => buildClaudeTurnRequest(session, options, turn),
  },
  profiles: [],
  policies: [claudeCodePolicy],
  recorded: claudeCodeRecordedCompactions,
  // The analyser records each turn's usage in pi's shape (CA-21).
  // Sub-agent files dropped with their session become its threads (FM-CC-8).
  linkFiles: (sessions) => linkClaudeFiles(sessions),
  usageSource: "pi",
  options: [],
  notDerivable: CLAUDE_NOT_DERIVABLE,
} satisfies AgentDescriptor;
