// Turns of a pi/senpi session (PI-R10…PI-R12): the k-th assistant message entry on the selected
// branch answers main request k, whose context is the projection with the leaf set to that
// entry's parent. `analyzePiSession` walks the branch once, keeping the projection and the
// per-turn sizes incremental (design.md §3); `buildPiTurnContext` does the full pipeline for one
// turn only. With reply-language notes on (senpi), the projection adds the compaction carrier,
// the note step runs after user words and before the environment fold (SP-C5, RL-29), and the
// analysis follows the notes incrementally (NotesTally) to mark the turns that carry one. For the
// pi profile the walk also keeps a trace of its converted lists, which the request walk follows.
import { piProfileOf, type PiProfileId } from "./profile";
import type {
  AssistantMessage,
  CompactionEvent,
  ContextMessage,
  ModelRef,
  PipelineOptions,
  ReaderWarning,
  Session,
  SessionEntry,
  TimelineItem,
  TurnSummary,
} from "../../model";
import { carriesNote } from "../../notes/carries-note";
import { NOTE_RULE } from "../../notes/insert";
import type { PipelineHooks, SessionAnalysis, TurnContext } from "../../pipeline/types";
import { estimateMessageTokens } from "./estimate";
import { convertProjectedSized, convertToLlm, llmMessageChars } from "./convert";
import { defaultNotesStep, notesSetupFor, type NotesSetup } from "./notesSetup";
import { NotesTally } from "./notesTally";
import { PathProjector, projectPath, type ProjectedMessage } from "./projection";
import { applySenpiSteps, SenpiTally, type NotesStep } from "./senpi";
import { applySenpiReduction, compactionWithoutUsage, validUsageTokens } from "./senpi-reduction-step";
import { senpiSentSizeDelta } from "./senpi-sent-sizes";
import { getBranchPath, getPiSessionCache, keepTurnProjection, MAX_TURN_PROJECTIONS, turnProjectionKey, type BranchPath, type PiSessionCache } from "./sessionCache";
import { cycleWarning, isAssistantEntry, listBranches, resolveLeafId } from "./tree";
import { turnApi, turnModel } from "./turnModel";
import { ConversionTrace } from "./turnTrace";
import { isText, textUnits } from "../../text/text";


function assistantOf(entry: SessionEntry): AssistantMessage {
  return entry.raw.message as AssistantMessage;
}

function sameModel(a: ModelRef | null, b: ModelRef | null): boolean {
  return a?.provider === b?.provider && a?.modelId === b?.modelId;
}

/** Running sizes of the projected context, updated per appended message. */
class ContextAggregates {
  estimatedTokens = 0;
  chars = 0;
  private convertedCount = 0;
  private conversionDrops = 0;
  /** Converted messages carrying a note of their own (the compaction summary's carrier). */
  private carriers = 0;
  private tally: SenpiTally | null;
  private notesTally: NotesTally | null;
  private readonly profile: PiProfileId;
  private readonly notes: NotesSetup | null;
  /** The converted lists as they grow, for the request walk (pi profile without notes). */
  readonly trace: ConversionTrace | null;

  constructor(profile: PiProfileId, notes: NotesSetup | null, projectionWarnings: readonly ReaderWarning[]) {
    this.profile = profile;
    this.trace = profile === "pi" && notes === null ? new ConversionTrace(projectionWarnings) : null;
    this.notes = profile === "senpi" ? notes : null;
    this.notesTally = this.notes ? new NotesTally(this.notes, undefined) : null;
    this.tally = profile === "senpi" ? new SenpiTally({}, this.notesTally) : null;
  }

  /** Messages sent, before notes are added. */
  get messageCount(): number {
    return this.tally ? this.tally.messageCount : this.convertedCount;
  }

  /** The incremental note count still equals the step's (see SenpiTally.retroactive). */
  get notesExact(): boolean {
    return this.notesTally !== null && this.tally !== null && !this.tally.retroactive;
  }

  /** Notes inserted into the context as it stands, and whether any message carries a note. */
  notesNow(): { count: number; chars: number; tokens: number; hasNote: boolean } {
    const inserted = this.notesTally?.count(this.tally?.pendingUserWords ?? false) ?? { count: 0, chars: 0, tokens: 0 };
    return { ...inserted, hasNote: inserted.count > 0 || this.carriers > 0 };
  }

