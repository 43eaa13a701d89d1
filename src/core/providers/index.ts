// The provider serializers as one static list (no runtime registration), lookup by pi API name,
// detection of a captured body's shape, and extraction of a request header from a capture.
import type { ApiId, RequestHeader } from "../model";
import { anthropicMessagesSerializer } from "./anthropic-messages";
import { googleGenerativeAiSerializer } from "./google-generative-ai";
import { openaiCompletionsSerializer } from "./openai-completions";
import { openaiResponsesSerializer } from "./openai-responses";
import type { ProviderSerializer } from "./registry";
import { isObject } from "../util/is-object";

export type { ProviderSerializer, SerializeInput } from "./registry";

/**
 * All serializers, in detection priority order: the shapes with unambiguous top-level keys first
 * (Google `contents`, Responses `input`), then Anthropic (needs a positive signal), then Chat
 * Completions (any other `messages` body).
 */
const SERIALIZERS: readonly ProviderSerializer[] = [
  googleGenerativeAiSerializer,
  openaiResponsesSerializer,
  anthropicMessagesSerializer,
  openaiCompletionsSerializer,
];

export function getSerializer(api: ApiId): ProviderSerializer {
  const found = SERIALIZERS.find((serializer) => serializer.id === api);
  if (!found) throw new Error(`No serializer for API "${String(api)}"`);
  return found;
}

export function listSerializers(): ProviderSerializer[] {
  return [...SERIALIZERS];
}

/** The wire shape of a parsed request body, or null when it matches none. */
export function detectRequestShape(body: unknown): ApiId | null {
  if (!isObject(body)) return null;
  return SERIALIZERS.find((serializer) => serializer.detect(body))?.id ?? null;
}

/**
 * A request header (system prompt, tools, output cap, other settings) from a captured request
 * body of any supported shape. Throws with a message fit for the UI when the body is not a JSON
 * object or has no recognisable shape.
 */
export function extractRequestHeader(body: unknown, source: string): RequestHeader {
  if (!isObject(body)) {
    const kind = body === null ? "null" : Array.isArray(body) ? "an array" : `a ${typeof body}`;
    throw new Error(`A request header must be a JSON object (a captured request body); got ${kind}.`);
  }
  const api = detectRequestShape(body);
  if (!api) {
    throw new Error(
      "Not a recognised request body: expected `messages` (Chat Completions or Anthropic Messages), " +
        "`input` (OpenAI Responses) or `contents` (Google Gemini).",
    );
  }
  return getSerializer(api).extractHeader(body, source);
}
