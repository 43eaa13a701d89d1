// Shared builders for the provider serializer tests: a model, messages and headers in pi-ai shape.
import type { AssistantMessage, ModelInfo, RequestHeader, ToolResultMessage, UserMessage } from "../../../src/core/model";
import type { ApiId } from "../../../src/core/model";

export function testModel(api: ApiId, overrides: Partial<ModelInfo> = {}): ModelInfo {
  return {
    provider: "test",
    id: "test-model",
    api,
    contextWindow: 100000,
    maxTokens: 8000,
    reasoning: false,
    supportsDeveloperRole: false,
    supportsReasoningEffort: false,
    source: "test",
    ...overrides,
  };
}

export function user(text: string): UserMessage {
  return { role: "user", content: [{ type: "text", text }] };
}

export function assistant(api: ApiId, content: AssistantMessage["content"], extra: Partial<AssistantMessage> = {}): AssistantMessage {
  return { role: "assistant", content, api, provider: "test", model: "test-model", stopReason: "stop", ...extra };
}

export function result(toolCallId: string, text: string, isError = false, toolName = "bash"): ToolResultMessage {
  return { role: "toolResult", toolCallId, toolName, content: [{ type: "text", text }], isError };
}

export const TOOLS = [
  {
    name: "read",
    description: "Read a file",
    parameters: { type: "object", required: ["path"], properties: { path: { type: "string" } } },
  },
  {
    name: "bash",
    description: "Run a command",
    parameters: { type: "object", required: ["command"], properties: { command: { type: "string" } }, additionalProperties: false },
  },
];

export function header(api: ApiId, extra: Partial<RequestHeader> = {}): RequestHeader {
  return { api, systemPrompt: "You are a test.", tools: TOOLS, maxTokens: 1234, extraSettings: {}, source: "test", ...extra };
}

export const PNG = { type: "image" as const, data: "iVBORw0KGgo=", mimeType: "image/png" };