  get hasDropped(): boolean {
    return this.conversionDrops > 0 || (this.tally !== null && this.tally.droppedCount > 0);
  }

  add(projected: ProjectedMessage): void {
    // The conversion and its sizes in one look-up: each is computed once per message.
    const sized = convertProjectedSized(projected, this.profile);
    const converted = sized.converted;
    this.trace?.append(converted, projected.line);
    if (converted.dropped) this.conversionDrops += 1;
    if (!converted.context) return;
    this.estimatedTokens += sized.tokens;
    this.chars += sized.chars;
    this.convertedCount += 1;
    if (converted.context.provenance.note) this.carriers += 1;
    this.tally?.feed(converted.context);
  }

  /** Restart from a new projected list; `priorUserMessages` as the projection keeps them (RL-14). */
  rebuild(list: readonly ProjectedMessage[], priorUserMessages: ProjectedContextUsers): void {
    this.estimatedTokens = 0;
    this.chars = 0;
    this.convertedCount = 0;
    this.conversionDrops = 0;
    this.carriers = 0;
    this.trace?.reset();
    this.notesTally = this.notes ? new NotesTally(this.notes, priorUserMessages) : null;
    this.tally = this.profile === "senpi" ? new SenpiTally({}, this.notesTally) : null;
    for (const projected of list) this.add(projected);
  }
}

type ProjectedContextUsers = PathProjector["priorUserMessages"];

/** The converted context of the projector's current state after every pipeline step. */
function fullContext(projector: PathProjector, notesStep: NotesStep | null): ContextMessage[] {
  const converted = convertToLlm(projector.messages, projector.profile).messages;
  if (projector.profile !== "senpi") return converted;
  return applySenpiSteps(converted, { notes: notesStep !== null, notesStep }).messages;
}

/** Per-turn sizes with notes, from the whole pipeline (custom note step, or SP-C2 replacements). */
function sizesFromFullContext(
  projector: PathProjector,
  notesStep: NotesStep,
  aggregates: ContextAggregates,
): { messageCount: number; chars: number; estimatedTokens: number; hasNote: boolean } {
  const messages = fullContext(projector, notesStep);
  let chars = aggregates.chars;
  let estimatedTokens = aggregates.estimatedTokens;
  for (const item of messages) {
    if (item.provenance.rule !== NOTE_RULE) continue;
    chars += llmMessageChars(item.message);
    estimatedTokens += estimateMessageTokens(item.message, { profile: projector.profile });
  }
  return { messageCount: messages.length, chars, estimatedTokens, hasNote: messages.some(carriesNote) };
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
    summaryChars: isText(raw.summary) ? textUnits(raw.summary) : 0,
  };
}

function branchWarnings(session: Session, branch: BranchPath): ReaderWarning[] {
  const cache = getPiSessionCache(session);
  const warnings = cache.tree.warnings.slice();
  const cycle = cycleWarning(branch, cache.tree);
  if (cycle) warnings.push(cycle);
  return warnings;
}

/**
 * Where a walk of a branch stands: what `analyzePiSession` has built from the first `consumed`
 * entries of the branch. Kept per session memo and options, so that when a followed session
 * grows the next analysis goes on from here with the appended entries only.
 */
interface AnalysisWalk {
  /** The branch entries walked (the branch path's array when it was walked). */
  entries: readonly SessionEntry[];
  consumed: number;
  projector: PathProjector;
  aggregates: ContextAggregates;
  turns: TurnSummary[];
  /** The timeline so far, without the compactions after the last turn (they are still pending). */
  timeline: TimelineItem[];
  pendingCompactions: SessionEntry[];
  previousModel: ModelRef | null;
  noUsageSinceCompaction: boolean;
}

/** Walks kept per session memo (the object moves with the memo when the session grows), by options. */
const walks = new WeakMap<PiSessionCache, Map<string, AnalysisWalk>>();
/** Option sets walked per session at most (each walk holds a projected context). */
const MAX_WALKS = 4;

function optionsKey(options: PipelineOptions): string {
  return JSON.stringify(options, (_key, value: unknown) => (value instanceof RegExp ? value.toString() : value));
}

