// Codex CLI profile: the FormatPipeline registered for sessions read by the Codex rollout reader.
import type { FormatPipeline } from "../../pipeline/index";
import { analyzeCodexSession, buildCodexTurnContext, buildCodexTurnRequest, countCodexTurns } from "./turns";

export const codexPipeline: FormatPipeline = {
  analyze: (session, options) => analyzeCodexSession(session, options),
  countTurns: (session) => countCodexTurns(session),
  buildTurnContext: (session, options, turn) => buildCodexTurnContext(session, options, turn),
  buildTurnRequest: (session, options, turn) => buildCodexTurnRequest(session, options, turn),
};

export { analyzeCodexSession, buildCodexTurnContext, buildCodexTurnRequest, countCodexTurns, CODEX_BODY_KEY_ORDER } from "./turns";
export type { CodexOptions } from "./turns";
export { getCodexIndex } from "./rollout-index";
export { removeSections, sentBaseInstructions, PLAN_TOOL_SECTION_TITLES } from "./base-instructions";
