// The request body opencode sends for a main request, a title request or a summariser request
// (FM-OC-10): Chat Completions through @ai-sdk/openai-compatible, top-level keys in the order
// `model`, `max_tokens`, `messages`, `tools`, `tool_choice`, `stream`, `stream_options`; title and
// summariser requests leave out `tools` and `tool_choice`. The system prompt and the tool
// definitions are not stored (FM-OC-11): they come from an attached request header (a captured
// opencode request) or are "not recorded" markers. The output cap is the model's output limit
// capped at 32000 (CP-OC-1), which the session does not record either.
import { notRecorded, type ModelInfo, type NotRecorded, type RequestHeader } from "../../model";
import { notInCatalogue } from "../../models/catalogue";
import type { ChatMessage } from "./convert";

/** CP-OC-1: `OUTPUT_TOKEN_MAX`. */
const OPENCODE_OUTPUT_TOKEN_MAX = 32000;

export interface ChatTool {
  type: "function";
  function: { name: string; description: string; parameters: unknown };
}

export interface BodyInput {
  model: ModelInfo;
  /** System prompt text, or a not-recorded marker. */
  system: string | NotRecorded;
  messages: readonly ChatMessage[];
  /** Tool definitions, a not-recorded marker, or null to leave `tools`/`tool_choice` out. */
  tools: ChatTool[] | NotRecorded | null;
  /** The output cap the request carries. */
  maxTokens: number;
}

export function buildChatBody(input: BodyInput): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: input.model.id,
    max_tokens: input.maxTokens,
    messages: [{ role: "system", content: input.system }, ...input.messages],
  };
  if (input.tools !== null) {
    body.tools = input.tools;
    body.tool_choice = "auto";
  }
  body.stream = true;
  body.stream_options = { include_usage: true };
  return body;
}

/** `maxOutputTokens(model)` (CP-OC-1), or the header's cap when a capture is attached. */
export function opencodeMaxTokens(model: ModelInfo, header: RequestHeader | null): { value: number; recorded: boolean } {
  if (header?.maxTokens !== undefined) return { value: header.maxTokens, recorded: true };
  const limit = model.maxTokens > 0 ? Math.min(model.maxTokens, OPENCODE_OUTPUT_TOKEN_MAX) : OPENCODE_OUTPUT_TOKEN_MAX;
  return { value: limit, recorded: !notInCatalogue(model) };
}

/** System prompt from the header, else a marker (FM-OC-11). `what` names the missing prompt. */
export function headerSystem(header: RequestHeader | null, what: string, labels: string[]): string | NotRecorded {
  if (header?.systemPrompt !== undefined) return header.systemPrompt;
  labels.push("system");
  return notRecorded(what);
}

/** Tool definitions from the header in Chat Completions form, else a marker. */
export function headerTools(header: RequestHeader | null, labels: string[]): ChatTool[] | NotRecorded {
  if (header?.tools !== undefined) {
    return header.tools.map((tool) => ({
      type: "function",
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    }));
  }
  labels.push("tools");
  return notRecorded("tool definitions");
}
