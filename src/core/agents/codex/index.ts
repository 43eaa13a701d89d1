// Codex CLI profile: the FormatPipeline registered for sessions read by the Codex rollout reader.

export { analyzeCodexSession, buildCodexTurnContext, buildCodexTurnRequest, countCodexTurns, CODEX_BODY_KEY_ORDER } from "./turns";
export type { CodexOptions } from "./turns";
export { getCodexIndex } from "./rollout-index";
export { removeSections, sentBaseInstructions, PLAN_TOOL_SECTION_TITLES } from "./base-instructions";
