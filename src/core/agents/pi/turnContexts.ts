// Every turn's context of a pi/senpi branch in one walk (design §3 "never quadratic"): the path is
// projected once with PathProjector and the converted list follows it incrementally (append: one
// conversion; reset after a compaction or context_edit: reconversion from the per-message cache).
// Each turn's context equals `buildPiTurnContext` for that turn (checked by
// test/core/turnRequests.test.ts), without projecting the path from the root for every turn.
import { piProfileOf, type PiProfileId } from "./profile";
import type {
  AssistantMessage,
  ContextMessage,
  DroppedMessage,
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
import type { PipelineHooks, TurnContext } from "../../pipeline/types";

function hasValidUsage(message: AssistantMessage): boolean {
  if (!message.usage || message.stopReason === "aborted" || message.stopReason === "error") return false;
  return calculateContextTokens(message.usage) > 0;
}

/** convertToLlm's output, kept current as the projected list grows. */
class IncrementalConversion {
  messages: ContextMessage[] = [];
  dropped: DroppedMessage[] = [];
  warnings: ReaderWarning[] = [];

  constructor(private readonly profile: PiProfileId) {}

  append(projected: ProjectedMessage): void {
    const converted = convertProjected(projected, this.profile);
    if (converted.context) this.messages.push(converted.context);
    if (converted.dropped) this.dropped.push(converted.dropped);
    if (converted.warning) this.warnings.push({ line: projected.line, reason: converted.warning });
  }

  reset(list: readonly ProjectedMessage[]): void {
    this.messages = [];
    this.dropped = [];
    this.warnings = [];
    for (const projected of list) this.append(projected);
  }
}

export interface TurnContextWalkOptions {
  /**
   * Fill `pathEntryIds` (default true). A copy of the path per turn is the one part of a context
   * that grows with the branch rather than the context: request building leaves it empty.
   */
  pathEntryIds?: boolean;
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
  const projector = new PathProjector(profile, cache.entryMessages, notes);
  const conversion = new IncrementalConversion(profile);
  const pathEntryIds: string[] = [];
  let turn = 0;
  // senpi's getContextUsage: a compaction with no successful answer since (SP-C7).
  let compactionWithoutUsage = false;

  for (const entry of branch.entries as SessionEntry[]) {
    if (isAssistantEntry(entry)) {
      turn++;
      const message = entry.raw.message as AssistantMessage;
      let messages = conversion.messages.slice();
      let dropped = conversion.dropped.slice();
      if (profile === "senpi") {
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
        warnings: [...projector.warnings, ...conversion.warnings],
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
