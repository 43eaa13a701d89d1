// The types every agent's pipeline and the generic orchestration share: what a pipeline plugs in
// (FormatPipeline), what analysing a session yields (SessionAnalysis), one turn's context
// (TurnContext) and the hooks other modules may supply. Types only: agents import these and
// never the orchestration, so no agent depends on the registry that lists it.
import type {
  ApiId,
  AuxiliaryRequestEvent,
  BranchInfo,
  BuiltRequest,
  ContextMessage,
  DroppedMessage,
  ModelRef,
  PipelineOptions,
  ReaderWarning,
  Session,
  TimelineItem,
  TurnSummary,
} from "../model";

/** senpi's reply-language note step (SP-C5): context messages in, context messages with notes out. */
export type NotesStep = (messages: ContextMessage[]) => ContextMessage[];

export interface SessionAnalysis {
  branches: BranchInfo[];
  /** The leaf of the branch analysed (after PI-P1 defaulting), null for an empty session. */
  leafId: string | null;
  turns: TurnSummary[];
  timeline: TimelineItem[];
  /** Pipeline warnings: line 0 for the whole session, else the line of the entry concerned. */
  warnings: ReaderWarning[];
  /** Auxiliary requests the session implies (opencode title and summariser requests), if any. */
  auxiliary?: AuxiliaryRequestEvent[];
  /** Session events on the branch (hook runs, turn durations, local commands), if the format records any. */
  events?: SessionEvent[];
  /**
   * The file starts mid-session (its first entry's parent is not in it): what the recorded usage
   * counts beyond the rebuilt request is then mostly earlier conversation, not only the system
   * prompt and tools.
   */
  startsMidSession?: boolean;
}

/**
 * Something a session records that is neither a request nor a compaction — a hook run, how long
 * a turn took, a local slash command — shown with the turn it follows. Never a warning.
 */
export interface SessionEvent {
  entryId: string;
  line: number;
  /** The record's own kind, e.g. Claude Code's `system` subtype `stop_hook_summary`. */
  kind: string;
  label: string;
  /** The last turn answered before it; null before the first turn. */
  afterTurn: number | null;
  timestamp: string | null;
}

export interface TurnContext {
  turn: number;
  /** The assistant entry that answered this turn's request. */
  entryId: string;
  /** Context messages sent, after every pipeline step, with provenance. */
  messages: ContextMessage[];
  dropped: DroppedMessage[];
  /** The model that received the request (the answering message's model, else PI-P3's). */
  model: ModelRef | null;
  thinkingLevel: string;
  /** `options.api`, else the api recorded on the answering assistant message, else null. */
  api: ApiId | null;
  /** Ids of the path entries the context was built from: root … parent of `entryId`. */
  pathEntryIds: string[];
  /** The compaction entry in force for this turn, if any. */
  compactionId: string | null;
  warnings: ReaderWarning[];
}

/** Extra behaviour supplied by other modules (not cloneable, so not part of PipelineOptions). */
export interface PipelineHooks {
  /**
   * Replaces the built-in SP-C5 reply-language note step (src/core/notes, with the session's
   * reading cache); used only when notes apply (senpi, `options.notes` true). The analysis then
   * runs the whole pipeline per turn to mark notes, so keep it for tests and experiments.
   */
  notesStep?: NotesStep | null;
  /**
   * The caller of a walk of every turn's request reads each request before asking for the next
   * and keeps none past the turn after: the walk may then hand out the message lists of a turn
   * in two arrays used in turn, updated in place, instead of a new copy per turn (the copies of
   * a long session's context were most of its walk).
   */
  reuseRequestLists?: boolean;
}

/** What an agent plugs into the pipeline. */
export interface FormatPipeline {
  analyze(session: Session, options: PipelineOptions, hooks: PipelineHooks): SessionAnalysis;
  countTurns(session: Session, options: PipelineOptions): number;
  buildTurnContext(session: Session, options: PipelineOptions, turn: number, hooks: PipelineHooks): TurnContext;
  /**
   * Agents that do not send pi-ai shaped requests (Claude Code, Codex, opencode) build the body
   * themselves; without this, the context goes through the provider serializers.
   */
  buildTurnRequest?(session: Session, options: PipelineOptions, turn: number, hooks: PipelineHooks): BuiltRequest;
  /**
   * Every turn's request of the selected branch in one walk, when the agent can do better than
   * building each turn on its own (pi: one walk of the branch, shared message caches).
   */
  iterateTurnRequests?(session: Session, options: PipelineOptions, hooks: PipelineHooks): Iterable<{ turn: number; request: BuiltRequest }>;
  /**
   * Every turn's context messages of the selected branch in one walk, without serializing the
   * requests: each turn's `messages` are exactly its request's `messages` (same objects, same
   * order). For passes that read messages only (the session search index).
   */
  iterateTurnMessages?(session: Session, options: PipelineOptions, hooks: PipelineHooks): Iterable<{ turn: number; messages: readonly ContextMessage[] }>;
  /**
   * `next` is `previous` with entries appended (a followed file grew; the orchestration has
   * checked that `next.entries` starts with every entry of `previous`, the same objects): hand
   * the per-session caches built for `previous` over to `next`, extended by the appended entries,
   * so that analysing `next` and building its new turns costs what was appended, not the
   * session. `previous` may lose its caches (it is being replaced). Without this hook `next`
   * gets caches of its own, built from all its entries.
   */
  carryCaches?(previous: Session, next: Session): void;
}

/**
 * The per-turn entry points of the orchestration, handed to code that must rebuild turns of any
 * session (the compaction simulator's policies) so that it needs no import of the registry.
 */
export interface TurnPipeline {
  countTurns(session: Session, options: PipelineOptions): number;
  buildTurnContext(session: Session, options: PipelineOptions, turn: number, hooks?: PipelineHooks): TurnContext;
  buildTurnRequest(session: Session, options: PipelineOptions, turn: number, hooks?: PipelineHooks): BuiltRequest;
}
