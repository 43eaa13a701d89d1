// The per-turn pipeline API that the UI worker, the CLI and the other core modules call:
// analyse a session (branches, turns, timeline), build one turn's context messages, and build
// one turn's provider request. Each agent's descriptor (src/core/agents) supplies the pipeline;
// this module only dispatches to it, so it holds nothing agent-specific.
import { agentOf } from "./agents";
import type { AgentMessage, BuiltRequest, PipelineOptions, Session } from "../model";
import { serializeTurnContext, sessionIdOf } from "../providers/serialize-turn";
import { withCaptureModelFacts } from "../captures/modelFacts";
import type { FormatPipeline, PipelineHooks, SessionAnalysis, TurnContext, TurnPipeline } from "../pipeline/types";

export type { PipelineHooks, SessionAnalysis, TurnContext, TurnPipeline } from "../pipeline/types";
// `carriesNote` tells which context messages the UI marks as carrying a reply-language note.
export { carriesNote } from "../notes/carries-note";

function pipelineFor(session: Session): FormatPipeline {
  return agentOf(session).pipeline;
}

/** Branches, turn summaries and the timeline of the selected branch. Linear in the branch size. */
export function analyzeSession(session: Session, options: PipelineOptions, hooks: PipelineHooks = {}): SessionAnalysis {
  if (session.entries.length === 0) {
    return { branches: [], leafId: null, turns: [], timeline: [], warnings: [] };
  }
  return pipelineFor(session).analyze(session, withCaptureModelFacts(options), hooks);
}

/** Number of turns (main requests) on the selected branch. */
export function countTurns(session: Session, options: PipelineOptions): number {
  if (session.entries.length === 0) return 0;
  return pipelineFor(session).countTurns(session, withCaptureModelFacts(options));
}

/** The context messages of turn `turn` (1-based) after every pipeline step. */
export function buildTurnContext(
  session: Session,
  options: PipelineOptions,
  turn: number,
  hooks: PipelineHooks = {},
): TurnContext {
  if (session.entries.length === 0) throw new RangeError(`turn ${turn} does not exist: the session is empty`);
  return pipelineFor(session).buildTurnContext(session, withCaptureModelFacts(options), turn, hooks);
}

/**
 * The provider request of turn `turn`. Wire shape: `options.api`, else the api recorded on the
 * answering assistant message, else the model's catalogue api, else "openai-completions".
 */
export function buildTurnRequest(
  session: Session,
  options: PipelineOptions,
  turn: number,
  hooks: PipelineHooks = {},
): BuiltRequest {
  const pipeline = session.entries.length > 0 ? pipelineFor(session) : null;
  const effective = withCaptureModelFacts(options);
  if (pipeline?.buildTurnRequest) return pipeline.buildTurnRequest(session, effective, turn, hooks);
  return serializeTurnContext(buildTurnContext(session, effective, turn, hooks), effective, sessionIdOf(session));
}

/** The Messages tab's size estimate of the session's agent: characters of one context message under `options`. */
export function messageCharsEstimator(session: Session, options: PipelineOptions): (message: AgentMessage) => number {
  const agent = session.entries.length > 0 ? agentOf(session) : null;
  return (message) => (agent ? agent.estimateMessageChars(message, options) : 0);
}

/** The entry points above as one value, for code that is handed the pipeline (the simulator's policies). */
export const TURN_PIPELINE: TurnPipeline = { countTurns, buildTurnContext, buildTurnRequest };
