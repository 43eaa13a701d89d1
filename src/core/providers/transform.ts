// The message clean-up pi-ai applies inside every provider before converting to wire shape
// (pi-ai transform-messages.ts, facts only):
//  1. assistant messages from another model (provider/api/id differ) lose what only that model
//     can read: thinking becomes plain text (blank thinking is dropped, redacted thinking too),
//     text signatures and tool-call thought signatures are dropped, and tool-call ids may be
//     rewritten by the provider's id normaliser (tool results follow the rewrite);
//  2. assistant messages that ended in `error` or `aborted` are skipped;
//  3. tool calls left without a result when the next assistant or user message arrives get a
//     synthetic error result "No result provided".
// With a cache key (the serializer's id), every message the transform creates is cached per
// source message and target model, so the same conversation prefix yields the same objects on
// every turn and the serializers' per-message caches hit (design §3 "never quadratic").
import type { AssistantMessage, LlmMessage, ModelInfo, ToolCallBlock, ToolResultMessage } from "../model";
import type { SerializeAdjustment } from "./registry";
import { isBlankText } from "../text/textTests";
import { sharedHeadWith } from "../util/list-lineage";

export type ToolCallIdNormaliser = (id: string) => string;

export interface TransformResult {
  /** The messages to send. With a cache key: valid until the next call with that key (read, do not keep). */
  messages: readonly LlmMessage[];
  /**
   * True when `messages` is the transform's carried list: given again as the same array, it has
   * only grown at its end since (CarriedWire then skips comparing the messages it already has).
   */
  growing: boolean;
  adjustments: SerializeAdjustment[];
}

const NO_RESULT_TEXT = "No result provided";

function isSameModel(message: AssistantMessage, model: ModelInfo): boolean {
  return message.provider === model.provider && message.api === model.api && message.model === model.id;
}

function adaptAssistant(
  message: AssistantMessage,
  messageIndex: number,
  model: ModelInfo,
  normaliseId: ToolCallIdNormaliser | null,
  idMap: Map<string, string>,
  adjustments: SerializeAdjustment[],
): AssistantMessage {
  const same = isSameModel(message, model);
  const content: AssistantMessage["content"] = [];
  for (const block of message.content) {
    if (block.type === "thinking") {
      if (block.redacted) {
        if (same) content.push(block);
        else adjustments.push({ kind: "dropped-block", messageIndex, reason: "redacted thinking from another model" });
        continue;
      }
      if (same && block.thinkingSignature) {
        content.push(block);
        continue;
      }
      if (isBlankText(block.thinking)) {
        adjustments.push({ kind: "dropped-block", messageIndex, reason: "empty thinking block" });
        continue;
      }
      if (same) {
        content.push(block);
      } else {
        content.push({ type: "text", text: block.thinking });
        adjustments.push({ kind: "thinking-as-text", messageIndex, reason: "thinking from another model sent as text" });
      }
      continue;
    }
    if (block.type === "text") {
      content.push(same ? block : { type: "text", text: block.text });
      continue;
    }
    // Tool call.
    let call: ToolCallBlock = block;
    if (!same && call.thoughtSignature !== undefined) {
      const { thoughtSignature: _dropped, ...rest } = call;
      call = rest;
    }
    if (!same && normaliseId) {
      const normalised = normaliseId(call.id);
      if (normalised !== call.id) {
        idMap.set(call.id, normalised);
        call = { ...call, id: normalised };
      }
    }
    content.push(call);
  }
  return { ...message, content };
}

/** An adapted assistant message with what adapting it recorded, replayable at any index. */
interface AdaptedAssistant {
  message: AssistantMessage;
  /** Tool-call id rewrites (original → normalised) the message introduces. */
  idPairs: [string, string][];
  adjustments: Omit<SerializeAdjustment, "messageIndex">[];
}

/** Adapted assistants by source message, then by serializer + target model key. */
const adaptedCache = new WeakMap<AssistantMessage, Map<string, AdaptedAssistant>>();
/** Tool results with a rewritten id, by source result, then by the new id. */
const remappedResults = new WeakMap<ToolResultMessage, Map<string, ToolResultMessage>>();
/** Synthetic "No result provided" results by the (adapted) tool call they answer. */
const syntheticResults = new WeakMap<ToolCallBlock, ToolResultMessage>();

