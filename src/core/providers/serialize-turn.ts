// The provider request of one turn context for the formats whose agent sends pi-ai shaped
// requests (pi, senpi): resolve the model, pick the wire shape, run the serializer. Shared by
// `buildTurnRequest` (one turn) and `iterateTurnRequests` (every turn in one walk) so both yield
// the same body.
import type { ApiId, BuiltRequest, PipelineOptions, Session } from "../model";
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

export function serializeTurnContext(context: TurnContext, options: PipelineOptions, sessionId?: string): BuiltRequest {
  const model = resolveModel(context.model, context.api, options.modelOverrides);
  const api: ApiId = context.api ?? model.api ?? "openai-completions";
  const serialized = getSerializer(api).serialize({
    model,
    messages: context.messages.map((item) => item.message),
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
