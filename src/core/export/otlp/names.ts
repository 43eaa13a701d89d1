// The OpenTelemetry GenAI semantic conventions' words this export writes: the provider's
// well-known name, the finish reasons, and span and trace ids derived from the session, so that
// exporting the same session twice gives the same trace (a backend then keeps one copy).
import type { ApiId, ModelRef } from "../../model";
import { sha256Hex } from "../../util/sha256";

/** The convention's `gen_ai.provider.name` for a provider id as agents record it. */
const PROVIDER_NAMES: Record<string, string> = {
  anthropic: "anthropic",
  openai: "openai",
  "openai-codex": "openai",
  "azure-openai-responses": "azure.ai.openai",
  google: "gcp.gemini",
  "google-gemini-cli": "gcp.gemini",
  "google-vertex": "gcp.vertex_ai",
  "amazon-bedrock": "aws.bedrock",
  mistral: "mistral_ai",
  xai: "x_ai",
  deepseek: "deepseek",
  groq: "groq",
  perplexity: "perplexity",
  cohere: "cohere",
};

/** Without a recorded provider, the wire shape says whose API was called. */
const API_PROVIDERS: Record<ApiId, string> = {
  "anthropic-messages": "anthropic",
  "openai-completions": "openai",
  "openai-responses": "openai",
  "google-generative-ai": "gcp.gemini",
};

export function providerName(model: ModelRef | null, api: ApiId): string {
  const recorded = model?.provider.toLowerCase() ?? "";
  return PROVIDER_NAMES[recorded] ?? (recorded !== "" ? recorded : API_PROVIDERS[api]);
}

/** Stop reasons as pi names them, in the convention's words; any other word is passed on as recorded. */
const FINISH_REASONS: Record<string, string> = {
  stop: "stop",
  end_turn: "stop",
  length: "length",
  max_tokens: "length",
  toolUse: "tool_call",
  tool_use: "tool_call",
  error: "error",
};

export function finishReason(stopReason: string): string {
  return FINISH_REASONS[stopReason] ?? stopReason;
}

/** Stop reasons of a call that did not answer: its span's status is an error. */
export const FAILED_STOP_REASONS: ReadonlySet<string> = new Set(["error", "aborted"]);

export function traceIdOf(conversationId: string): string {
  return sha256Hex(`contextscope trace ${conversationId}`).slice(0, 32);
}

/** A span id from what the span stands for (`agent main`, `chat main 3`, …) within its trace. */
export function spanIdOf(traceId: string, key: string): string {
  return sha256Hex(`${traceId} ${key}`).slice(0, 16);
}