function adaptAssistantCached(
  message: AssistantMessage,
  messageIndex: number,
  model: ModelInfo,
  normaliseId: ToolCallIdNormaliser | null,
  idMap: Map<string, string>,
  adjustments: SerializeAdjustment[],
  key: string | undefined,
): AssistantMessage {
  if (key === undefined) return adaptAssistant(message, messageIndex, model, normaliseId, idMap, adjustments);
  // The same model's message that loses nothing is sent as it is: no copy, nothing to cache.
  if (keepsEverything(message, model)) return message;
  let byModel = adaptedCache.get(message);
  if (!byModel) {
    byModel = new Map();
    adaptedCache.set(message, byModel);
  }
  let adapted = byModel.get(key);
  if (!adapted) {
    const localMap = new Map<string, string>();
    const localAdjustments: SerializeAdjustment[] = [];
    const result = adaptAssistant(message, 0, model, normaliseId, localMap, localAdjustments);
    adapted = {
      message: result,
      idPairs: [...localMap.entries()],
      adjustments: localAdjustments.map(({ kind, reason }) => ({ kind, reason })),
    };
    byModel.set(key, adapted);
  }
  for (const [from, to] of adapted.idPairs) idMap.set(from, to);
  for (const adjustment of adapted.adjustments) adjustments.push({ ...adjustment, messageIndex });
  return adapted.message;
}

/**
 * True when adapting `message` for `model` would change nothing: the model wrote it, and it has
 * no blank unsigned thinking block (the one thing dropped from the same model's messages).
 */
function keepsEverything(message: AssistantMessage, model: ModelInfo): boolean {
  if (!isSameModel(message, model)) return false;
  for (const block of message.content) {
    if (block.type === "thinking" && !block.redacted && !block.thinkingSignature && isBlankText(block.thinking)) return false;
  }
  return true;
}

function remappedResult(message: ToolResultMessage, toolCallId: string, cached: boolean): ToolResultMessage {
  if (!cached) return { ...message, toolCallId };
  let byId = remappedResults.get(message);
  if (!byId) {
    byId = new Map();
    remappedResults.set(message, byId);
  }
  let result = byId.get(toolCallId);
  if (!result) {
    result = { ...message, toolCallId };
    byId.set(toolCallId, result);
  }
  return result;
}

function syntheticResultCached(call: ToolCallBlock, cached: boolean): ToolResultMessage {
  if (!cached) return syntheticResult(call);
  let result = syntheticResults.get(call);
  if (!result) {
    result = syntheticResult(call);
    syntheticResults.set(call, result);
  }
  return result;
}

function syntheticResult(call: ToolCallBlock): ToolResultMessage {
  return {
    role: "toolResult",
    toolCallId: call.id,
    toolName: call.name,
    content: [{ type: "text", text: NO_RESULT_TEXT }],
    isError: true,
  };
}

const NO_CALLS: readonly ToolCallBlock[] = [];

/**
 * Where the transform stands after a message list: what it produced and what it still waits for.
 * Kept per cache key so that the next turn's list, which starts with this list's messages, is
 * transformed from here instead of from its first message.
 */
interface TransformState {
  modelKey: string;
  /** The list the last call was given, and the source messages walked (its first ones), in order. */
  input: readonly LlmMessage[];
  sources: LlmMessage[];
  out: LlmMessage[];
  /** The adaptations' adjustments; the skipped messages' and synthetic results' come after them. */
  adaptations: SerializeAdjustment[];
  structural: SerializeAdjustment[];
  idMap: Map<string, string>;
  /** The tool calls waiting for a result, and the results seen since they were made. */
  pending: readonly ToolCallBlock[];
  answered: string[];
  /** The adjustments list last returned, and the two lengths it was made at. */
  adjustments: SerializeAdjustment[];
  adjustedAt: [number, number];
}

function emptyState(modelKey: string): TransformState {
  return {
    modelKey,
    input: [],
    sources: [],
    out: [],
    adaptations: [],
    structural: [],
    idMap: new Map(),
    pending: NO_CALLS,
    answered: [],
    adjustments: [],
    adjustedAt: [0, 0],
  };
}

/** The key of the last model asked for, per cache key: a walk asks the same model turn after turn. */
const lastModelKeys = new Map<string, { model: ModelInfo; key: string }>();

function modelKeyOf(cacheKey: string, model: ModelInfo): string {
  const last = lastModelKeys.get(cacheKey);
  if (last && (last.model === model || (last.model.provider === model.provider && last.model.api === model.api && last.model.id === model.id))) return last.key;
  const key = `${cacheKey}\u0000${model.provider}\u0000${model.api}\u0000${model.id}`;
  lastModelKeys.set(cacheKey, { model, key });
  return key;
}

/** The last state per cache key (one per serializer: the session walk asks one shape at a time). */
const carriedStates = new Map<string, TransformState>();

/**
 * The carried state when `messages` starts with the messages it walked (same objects, same
 * places): known without looking when `messages` is the caller's growing list given last time, or
 * is recorded to share enough of its head with that list (list-lineage.ts); else compared.
 */
function resumableState(cacheKey: string, modelKey: string, messages: readonly LlmMessage[], growing: boolean): TransformState | null {
  const state = carriedStates.get(cacheKey);
  if (!state || state.modelKey !== modelKey || state.sources.length > messages.length) return null;
  const sources = state.sources;
  if (growing && messages === state.input) return state;
  const known = messages === state.input ? undefined : sharedHeadWith(messages, state.input);
  if (known !== undefined) return known >= sources.length ? state : null;
  for (let i = 0; i < sources.length; i++) if (sources[i] !== messages[i]) return null;
  return state;
}

