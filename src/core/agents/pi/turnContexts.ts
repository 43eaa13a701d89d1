// Every turn's context of a pi/senpi branch in one walk (design §3 "never quadratic"): the path is
// projected once with PathProjector and the converted list follows it incrementally (append: one
// conversion; reset after a compaction or context_edit: reconversion from the per-message cache).
// Each turn's context equals `buildPiTurnContext` for that turn (checked by
// test/core/turnRequests.test.ts), without projecting the path from the root for every turn.
// When the analysis walked the branch already (pi profile, no notes), the walk follows the
// analysis' conversion trace (turnTrace.ts) instead of projecting the branch a second time.
import { piProfileOf, type PiProfileId } from "./profile";
import type {
  AssistantMessage,
  ContextMessage,
  DroppedMessage,
  LlmMessage,
  PipelineOptions,
  ReaderWarning,
  Session,
  SessionEntry,
} from "../../model";
import { calculateContextTokens } from "./compaction/context-tokens";
import { convertProjected } from "./convert";
import { defaultNotesStep, notesSetupFor } from "./notesSetup";
import { PathProjector, type ProjectedMessage } from "./projection";
import { applySenpiSteps } from "./senpi";
import { applySenpiReduction } from "./senpi-reduction-step";
import { getBranchPath, getPiSessionCache } from "./sessionCache";
import { isAssistantEntry, resolveLeafId } from "./tree";
import { turnApi, turnModel } from "./turnModel";
import { tracedBranch } from "./turns";
import type { ConversionTrace, TurnMark } from "./turnTrace";
import type { BranchPath } from "./sessionCache";
import { AlternatingLists } from "../../providers/alternating-lists";
import { carryLlmMessages } from "../../providers/serialize-turn";
import { recordSharedHead } from "../../util/list-lineage";
import type { PipelineHooks, TurnContext } from "../../pipeline/types";

function hasValidUsage(message: AssistantMessage): boolean {
  if (!message.usage || message.stopReason === "aborted" || message.stopReason === "error") return false;
  return calculateContextTokens(message.usage) > 0;
}

/**
 * convertToLlm's output, kept current as the projected list grows. Its lists only grow at their
 * end; a reset starts new lists (the old ones stay as they were, so a turn may keep them).
 */
class IncrementalConversion {
  messages: ContextMessage[] = [];
  /** The LlmMessage of each of `messages`, in order (the serializers' input, carried). */
  llmMessages: LlmMessage[] = [];
  dropped: DroppedMessage[] = [];
  warnings: ReaderWarning[] = [];
  /** How many leading `messages` the list the last turn took (`taken`) had as well. */
  unchanged = 0;
  taken: readonly ContextMessage[] = [];
  /** The two lists handed out in turn when the walk's reader allows it (`take`). */
  private handOut = new AlternatingLists<ContextMessage>();
  /** The analysis trace's lists these follow (`follow`), or null. */
  private followed: readonly ContextMessage[] | null = null;
  private followedDropped: readonly DroppedMessage[] | null = null;
  private followedWarnings: readonly ReaderWarning[] | null = null;

  constructor(private readonly profile: PiProfileId) {}

  append(projected: ProjectedMessage): void {
    const converted = convertProjected(projected, this.profile);
    if (converted.context) {
      this.messages.push(converted.context);
      this.llmMessages.push(converted.context.message);
    }
    if (converted.dropped) this.dropped.push(converted.dropped);
    if (converted.warning) this.warnings.push({ line: projected.line, reason: converted.warning });
  }

  reset(list: readonly ProjectedMessage[]): void {
    this.messages = [];
    this.llmMessages = [];
    this.dropped = [];
    this.warnings = [];
    for (const projected of list) this.append(projected);
    this.findUnchanged();
  }

  /** After a reset: how much of the list taken last the new list still starts with. */
  private findUnchanged(): void {
    // Converted messages are cached per message, so a context_edit's reset mostly keeps the
    // same head: found once here, at the reset's own cost, not on every turn after it.
    const limit = Math.min(this.unchanged, this.messages.length);
    let same = 0;
    while (same < limit && this.messages[same] === this.taken[same]) same++;
    this.unchanged = same;
  }

