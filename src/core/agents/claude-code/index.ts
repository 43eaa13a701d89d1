// Claude Code profile: the FormatPipeline registered for sessions read by the Claude Code reader.

export { analyzeClaudeSession, buildClaudeTurnContext, buildClaudeTurnRequest, countClaudeTurns } from "./turns";
export { getClaudeIndex } from "./session-index";
