// Public entry of the Claude Code folder for tests and tools: the turn pipeline and the session
// index. The agent itself is described in agent.ts.

export { analyzeClaudeSession, buildClaudeTurnContext, buildClaudeTurnRequest, countClaudeTurns } from "./turns";
export { getClaudeIndex } from "./session-index";