/** The kept walk of these options when `branch` goes on from it (the same entries first), else null. */
function resumableWalk(cache: PiSessionCache, key: string, branch: BranchPath): AnalysisWalk | null {
  const walk = walks.get(cache)?.get(key);
  if (!walk || walk.consumed > branch.entries.length) return null;
  if (walk.entries !== branch.entries) {
    for (let index = walk.consumed - 1; index >= 0; index--) {
      if (walk.entries[index] !== branch.entries[index]) return null;
    }
  }
  return walk;
}

function keepWalk(cache: PiSessionCache, key: string, walk: AnalysisWalk): void {
  let kept = walks.get(cache);
  if (!kept) {
    kept = new Map();
    walks.set(cache, kept);
  }
  kept.delete(key);
  kept.set(key, walk);
  if (kept.size > MAX_WALKS) kept.delete(kept.keys().next().value as string);
}

/**
 * The conversion trace of a kept analysis walk that covers all of `branch` (pi profile without
 * notes: no other walk keeps one), for the request walk to follow; null when no analysis walked it.
 */
export function tracedBranch(cache: PiSessionCache, branch: BranchPath): ConversionTrace | null {
  for (const walk of walks.get(cache)?.values() ?? []) {
    const trace = walk.aggregates.trace;
    if (!trace || walk.entries !== branch.entries || walk.consumed !== branch.entries.length) continue;
    if (trace.marks.length === branch.assistantPositions.length) return trace;
  }
  return null;
}

/**
 * Summaries of every turn of the selected branch and the timeline, in one pass. With notes on,
 * `messageCount`, `chars` and `estimatedTokens` include the inserted notes (each a user message;
 * the carrier's text counts in `chars`, and like the summary wrapper not in the estimate), and
 * `hasNote` marks a turn whose context holds a note or a carrying compaction summary.
 *
 * The walk is kept with the session's memo: analysing the same options again, or the session
 * grown by appended entries (the memo moved to it, sessionCache.ts), goes on from where it
 * stopped, with the same result as a walk from the root. A custom note step is never kept.
 */
