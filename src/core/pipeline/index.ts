// The per-turn pipeline API that the UI worker, the CLI and the other core modules call:
// analyse a session (branches, turns, timeline), build one turn's context messages, and build
// one turn's provider request. Each session format registers a FormatPipeline; pi and senpi
// sessions go through src/core/pi (projection → conversion → senpi steps) and src/core/providers.
import { claudePipeline } from "../agents/claude-code";
import { codexPipeline } from "../agents/codex";
import { serializeTurnContext } from "./contextRequest";
import type { BuiltRequest, PipelineOptions, Session } from "../model";
import {
  analyzePiSession,
  buildPiTurnContext,
  countPiTurns,
  type PipelineHooks,
  type SessionAnalysis,
  type TurnContext,
} from "../agents/pi/turns";
import { opencodePipeline } from "../agents/opencode";
import { messageListPipeline } from "../agents/hermes/pipeline";

export type { PipelineHooks, SessionAnalysis, TurnContext } from "../agents/pi/turns";
export type { NotesStep } from "../agents/pi/senpi";
// Reply-language notes (senpi, reply-language.md): `PipelineOptions.notes` switches them, off by
// default (NOTES_DEFAULT explains why); `carriesNote` tells which context messages the UI marks.
export { NOTES_DEFAULT, notesEnabled } from "../agents/pi/notesSetup";
export { carriesNote } from "../agents/pi/turns";

/** What a session format plugs into the pipeline. */
export interface FormatPipeline {
  analyze(session: Session, options: PipelineOptions, hooks: PipelineHooks): SessionAnalysis;
  countTurns(session: Session, options: PipelineOptions): number;
  buildTurnContext(session: Session, options: PipelineOptions, turn: number, hooks: PipelineHooks): TurnContext;
  /**
   * Formats whose agent does not send pi-ai shaped requests (Claude Code, Codex, opencode) build
   * the body themselves; without this, the context goes through the provider serializers.
   */
  buildTurnRequest?(session: Session, options: PipelineOptions, turn: number, hooks: PipelineHooks): BuiltRequest;
}

const piPipeline: FormatPipeline = {
  analyze: analyzePiSession,
  countTurns: countPiTurns,
  buildTurnContext: buildPiTurnContext,
};

/** Pipelines by reader format id (`Session.formatId`). */
const FORMAT_PIPELINES: Readonly<Record<string, FormatPipeline>> = {
  pi: piPipeline,
  "claude-code": claudePipeline,
  codex: codexPipeline,
  opencode: opencodePipeline,
  "chat-messages": messageListPipeline,
};

function pipelineFor(session: Session): FormatPipeline {
  const pipeline = FORMAT_PIPELINES[session.formatId];
  if (!pipeline) throw new Error(`No pipeline for sessions of format "${session.formatId}" (${session.formatLabel})`);
  return pipeline;
}

/** Branches, turn summaries and the timeline of the selected branch. Linear in the branch size. */
export function analyzeSession(session: Session, options: PipelineOptions, hooks: PipelineHooks = {}): SessionAnalysis {
  if (session.entries.length === 0) {
    return { branches: [], leafId: null, turns: [], timeline: [], warnings: [] };
  }
  return pipelineFor(session).analyze(session, options, hooks);
}

/** Number of turns (main requests) on the selected branch. */
export function countTurns(session: Session, options: PipelineOptions): number {
  if (session.entries.length === 0) return 0;
  return pipelineFor(session).countTurns(session, options);
}

/** The context messages of turn `turn` (1-based) after every pipeline step. */
export function buildTurnContext(
  session: Session,
  options: PipelineOptions,
  turn: number,
  hooks: PipelineHooks = {},
): TurnContext {
  if (session.entries.length === 0) throw new RangeError(`turn ${turn} does not exist: the session is empty`);
  return pipelineFor(session).buildTurnContext(session, options, turn, hooks);
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
  if (pipeline?.buildTurnRequest) return pipeline.buildTurnRequest(session, options, turn, hooks);
  return serializeTurnContext(buildTurnContext(session, options, turn, hooks), options);
}