  /**
   * Brought to a turn of the analysis walk's trace instead of projected entries: the lists grow by
   * the trace's items since the turn before, or restart where the trace restarted its own.
   */
  follow(mark: TurnMark): void {
    if (mark.messages !== this.followed) {
      this.followed = mark.messages;
      this.messages = [];
      this.llmMessages = [];
      this.grow(mark);
      this.findUnchanged();
    } else this.grow(mark);
    if (mark.dropped !== this.followedDropped) {
      this.followedDropped = mark.dropped;
      this.dropped = [];
    }
    for (let i = this.dropped.length; i < mark.droppedCount; i++) this.dropped.push(mark.dropped[i]!);
    if (mark.warnings !== this.followedWarnings) {
      this.followedWarnings = mark.warnings;
      this.warnings = [];
    }
    for (let i = this.warnings.length; i < mark.warningCount; i++) this.warnings.push(mark.warnings[i]!);
  }

  private grow(mark: TurnMark): void {
    for (let i = this.messages.length; i < mark.messageCount; i++) {
      const context = mark.messages[i]!;
      this.messages.push(context);
      this.llmMessages.push(context.message);
    }
  }

  /**
   * The turn's own copy of the messages (one copy per turn: a turn's list is kept by its request),
   * recorded as sharing its head with the previous turn's, and tied to the carried LlmMessage list.
   * With `reuseWalk` (a reader that keeps no request past the turn after), one of two lists handed
   * out in turn and brought up to date with the new messages instead of a copy.
   */
  take(reuseWalk?: object): ContextMessage[] {
    const messages = reuseWalk ? this.handOut.next(this.messages, reuseWalk) : this.messages.slice();
    recordSharedHead(messages, this.taken, this.unchanged);
    carryLlmMessages(messages, this.llmMessages);
    this.taken = messages;
    this.unchanged = messages.length;
    return messages;
  }
}

/** A list rebuilt only when one of its parts changed since the turn before (turns share it: read only). */
class JoinedOnChange<T> {
  private parts: readonly (readonly T[])[] = [];
  private lengths: number[] = [];
  private joined: T[] = [];

  of(...parts: readonly (readonly T[])[]): T[] {
    const same =
      parts.length === this.parts.length && parts.every((part, i) => part === this.parts[i] && part.length === this.lengths[i]);
    if (!same) {
      this.parts = parts;
      this.lengths = parts.map((part) => part.length);
      this.joined = parts.length === 1 ? parts[0]!.slice() : ([] as T[]).concat(...parts);
    }
    return this.joined;
  }
}

export interface TurnContextWalkOptions {
  /**
   * Fill `pathEntryIds` (default true). A copy of the path per turn is the one part of a context
   * that grows with the branch rather than the context: request building leaves it empty.
   */
  pathEntryIds?: boolean;
  /**
   * The walk's reader keeps no context past the turn after (PipelineHooks.reuseRequestLists):
   * this object names the walk, and each turn's message list is one of two handed out in turn.
   * pi only: senpi's steps make a list of their own per turn.
   */
  reuseWalk?: object;
}

/**
 * The context of every turn of the selected branch, in order. Linear in the branch size plus the
 * size of each turn's message list (references only: messages are shared between turns).
 */
