// Turns of a pi/senpi session (PI-R10…PI-R12): the k-th assistant message entry on the selected
// branch answers main request k, whose context is the projection with the leaf set to that
// entry's parent. `analyzePiSession` walks the branch once, keeping the projection and the
// per-turn sizes incremental (design.md §3); `buildPiTurnContext` does the full pipeline for one
// turn only.
import { API_IDS } from "../model";
import type {
  ApiId,
  AssistantMessage,
  BranchInfo,
  CompactionEvent,
  ContextMessage,
  DroppedMessage,
  ModelRef,
  PipelineOptions,
  ProfileId,
  ReaderWarning,
  Session,
  SessionEntry,
  TimelineItem,
  TurnSummary,
} from "../model";
import { estimateMessageTokens } from "../tokens/estimate";
import { convertProjected, convertToLlm, llmMessageChars } from "./convert";
import { PathProjector, projectPath, type ProjectedMessage } from "./projection";
import { applySenpiSteps, SenpiTally, type NotesStep } from "./senpi";
import { getBranchPath, getPiSessionCache, type BranchPath } from "./sessionCache";
import { cycleWarning, isAssistantEntry, listBranches, resolveLeafId } from "./tree";

export interface SessionAnalysis {
  branches: BranchInfo[];
  /** The leaf of the branch analysed (after PI-P1 defaulting), null for an empty session. */
  leafId: string | null;
  turns: TurnSummary[];
  timeline: TimelineItem[];
  /** Pipeline warnings: line 0 for the whole session, else the line of the entry concerned. */
  warnings: ReaderWarning[];
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
  /** SP-C5 reply-language notes step; used only when `options.notes` is true (senpi). */
  notesStep?: NotesStep | null;
}

function assistantOf(entry: SessionEntry): AssistantMessage {
  return entry.raw.message as AssistantMessage;
}

function isApiId(value: unknown): value is ApiId {
  return typeof value === "string" && (API_IDS as readonly string[]).includes(value);
}

/** The model that answered: recorded on the assistant message; PI-P3's walk as a fallback. */
function turnModel(message: AssistantMessage, walked: ModelRef | null): ModelRef | null {
  if (typeof message.provider === "string" && typeof message.model === "string") {
    return { provider: message.provider, modelId: message.model };
  }
  return walked;
}

function turnApi(message: AssistantMessage, options: PipelineOptions): ApiId | null {
  if (options.api) return options.api;
  return isApiId(message.api) ? message.api : null;
}

function sameModel(a: ModelRef | null, b: ModelRef | null): boolean {
  return a?.provider === b?.provider && a?.modelId === b?.modelId;
}

const estimateCaches: Record<ProfileId, WeakMap<object, number>> = { pi: new WeakMap(), senpi: new WeakMap() };

function estimateOf(projected: ProjectedMessage, profile: ProfileId): number {
  const cache = estimateCaches[profile];
  let tokens = cache.get(projected.message);
  if (tokens === undefined) {
    tokens = estimateMessageTokens(projected.message, { profile });
    cache.set(projected.message, tokens);
  }
  return tokens;
}

/** Running sizes of the projected context, updated per appended message. */
class ContextAggregates {
  estimatedTokens = 0;
  chars = 0;
  private convertedCount = 0;
  private conversionDrops = 0;
  private tally: SenpiTally | null;
  private readonly profile: ProfileId;

  constructor(profile: ProfileId) {
    this.profile = profile;
    this.tally = profile === "senpi" ? new SenpiTally() : null;
  }

  get messageCount(): number {
    return this.tally ? this.tally.messageCount : this.convertedCount;
  }

  get hasDropped(): boolean {
    return this.conversionDrops > 0 || (this.tally !== null && this.tally.droppedCount > 0);
  }

  add(projected: ProjectedMessage): void {
    const converted = convertProjected(projected, this.profile);
    if (converted.dropped) this.conversionDrops += 1;
    if (!converted.context) return;
    this.estimatedTokens += estimateOf(projected, this.profile);
    this.chars += llmMessageChars(converted.context.message);
    this.convertedCount += 1;
    this.tally?.feed(converted.context);
  }

  rebuild(list: readonly ProjectedMessage[]): void {
    this.estimatedTokens = 0;
    this.chars = 0;
    this.convertedCount = 0;
    this.conversionDrops = 0;
    this.tally = this.profile === "senpi" ? new SenpiTally() : null;
    for (const projected of list) this.add(projected);
  }
}

