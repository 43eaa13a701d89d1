// The provider request of one turn context for the formats whose agent sends pi-ai shaped
// requests (pi, senpi): resolve the model, pick the wire shape, run the serializer. Shared by
// `buildTurnRequest` (one turn) and `iterateTurnRequests` (every turn in one walk) so both yield
// the same body.
import type { ApiId, BuiltRequest, PipelineOptions } from "../model";
import { resolveModel } from "../models/catalogue";
import type { TurnContext } from "../pipeline/types";
import { getSerializer } from "./";

/**
 * Wire shape: `options.api`, else the api recorded on the answering assistant message (both in
 * `context.api`), else the model's catalogue api, else "openai-completions".
 */
export function serializeTurnContext(context: TurnContext, options: PipelineOptions): BuiltRequest {
  const model = resolveModel(context.model, context.api, options.modelOverrides);
  const api: ApiId = context.api ?? model.api ?? "openai-completions";
  const serialized = getSerializer(api).serialize({
    model,
    messages: context.messages.map((item) => item.message),
    header: options.header ?? null,
    thinkingLevel: context.thinkingLevel,
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
