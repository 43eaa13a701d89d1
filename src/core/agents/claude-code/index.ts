// Claude Code profile: the FormatPipeline registered for sessions read by the Claude Code reader.
import type { FormatPipeline } from "../../pipeline/index";
import { analyzeClaudeSession, buildClaudeTurnContext, buildClaudeTurnRequest, countClaudeTurns } from "./turns";

export const claudePipeline: FormatPipeline = {
  analyze: (session, options) => analyzeClaudeSession(session, options),
  countTurns: countClaudeTurns,
  buildTurnContext: (session, options, turn) => buildClaudeTurnContext(session, options, turn),
  buildTurnRequest: (session, options, turn) => buildClaudeTurnRequest(session, options, turn),
};

export { analyzeClaudeSession, buildClaudeTurnContext, buildClaudeTurnRequest, countClaudeTurns } from "./turns";
export { getClaudeIndex } from "./session-index";