function compactionEvent(entry: SessionEntry, beforeTurn: number | null): CompactionEvent {
  const raw = entry.raw;
  return {
    kind: "compaction",
    entryId: entry.id,
    beforeTurn,
    timestamp: entry.timestamp,
    tokensBefore: typeof raw.tokensBefore === "number" ? raw.tokensBefore : null,
    firstKeptEntryId: typeof raw.firstKeptEntryId === "string" ? raw.firstKeptEntryId : null,
    summaryChars: typeof raw.summary === "string" ? raw.summary.length : 0,
  };
}

function branchWarnings(session: Session, branch: BranchPath): ReaderWarning[] {
  const cache = getPiSessionCache(session);
  const warnings = cache.tree.warnings.slice();
  const cycle = cycleWarning(branch, cache.tree);
  if (cycle) warnings.push(cycle);
  return warnings;
}

/** Summaries of every turn of the selected branch and the timeline, in one pass. */
export function analyzePiSession(session: Session, options: PipelineOptions): SessionAnalysis {
  const cache = getPiSessionCache(session);
  const leafId = resolveLeafId(cache.tree, options.leafId);
  const branch = getBranchPath(cache, leafId);
  const profile = options.profile;
  const projector = new PathProjector(profile, cache.entryMessages);
  const aggregates = new ContextAggregates(profile);
  const turns: TurnSummary[] = [];
  const timeline: TimelineItem[] = [];
  let pendingCompactions: SessionEntry[] = [];
  let previousModel: ModelRef | null = null;

  for (const entry of branch.entries) {
    if (isAssistantEntry(entry)) {
      const message = assistantOf(entry);
      const turn = turns.length + 1;
      const model = turnModel(message, projector.model);
      for (const compaction of pendingCompactions) timeline.push(compactionEvent(compaction, turn));
      timeline.push({ kind: "turn", turn });
      turns.push({
        turn,
        entryId: entry.id,
        timestamp: entry.timestamp,
        model,
        api: turnApi(message, options),
        thinkingLevel: projector.thinkingLevel,
        messageCount: aggregates.messageCount,
        estimatedTokens: aggregates.estimatedTokens,
        chars: aggregates.chars,
        usage: message.usage ?? null,
        stopReason: message.stopReason ?? null,
        afterCompaction: pendingCompactions.length > 0,
        modelSwitched: turn > 1 && !sameModel(previousModel, model),
        hasNote: false,
        hasDropped: aggregates.hasDropped,
      });
      pendingCompactions = [];
      previousModel = model;
    }
    const change = projector.push(entry);
    if (change === "append") aggregates.add(projector.messages[projector.messages.length - 1] as ProjectedMessage);
    else if (change === "reset") aggregates.rebuild(projector.messages);
    if (entry.type === "compaction") pendingCompactions.push(entry);
  }
  for (const compaction of pendingCompactions) timeline.push(compactionEvent(compaction, null));

  return {
    branches: listBranches(cache.tree),
    leafId,
    turns,
    timeline,
    warnings: [...branchWarnings(session, branch), ...projector.warnings],
  };
}

/** Number of turns (main requests) on the selected branch. */
export function countPiTurns(session: Session, options: PipelineOptions): number {
  const cache = getPiSessionCache(session);
  return getBranchPath(cache, resolveLeafId(cache.tree, options.leafId)).assistantPositions.length;
}

/** The context of one turn: projection to the answering entry's parent, conversion, senpi steps. */
export function buildPiTurnContext(
  session: Session,
  options: PipelineOptions,
  turn: number,
  hooks: PipelineHooks = {},
): TurnContext {
  const cache = getPiSessionCache(session);
  const branch = getBranchPath(cache, resolveLeafId(cache.tree, options.leafId));
  const position = Number.isInteger(turn) ? branch.assistantPositions[turn - 1] : undefined;
  if (position === undefined) {
    throw new RangeError(`turn ${turn} does not exist: the branch has ${branch.assistantPositions.length} turns`);
  }
  const answer = branch.entries[position] as SessionEntry;
  const message = assistantOf(answer);
  const path = branch.entries.slice(0, position);
  const context = projectPath(path, options.profile, cache.entryMessages);
  const converted = convertToLlm(context.messages, options.profile);
  let messages = converted.messages;
  let dropped = converted.dropped;
  if (options.profile === "senpi") {
    const steps = applySenpiSteps(messages, { notes: options.notes === true, notesStep: hooks.notesStep ?? null });
    messages = steps.messages;
    dropped = [...dropped, ...steps.dropped];
  }
  return {
    turn,
    entryId: answer.id,
    messages,
    dropped,
    model: turnModel(message, context.model),
    thinkingLevel: context.thinkingLevel,
    api: turnApi(message, options),
    pathEntryIds: path.map((entry) => entry.id),
    compactionId: context.compactionId,
    warnings: [...context.warnings, ...converted.warnings],
  };
}
