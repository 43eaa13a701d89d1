// Model and api of a pi/senpi turn, shared by the per-turn pipeline (turns.ts) and the one-walk
// context builder (turnContexts.ts) so both label a turn the same way.
import { API_IDS } from "../../model";
import type { ApiId, AssistantMessage, ModelRef, PipelineOptions } from "../../model";

function isApiId(value: unknown): value is ApiId {
  return typeof value === "string" && (API_IDS as readonly string[]).includes(value);
}

/** The model that answered: recorded on the assistant message; PI-P3's walk as a fallback. */
export function turnModel(message: AssistantMessage, walked: ModelRef | null): ModelRef | null {
  if (typeof message.provider === "string" && typeof message.model === "string") {
    return { provider: message.provider, modelId: message.model };
  }
  return walked;
}

/** The api of the turn: the options' override, else the one recorded on the assistant message. */
export function turnApi(message: AssistantMessage, options: PipelineOptions): ApiId | null {
  if (options.api) return options.api;
  return isApiId(message.api) ? message.api : null;
}
