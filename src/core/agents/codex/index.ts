// Public entry of the Codex folder for tests and tools: the turn pipeline, the rollout index and
// the base instructions. The agent itself is described in agent.ts.

export { analyzeCodexSession, buildCodexTurnContext, buildCodexTurnRequest, countCodexTurns, CODEX_BODY_KEY_ORDER } from "./turns";
export type { CodexOptions } from "./turns";
export { getCodexIndex } from "./rollout-index";
export { removeSections, sentBaseInstructions, PLAN_TOOL_SECTION_TITLES } from "./base-instructions";