export function analyzePiSession(session: Session, options: PipelineOptions, hooks: PipelineHooks = {}): SessionAnalysis {
  const cache = getPiSessionCache(session);
  const leafId = resolveLeafId(cache.tree, options.leafId);
  const branch = getBranchPath(cache, leafId);
  const profile = piProfileOf(options);
  const notes = notesSetupFor(cache.notes, options);
  const customStep = notes ? (hooks.notesStep ?? null) : null;
  const key = customStep ? null : optionsKey(options);
  let walk = key === null ? null : resumableWalk(cache, key, branch);
  // The turns a walk from the root meets are many; their projections are kept for the last one only.
  // A resumed walk (the session grew) keeps the new turns', but only as many as the cache holds:
  // one resumed from a snapshot early in a long file meets nearly every turn, and a projection per
  // turn copies that turn's whole context (work per turn × context).
  const positions = branch.assistantPositions;
  const lastAnswer = positions[positions.length - 1] ?? -1;
  const projectionsFrom = walk ? Math.max(walk.consumed, positions[positions.length - MAX_TURN_PROJECTIONS] ?? 0) : lastAnswer;
  if (!walk) {
    const projector = new PathProjector(profile, cache.entryMessages, notes);
    walk = {
      entries: branch.entries,
      consumed: 0,
      projector,
      aggregates: new ContextAggregates(profile, notes, projector.warnings),
      turns: [],
      timeline: [],
      pendingCompactions: [],
      previousModel: null,
      noUsageSinceCompaction: false,
    };
  }
  const { projector, aggregates, turns, timeline } = walk;

  for (let index = walk.consumed; index < branch.entries.length; index++) {
    const entry = branch.entries[index]!;
    if (isAssistantEntry(entry)) {
      const message = assistantOf(entry);
      const turn = turns.length + 1;
      const model = turnModel(message, projector.model);
      aggregates.trace?.mark(projector);
      if (index >= projectionsFrom && branch.cycleAt === null) {
        keepTurnProjection(cache, turnProjectionKey(profile, notes ? notes.key : null, entry.id), projector.snapshot());
      }
      for (const compaction of walk.pendingCompactions) timeline.push(compactionEvent(compaction, turn));
      timeline.push({ kind: "turn", turn });
      // The sizes as they stand (no object per turn unless notes or senpi's steps change them).
      let messageCount = aggregates.messageCount;
      let chars = aggregates.chars;
      let estimatedTokens = aggregates.estimatedTokens;
      let hasNote = false;
      if (notes && (customStep || !aggregates.notesExact)) {
        const sizes = sizesFromFullContext(projector, customStep ?? defaultNotesStep(notes, projector.priorUserMessages), aggregates);
        ({ messageCount, chars, estimatedTokens, hasNote } = sizes);
      } else if (notes) {
        const inserted = aggregates.notesNow();
        messageCount += inserted.count;
        chars += inserted.chars;
        estimatedTokens += inserted.tokens;
        hasNote = inserted.hasNote;
      }
      // What senpi sent: its reduction and emergency prune near the limit (senpi-sent-sizes.ts).
      const sent = profile === "senpi" ? senpiSentSizeDelta({ projected: projector.messages, compactionWithoutUsage: walk.noUsageSinceCompaction, model, answer: message, options, estimatedTokens: aggregates.estimatedTokens }) : null;
      if (sent) {
        messageCount += sent.messages;
        chars += sent.chars;
        estimatedTokens += sent.tokens;
      }
      turns.push({
        turn,
        entryId: entry.id,
        timestamp: entry.timestamp,
        model,
        api: turnApi(message, options),
        thinkingLevel: projector.thinkingLevel,
        messageCount,
        estimatedTokens,
        chars,
        usage: message.usage ?? null,
        stopReason: message.stopReason ?? null,
        afterCompaction: walk.pendingCompactions.length > 0,
        modelSwitched: turn > 1 && !sameModel(walk.previousModel, model),
        hasNote,
        hasDropped: aggregates.hasDropped,
      });
      walk.pendingCompactions = [];
      walk.previousModel = model;
    }
    // As compactionWithoutUsage(path) for the path so far, kept incrementally.
    if (entry.type === "compaction") walk.noUsageSinceCompaction = true;
    else if (isAssistantEntry(entry) && validUsageTokens(entry.raw.message as AssistantMessage) > 0) walk.noUsageSinceCompaction = false;
    const change = projector.push(entry);
    if (change === "append") aggregates.add(projector.messages[projector.messages.length - 1] as ProjectedMessage);
    else if (change === "reset") aggregates.rebuild(projector.messages, projector.priorUserMessages);
    if (entry.type === "compaction") walk.pendingCompactions.push(entry);
  }
  walk.entries = branch.entries;
  walk.consumed = branch.entries.length;
  if (key !== null) keepWalk(cache, key, walk);

  // Copies: the kept walk goes on appending to its own lists.
  const fullTimeline = timeline.slice();
  for (const compaction of walk.pendingCompactions) fullTimeline.push(compactionEvent(compaction, null));
  return {
    branches: listBranches(cache.tree),
    leafId,
    turns: turns.slice(),
    timeline: fullTimeline,
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
  const notes = notesSetupFor(cache.notes, options);
  // The analysis keeps the projection of the newest turns it walked past (a followed session's).
  const kept = branch.cycleAt === null ? cache.turnProjections.get(turnProjectionKey(piProfileOf(options), notes ? notes.key : null, answer.id)) : undefined;
  const context =
    kept ??
    projectPath(path, piProfileOf(options), cache.entryMessages, notes);
  const converted = convertToLlm(context.messages, piProfileOf(options));
  let messages = converted.messages;
  let dropped = converted.dropped;
  if (options.profile === "senpi") {
    // SP-C7 … SP-C10: senpi's context reduction runs on the context before its conversion steps.
    messages = applySenpiReduction({ messages, projected: context.messages, compactionWithoutUsage: compactionWithoutUsage(path), model: turnModel(message, context.model), answer: message, options });
    // SP-C5: the built-in note step unless a hook replaces it; nothing when notes are off.
    const notesStep = notes ? (hooks.notesStep ?? defaultNotesStep(notes, context.priorUserMessages)) : null;
    const steps = applySenpiSteps(messages, { notes: notesStep !== null, notesStep });
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