export function* iteratePiTurnContexts(
  session: Session,
  options: PipelineOptions,
  hooks: PipelineHooks = {},
  walk: TurnContextWalkOptions = {},
): Generator<TurnContext> {
  const withPathIds = walk.pathEntryIds ?? true;
  const cache = getPiSessionCache(session);
  const branch = getBranchPath(cache, resolveLeafId(cache.tree, options.leafId));
  const profile = piProfileOf(options);
  const notes = notesSetupFor(cache.notes, options);
  // The analysis walked this branch already (the usual order): follow its trace.
  const trace = profile === "pi" && notes === null ? tracedBranch(cache, branch) : null;
  if (trace) {
    yield* followTrace(trace, branch, options, walk);
    return;
  }
  const projector = new PathProjector(profile, cache.entryMessages, notes);
  const conversion = new IncrementalConversion(profile);
  const pathEntryIds: string[] = [];
  const droppedLists = new JoinedOnChange<DroppedMessage>();
  const warningLists = new JoinedOnChange<ReaderWarning>();
  let turn = 0;
  // senpi's getContextUsage: a compaction with no successful answer since (SP-C7).
  let compactionWithoutUsage = false;

  for (const entry of branch.entries as SessionEntry[]) {
    if (isAssistantEntry(entry)) {
      turn++;
      const message = entry.raw.message as AssistantMessage;
      let messages: ContextMessage[];
      let dropped: DroppedMessage[];
      if (profile !== "senpi") {
        // The context grows by the messages since the previous turn: carried, one copy per turn.
        messages = conversion.take(walk.reuseWalk);
        dropped = droppedLists.of(conversion.dropped);
      } else {
        messages = conversion.messages.slice();
        dropped = conversion.dropped.slice();
        // SP-C7 … SP-C10: senpi's context reduction runs on the context before its conversion steps.
        messages = applySenpiReduction({ messages, projected: projector.messages, compactionWithoutUsage, model: turnModel(message, projector.model), answer: message, options });
        // SP-C5: the built-in note step unless a hook replaces it; nothing when notes are off.
        const notesStep = notes ? (hooks.notesStep ?? defaultNotesStep(notes, projector.priorUserMessages)) : null;
        const steps = applySenpiSteps(messages, { notes: notesStep !== null, notesStep });
        messages = steps.messages;
        dropped = [...dropped, ...steps.dropped];
      }
      yield {
        turn,
        entryId: entry.id,
        messages,
        dropped,
        model: turnModel(message, projector.model),
        thinkingLevel: projector.thinkingLevel,
        api: turnApi(message, options),
        pathEntryIds: withPathIds ? pathEntryIds.slice() : [],
        compactionId: projector.compactionId,
        warnings: warningLists.of(projector.warnings, conversion.warnings),
      };
    }
    const change = projector.push(entry);
    if (entry.type === "compaction") compactionWithoutUsage = true;
    else if (isAssistantEntry(entry) && hasValidUsage(entry.raw.message as AssistantMessage)) compactionWithoutUsage = false;
    if (withPathIds) pathEntryIds.push(entry.id);
    if (change === "append") conversion.append(projector.messages[projector.messages.length - 1] as ProjectedMessage);
    else if (change === "reset") conversion.reset(projector.messages);
  }
}

/** iteratePiTurnContexts from the analysis walk's trace of the branch (pi profile, no notes). */
function* followTrace(trace: ConversionTrace, branch: BranchPath, options: PipelineOptions, walk: TurnContextWalkOptions): Generator<TurnContext> {
  const withPathIds = walk.pathEntryIds ?? true;
  const conversion = new IncrementalConversion("pi");
  const projectionWarnings: ReaderWarning[] = [];
  const pathEntryIds: string[] = [];
  const droppedLists = new JoinedOnChange<DroppedMessage>();
  const warningLists = new JoinedOnChange<ReaderWarning>();
  for (let index = 0; index < trace.marks.length; index++) {
    const mark = trace.marks[index]!;
    const position = branch.assistantPositions[index]!;
    const entry = branch.entries[position]!;
    conversion.follow(mark);
    for (let i = projectionWarnings.length; i < mark.projectionWarningCount; i++) projectionWarnings.push(trace.projectionWarnings[i]!);
    if (withPathIds) for (let i = pathEntryIds.length; i < position; i++) pathEntryIds.push(branch.entries[i]!.id);
    const message = entry.raw.message as AssistantMessage;
    yield {
      turn: index + 1,
      entryId: entry.id,
      messages: conversion.take(walk.reuseWalk),
      dropped: droppedLists.of(conversion.dropped),
      model: turnModel(message, mark.model),
      thinkingLevel: mark.thinkingLevel,
      api: turnApi(message, options),
      pathEntryIds: withPathIds ? pathEntryIds.slice() : [],
      compactionId: mark.compactionId,
      warnings: warningLists.of(projectionWarnings, conversion.warnings),
    };
  }
}
