// The opt-in contents of an inference span: the rebuilt request's messages, system instructions
// and tool definitions in the GenAI conventions' JSON shapes (`gen_ai.input.messages`,
// `gen_ai.system_instructions`, `gen_ai.tool.definitions`), masked by the project's redaction
// before they leave the core. Messages come from the request's context messages (one shape for
// every provider); the system prompt and the tools from the provider-shaped body.
import type { BuiltRequest, LlmMessage } from "../../model";
import { secretDetector } from "../../check/secretDetector";
import { redactJson } from "../../redact/json";
import type { RedactionFinding } from "../../redact/types";
import { textString, withTextsDecoded } from "../../text/text";

type Part = Record<string, unknown>;

interface ChatMessage {
  role: string;
  parts: Part[];
}

function messageOf(message: LlmMessage): ChatMessage {
  if (message.role === "user") {
    const blocks = typeof message.content === "string" || !Array.isArray(message.content) ? [{ type: "text" as const, text: message.content }] : message.content;
    return {
      role: "user",
      parts: blocks.map((block) => (block.type === "text" ? { type: "text", content: textString(block.text) } : { type: "blob", modality: "image", mime_type: block.mimeType })),
    };
  }
  if (message.role === "assistant") {
    return {
      role: "assistant",
      parts: message.content.map((block): Part => {
        if (block.type === "text") return { type: "text", content: textString(block.text) };
        if (block.type === "thinking") return { type: "reasoning", content: textString(block.thinking) };
        return { type: "tool_call", id: block.id, name: block.name, arguments: block.arguments };
      }),
    };
  }
  const response = message.content.map((block) => (block.type === "text" ? textString(block.text) : `[image ${block.mimeType}]`)).join("\n");
  return { role: "tool", parts: [{ type: "tool_call_response", id: message.toolCallId, response }] };
}

function textsOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => {
    if (typeof item === "string") return [item];
    const text = (item as Record<string, unknown> | null)?.text;
    return typeof text === "string" ? [text] : [];
  });
}

/** The system prompt as the body carries it, whatever the provider's shape. */
export function systemTexts(request: BuiltRequest, body: Record<string, unknown>): string[] {
  if (request.api === "anthropic-messages") return textsOf(body.system);
  if (request.api === "google-generative-ai") return textsOf((body.systemInstruction as Record<string, unknown> | undefined)?.parts);
  if (request.api === "openai-responses" && typeof body.instructions === "string") return [body.instructions];
  const list = (request.api === "openai-responses" ? body.input : body.messages) as unknown[] | undefined;
  return (Array.isArray(list) ? list : [])
    .filter((item) => ["system", "developer"].includes(String((item as Record<string, unknown>).role)))
    .flatMap((item) => textsOf((item as Record<string, unknown>).content));
}

interface ToolEntry {
  name?: unknown;
  description?: unknown;
  parameters?: unknown;
  input_schema?: unknown;
  function?: ToolEntry;
  functionDeclarations?: ToolEntry[];
}

/** Tool definitions in every provider's shape, as `{type, name, description, parameters}`. */
function toolDefinitions(body: Record<string, unknown>): Part[] {
  const tools = Array.isArray(body.tools) ? (body.tools as ToolEntry[]) : [];
  const flat = tools.flatMap((tool) => tool.functionDeclarations ?? [tool.function ?? tool]);
  return flat
    .filter((tool) => typeof tool.name === "string")
    .map((tool) => ({ type: "function", name: tool.name, description: tool.description ?? "", parameters: tool.parameters ?? tool.input_schema ?? {} }));
}

export interface RequestContents {
  attributes: Record<string, string>;
  findings: RedactionFinding[];
}

/** The three content attributes of one request (JSON texts), redacted when asked. */
export function requestContents(request: BuiltRequest, where: string, redaction: { redact: boolean; unmasked: string[] }): RequestContents {
  const body = withTextsDecoded(request.body);
  const contents = {
    "gen_ai.input.messages": request.messages.map((item) => messageOf(item.message)),
    "gen_ai.system_instructions": systemTexts(request, body).map((content) => ({ type: "text", content })),
    "gen_ai.tool.definitions": toolDefinitions(body),
  };
  const redacted = redaction.redact ? redactJson(contents, { unmasked: redaction.unmasked, catalogue: secretDetector(), path: where }) : { value: contents, findings: [] };
  const attributes: Record<string, string> = {};
  for (const [key, value] of Object.entries(redacted.value)) if (value.length > 0) attributes[key] = JSON.stringify(value);
  return { attributes, findings: redacted.findings };
}