/**
 * pi-ai's `transformMessages` for the target `model`. `cacheKey` (the serializer id, which fixes
 * the id normaliser) turns on the per-message caches: the objects returned are then shared
 * between calls and must not be mutated. With a cache key, a list that starts with the previous
 * call's list goes on from where that call stopped: the transform is one pass in which a message's
 * treatment depends only on the messages before it (the calls still waiting for a result are
 * answered or given a synthetic result when the next message comes, never at the end).
 */
function transformForModel(
  messages: readonly LlmMessage[],
  model: ModelInfo,
  normaliseId: ToolCallIdNormaliser | null,
  cacheKey: string | undefined,
  growing: boolean,
): TransformResult {
  const cached = cacheKey !== undefined;
  const modelKey = cached ? modelKeyOf(cacheKey, model) : "";
  let state = cached ? resumableState(cacheKey, modelKey, messages, growing) : null;
  if (!state) {
    state = emptyState(modelKey);
    if (cached) carriedStates.set(cacheKey, state);
  }
  state.input = messages;
  const { sources, out, adaptations, structural, idMap, answered } = state;
  const current = state;
  const flushOrphans = (beforeIndex: number): void => {
    for (const call of current.pending) {
      if (answered.includes(call.id)) continue;
      out.push(syntheticResultCached(call, cached));
      structural.push({
        kind: "synthesized-tool-result",
        messageIndex: beforeIndex,
        reason: `tool call ${call.id} (${call.name}) had no result`,
      });
    }
    current.pending = NO_CALLS;
    answered.length = 0;
  };

  // One pass: an assistant message is adapted (its tool-call ids mapped) before its results come.
  for (let index = sources.length; index < messages.length; index++) {
    const source = messages[index]!;
    sources.push(source);
    if (source.role === "assistant") {
      const message = adaptAssistantCached(source, index, model, normaliseId, idMap, adaptations, cached ? modelKey : undefined);
      if (current.pending.length > 0) flushOrphans(index);
      if (message.stopReason === "error" || message.stopReason === "aborted") {
        structural.push({ kind: "skipped-message", messageIndex: index, reason: `assistant stopReason ${message.stopReason}` });
        continue;
      }
      const calls = toolCallsOf(message);
      if (calls.length > 0) {
        current.pending = calls;
        answered.length = 0;
      }
      out.push(message);
    } else if (source.role === "toolResult") {
      const mapped = idMap.get(source.toolCallId);
      const message = mapped && mapped !== source.toolCallId ? remappedResult(source, mapped, cached) : source;
      answered.push(message.toolCallId);
      out.push(message);
    } else {
      if (current.pending.length > 0) flushOrphans(index);
      out.push(source);
    }
  }

  // The adaptations' adjustments come first, then the skipped messages' and the synthetic
  // results', each in message order (as pi-ai's two passes give them).
  // Made again only when one of them grew: a walk's turns mostly add none.
  if (adaptations.length !== state.adjustedAt[0] || structural.length !== state.adjustedAt[1] || !cached) {
    state.adjustments = adaptations.length + structural.length === 0 ? [] : [...adaptations, ...structural];
    state.adjustedAt = [adaptations.length, structural.length];
  }
  const adjustments = state.adjustments;
  // With a cache key this list is the carried state's and grows with the next call: the
  // serializers read it in the call and keep no reference to it.
  return { messages: out, adjustments, growing: cached };
}

/** The tool calls of an assistant message, found once per message object (they are shared across turns). */
const toolCallsByMessage = new WeakMap<AssistantMessage, readonly ToolCallBlock[]>();

function toolCallsOf(message: AssistantMessage): readonly ToolCallBlock[] {
  // A message without tool calls (most answers) needs no list and no cache.
  let any = false;
  for (const block of message.content) if (block.type === "toolCall") any = true;
  if (!any) return NO_CALLS;
  let calls = toolCallsByMessage.get(message);
  if (!calls) {
    calls = message.content.filter((block): block is ToolCallBlock => block.type === "toolCall");
    toolCallsByMessage.set(message, calls);
  }
  return calls;
}

/**
 * Runs the transform unless the caller switched it off; `cacheKey` as in `transformForModel`.
 * `growing`: `messages` only ever grows at its end (SerializeInput.messagesGrowing).
 */
export function prepareMessages(
  messages: readonly LlmMessage[],
  model: ModelInfo,
  normaliseId: ToolCallIdNormaliser | null,
  enabled: boolean | undefined,
  cacheKey?: string,
  growing = false,
): TransformResult {
  if (enabled === false) return { messages: [...messages], adjustments: [], growing: false };
  return transformForModel(messages, model, normaliseId, cacheKey, growing);
}
