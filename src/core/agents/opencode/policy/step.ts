// One opencode compaction over stored rows (compaction-policies.md §5.2 … §5.5): model scope,
// tail, summariser input and request, the rows the compaction stores, and the next request's
// messages. Shared by the policy and by the spiral run.
import type { InstructionSlotValues } from "../../../simulate/types";
import { rowToChat, type ChatMessage } from "./chat";
import { buildOpencodeSummariserBody, type OpencodeSummariserBody } from "./request";
import { CONTINUE_TEXT, type OcMessage } from "./rows";
import { filterCompacted, isCompletedBefore, isCompletedSummary, type ModelScope, type ScopeOptions } from "./scope";
import { summariserInput, type SummariserInput } from "./serialize";
import { selectTail, type TailChoice } from "./tail";

export interface StepOptions extends ScopeOptions {
  preserveBudget: number;
  tailTurns?: number | null;
  model: string;
  maxTokens: number;
  instructions?: InstructionSlotValues;
}

export interface CompactionStep {
  scope: ModelScope;
  tail: TailChoice;
  input: SummariserInput;
  request: OpencodeSummariserBody;
  /** ceil(chars / 4) of the request body JSON. */
  requestTokens: number;
}

export function completedPredicateOf(options: ScopeOptions): (row: OcMessage) => boolean {
  const predicate = options.completedPredicate ?? "strict";
  return options.spiralBrake ? (row) => isCompletedSummary(row, predicate) : isCompletedBefore;
}

/** The compaction of `rows` (everything stored before the new compaction request). */
export function compactionStep(rows: readonly OcMessage[], options: StepOptions): CompactionStep {
  const scope = filterCompacted(rows, rows.length, options);
  // Completed compaction pairs are not turns and are hidden from the input (CP-OC-13).
  const tail = selectTail(rows, scope.indexes, options.preserveBudget, options.tailTurns ?? null);
  const input = summariserInput(rows, scope.indexes, tail.tailAt, completedPredicateOf(options));
  const request = buildOpencodeSummariserBody({
    model: options.model,
    maxTokens: options.maxTokens,
    conversation: input.conversation,
    priorSummary: input.priorSummary,
    ...(options.instructions ? { instructions: options.instructions } : {}),
  });
  return { scope, tail, input, request, requestTokens: Math.ceil(JSON.stringify(request.body).length / 4) };
}

let counter = 0;
function simId(kind: string): string {
  counter += 1;
  return `sim-${kind}-${counter}`;
}

export interface StoredCompaction {
  compactionUser: OcMessage;
  summary: OcMessage;
  continueMessage: OcMessage | null;
}

/** CP-OC-24/25: the rows a compaction stores (failed attempts carry an error and no finish). */
export function storedCompactionRows(options: {
  auto: boolean;
  overflow?: boolean;
  tailStartId: string | null;
  summaryText: string;
  failed?: { message: string } | null;
}): StoredCompaction {
  const userId = simId("compaction");
  const part: OcMessage["parts"][number] = { type: "compaction", auto: options.auto, overflow: options.overflow ?? false };
  if (options.tailStartId) part.tail_start_id = options.tailStartId;
  const compactionUser: OcMessage = { info: { id: userId, role: "user" }, parts: [part] };
  const info: OcMessage["info"] = { id: simId("summary"), role: "assistant", parentID: userId, summary: true };
  if (options.failed) info.error = { name: "ContextOverflowError", data: { message: options.failed.message } };
  else info.finish = "stop";
  const summary: OcMessage = { info, parts: options.summaryText !== "" ? [{ type: "text", text: options.summaryText }] : [] };
  const continueMessage: OcMessage | null =
    options.auto && !options.failed
      ? { info: { id: simId("continue"), role: "user" }, parts: [{ type: "text", text: CONTINUE_TEXT, synthetic: true, metadata: { compaction_continue: true } }] }
      : null;
  return { compactionUser, summary, continueMessage };
}

/** The chat messages of the next main request over `rows` (scope per CP-OC-7/10). */
export function nextRequestMessages(rows: readonly OcMessage[], options: ScopeOptions): { scope: ModelScope; messages: ChatMessage[] } {
  const scope = filterCompacted(rows, rows.length, options);
  return { scope, messages: scope.indexes.flatMap((i) => rowToChat(rows[i] as OcMessage)) };
}
