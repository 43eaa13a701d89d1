// The provider request of one turn context for the formats whose agent sends pi-ai shaped
// requests (pi, senpi): resolve the model, pick the wire shape, run the serializer. Shared by
// `buildTurnRequest` (one turn) and `iterateTurnRequests` (every turn in one walk) so both yield
// the same body.
import type { ApiId, BuiltRequest, ContextMessage, LlmMessage, ModelInfo, ModelRef, PipelineOptions, Session } from "../model";
import { resolveModel } from "../models/catalogue";
import type { TurnContext } from "../pipeline/types";
import { getSerializer } from "./";

/**
 * Wire shape: `options.api`, else the api recorded on the answering assistant message (both in
 * `context.api`), else the model's catalogue api, else "openai-completions".
 */
/**
 * The session id pi hands its provider as `sessionId` (the `id` of the file's first line, the
 * session header): the Responses serializer sends it as `prompt_cache_key`.
 */
export function sessionIdOf(session: Session): string | undefined {
  const id = session.header?.id;
  return typeof id === "string" && id !== "" ? id : undefined;
}

/** A context's messages as the walk's append-only list of their LlmMessages, at the length it had then. */
const carriedLlmMessages = new WeakMap<readonly ContextMessage[], { list: LlmMessage[]; length: number }>();

/**
 * Records that `list` holds the LlmMessages of `messages` (a turn context's list), in order, as
 * its first `messages.length` items. `list` must only ever grow at its end (a session walk's
 * carried list): the serializer then goes on from the previous turn's request instead of taking
 * each context message's LlmMessage again and comparing them.
 */
export function carryLlmMessages(messages: readonly ContextMessage[], list: LlmMessage[]): void {
  carriedLlmMessages.set(messages, { list, length: messages.length });
}

/** The LlmMessages of `messages`: the walk's carried list while it has not grown past them, else a new list. */
function llmMessagesOf(messages: readonly ContextMessage[]): { list: LlmMessage[]; growing: boolean } {
  const carried = carriedLlmMessages.get(messages);
  if (carried && carried.length === messages.length && carried.list.length === carried.length) return { list: carried.list, growing: true };
  return { list: messages.map((item) => item.message), growing: false };
}

/**
 * The request of one turn context. `reuseWalk`: the walk's own object, when its reader keeps no
 * request past the turn after (SerializeInput.reuseWalk).
 */
/** The model the previous turn resolved without overrides, and what it was resolved from. */
let lastModel: { provider: string; modelId: string; api: ApiId | null; model: ModelInfo } | null = null;

/**
 * resolveModel for a turn: without overrides (which an editor may change in place), the previous
 * turn's model when it was resolved from the same provider, model id and api (a walk's turns
 * mostly name the same model), else resolved anew.
 */
function turnModelInfo(ref: ModelRef | null, api: ApiId | null, overrides: PipelineOptions["modelOverrides"]): ModelInfo {
  if (overrides !== undefined || ref === null) return resolveModel(ref, api, overrides);
  const last = lastModel;
  if (last && last.api === api && last.provider === ref.provider && last.modelId === ref.modelId) return last.model;
  const model = resolveModel(ref, api, undefined);
  lastModel = { provider: ref.provider, modelId: ref.modelId, api, model };
  return model;
}

export function serializeTurnContext(context: TurnContext, options: PipelineOptions, sessionId?: string, reuseWalk?: object): BuiltRequest {
  const model = turnModelInfo(context.model, context.api, options.modelOverrides);
  const api: ApiId = context.api ?? model.api ?? "openai-completions";
  const messages = llmMessagesOf(context.messages);
  const serialized = getSerializer(api).serialize({
    model,
    messages: messages.list,
    messagesGrowing: messages.growing,
    ...(reuseWalk ? { reuseWalk } : {}),
    header: options.header ?? null,
    thinkingLevel: context.thinkingLevel,
    ...(sessionId !== undefined ? { options: { sessionId } } : {}),
  });
  return {
    api,
    body: serialized.body,
    messages: context.messages,
    dropped: context.dropped,
    model,
    notRecorded: serialized.notRecorded,
  };
}
