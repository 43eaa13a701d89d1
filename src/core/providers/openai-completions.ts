// OpenAI Chat Completions (`api: "openai-completions"`) as pi sends it: PI-R4 … PI-R7, pinned
// byte for byte by the fixtures pi/print-openai-autocompact and senpi/print-openai-autocompact.
// Behaviour outside the fixtures follows pi-ai openai-completions.ts (facts only):
//  - system role "developer" only when the model reasons and supports the developer role [INF];
//  - user content kept as a string when stored as a string, else parts (images as image_url parts,
//    dropped when the model takes no images);
//  - assistant text blocks (non-blank) joined with "" into a string, tool calls after it;
//    thinking is sent only when the first thinking block carries a signature, as the field named
//    by that signature (e.g. "reasoning_content"), joined with "\n"; otherwise it is dropped
//    [INF: PROV-OAI-THINKING]; an assistant message with neither content nor tool calls is skipped;
//  - one `tool` message per result (text joined with "\n", "(see attached image)" when empty),
//    result images follow in one user message "Attached image(s) from tool result:";
//  - `reasoning_effort` when thinking is on and the model reasons and supports it
//    [INF: PROV-REASONING-EFFORT].
import type {
  AssistantMessage,
  LlmMessage,
  ModelInfo,
  RequestHeader,
  TextBlock,
  ThinkingBlock,
  ToolCallBlock,
  ToolDefinition,
  ToolResultMessage,
  UserMessage,
} from "../model";
import { isNotRecorded } from "../model";
import type { ProviderSerializer, SerializeInput, SerializeOutput } from "./registry";
import {
  appendExtraSettings,
  clampReasoning,
  collectExtraSettings,
  isBlank,
  joinText,
  neutralTool,
  numberOrUndefined,
  resolveMaxTokens,
  resolveSystemPrompt,
  sameSystemPrompt,
  resolveTools,
  sanitizeText,
  textOfContent,
  thinkingToReasoning,
  imageDataUrl,
} from "./shared";
import { isObject } from "../util/is-object";
import { isText, textUnits, type Text } from "../text/text";
import { joinTexts } from "../text/textTests";
import { prepareMessages } from "./transform";
import { anthropicMessagesSerializer } from "./anthropic-messages";
import { WireCache } from "./wire-cache";
import { CarriedWire, messageWireStep, type MessageWireForms } from "./carried-wire";

const SERIALIZER_ID = "openai-completions";

/** Top-level keys this serializer derives itself; everything else in a capture is an extra setting. */
const DERIVED_KEYS: ReadonlySet<string> = new Set([
  "model",
  "messages",
  "stream",
  "stream_options",
  "store",
  "max_completion_tokens",
  "max_tokens",
  "tools",
  "reasoning_effort",
]);

const IMAGE_RESULT_INTRO = "Attached image(s) from tool result:";
const IMAGE_ONLY_RESULT = "(see attached image)";

/** pi-ai: ids of the form `call|item` (OpenAI Responses) keep the call part, sanitised, ≤ 40 chars. */
function normaliseToolCallId(model: ModelInfo): (id: string) => string {
  return (id) => {
    if (id.includes("|")) {
      const callId = id.split("|")[0] ?? id;
      return callId.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 40);
    }
    return model.provider === "openai" && id.length > 40 ? id.slice(0, 40) : id;
  };
}

function imageUrl(mimeType: string, data: Text): Record<string, unknown> {
  return { type: "image_url", image_url: { url: imageDataUrl(mimeType, data) } };
}

function hasToolHistory(messages: readonly LlmMessage[]): boolean {
  return messages.some(
    (message) =>
      message.role === "toolResult" ||
      (message.role === "assistant" && message.content.some((block) => block.type === "toolCall")),
  );
}

function convertTools(tools: readonly ToolDefinition[]): Record<string, unknown>[] {
  return tools.map((tool) => ({
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: tool.parameters, strict: false },
  }));
}

function convertAssistant(message: AssistantMessage): Record<string, unknown> | null {
  const wire: Record<string, unknown> = { role: "assistant", content: null };
  const texts = message.content.filter((block): block is TextBlock => block.type === "text" && !isBlank(block.text));
  if (texts.length > 0) wire.content = joinTexts(texts.map((block) => sanitizeText(block.text)), "");

  const thinking = message.content.filter(
    (block): block is ThinkingBlock => block.type === "thinking" && !isBlank(block.thinking),
  );
  const signature = thinking[0]?.thinkingSignature;
  if (signature && signature !== "__proto__") {
    wire[signature] = joinTexts(thinking.map((block) => block.thinking), "\n");
  }

  const calls = message.content.filter((block): block is ToolCallBlock => block.type === "toolCall");
  if (calls.length > 0) {
    wire.tool_calls = calls.map((call) => ({
      id: call.id,
      type: "function",
      function: { name: call.name, arguments: JSON.stringify(call.arguments) },
    }));
  }
  const hasContent = isText(wire.content) && textUnits(wire.content) > 0;
  if (!hasContent && calls.length === 0) return null;
  return wire;
}

type WireMessage = Record<string, unknown>;

/** Wire forms per message (user: per image support), the system message, and converted tools. */
const messageWire = new WireCache<WireMessage | null>();
const toolsWire = new WireCache<Record<string, unknown>[]>();
/** The previous request's wire messages after the system message (carried-wire.ts). */
const carriedMessages = new CarriedWire<WireMessage>();
let lastSystemMessage: WireMessage | null = null;

function systemMessage(role: string, content: unknown): WireMessage {
  if (lastSystemMessage?.role !== role || !sameSystemPrompt(lastSystemMessage.content, content)) {
    lastSystemMessage = Object.freeze({ role, content });
  }
  return lastSystemMessage;
}

function userWire(message: UserMessage, supportsImages: boolean): WireMessage | null {
  if (isText(message.content)) return { role: "user", content: sanitizeText(message.content) };
  const parts = message.content
    .filter((block) => block.type === "text" || supportsImages)
    .map((block) => (block.type === "text" ? { type: "text", text: sanitizeText(block.text) } : imageUrl(block.mimeType, block.data)));
  return parts.length > 0 ? { role: "user", content: parts } : null;
}

function toolWire(result: ToolResultMessage): WireMessage {
  const text = joinText(result.content, "\n");
  return { role: "tool", content: sanitizeText(textUnits(text) > 0 ? text : IMAGE_ONLY_RESULT), tool_call_id: result.toolCallId };
}

/** One step of the wire list: a user or assistant message, or a run of tool results. */
function wireStep(list: readonly LlmMessage[], i: number, wire: WireMessage[], supportsImages: boolean, forms: MessageWireForms<WireMessage>): number {
  const next = messageWireStep(list, i, wire, forms);
  if (next !== null) return next;
  // A run of tool results: one `tool` message each, then their images in one user message.
  const images: Record<string, unknown>[] = [];
  let j = i;
  for (; j < list.length && list[j]!.role === "toolResult"; j++) {
    const result = list[j] as ToolResultMessage;
    wire.push(messageWire.get("tool", result, () => toolWire(result)) as WireMessage);
    if (supportsImages) {
      for (const block of result.content) if (block.type === "image") images.push(imageUrl(block.mimeType, block.data));
    }
  }
  if (images.length > 0) wire.push({ role: "user", content: [{ type: "text", text: IMAGE_RESULT_INTRO }, ...images] });
  return j;
}

function serialize(input: SerializeInput): SerializeOutput {
  const { model, header } = input;
  const notRecordedLabels: string[] = [];
  const prepared = prepareMessages(
    input.messages,
    model,
    normaliseToolCallId(model),
    input.options?.transformMessages,
    SERIALIZER_ID,
    input.messagesGrowing,
  );
  const supportsImages = model.supportsImages === true;
  const userConfig = supportsImages ? "user+images" : "user";
  const system = resolveSystemPrompt(header, notRecordedLabels);
  const head = system === null ? [] : [systemMessage(model.reasoning && model.supportsDeveloperRole ? "developer" : "system", system)];
  const forms: MessageWireForms<WireMessage> = {
    cache: messageWire,
    userConfig,
    user: (message) => userWire(message, supportsImages),
    assistant: convertAssistant,
  };
  const messages = carriedMessages.build(userConfig, prepared.messages, (list, i, wire) => wireStep(list, i, wire, supportsImages, forms), {
    head,
    growing: prepared.growing,
    ...(input.reuseWalk ? { reuseWalk: input.reuseWalk } : {}),
  });

  const body: Record<string, unknown> = {
    model: model.id,
    messages,
    stream: true,
    stream_options: { include_usage: true },
  };
  if (model.supportsStore !== false) body.store = false;
  body[model.maxTokensField ?? "max_completion_tokens"] = resolveMaxTokens(input);

  const tools = resolveTools(input, notRecordedLabels);
  if (tools === null) {
    // pi-ai sends an empty list when tools are absent but the conversation used tools.
    if (hasToolHistory(input.messages)) body.tools = [];
  } else {
    body.tools = isNotRecorded(tools) ? tools : toolsWire.get("tools", tools, () => convertTools(tools));
  }

  const reasoning = thinkingToReasoning(input.thinkingLevel);
  if (reasoning && model.reasoning && model.supportsReasoningEffort && input.options?.reasoningEffort !== false) {
    body.reasoning_effort = clampReasoning(reasoning, model);
  }

  appendExtraSettings(body, header, "openai-completions");
  return { body, notRecorded: notRecordedLabels, adjustments: prepared.adjustments };
}

/** Any `messages` body that does not carry an Anthropic signal. */
function detect(body: Record<string, unknown>): boolean {
  return (
    Array.isArray(body.messages) && !("contents" in body) && !("input" in body) && !anthropicMessagesSerializer.detect(body)
  );
}

function extractHeader(body: Record<string, unknown>, source: string): RequestHeader {
  const messages = Array.isArray(body.messages) ? body.messages.filter(isObject) : [];
  const systemTexts: string[] = [];
  for (const message of messages) {
    if (message.role !== "system" && message.role !== "developer") break;
    const text = textOfContent(message.content);
    if (text !== undefined) systemTexts.push(text);
  }
  const header: RequestHeader = {
    api: "openai-completions",
    systemPrompt: systemTexts.join("\n\n"),
    extraSettings: collectExtraSettings(body, DERIVED_KEYS),
    source,
  };
  if (Array.isArray(body.tools)) {
    header.tools = body.tools
      .filter(isObject)
      .map((tool) => {
        const fn = isObject(tool.function) ? tool.function : null;
        return fn ? neutralTool(fn.name, fn.description, fn.parameters) : null;
      })
      .filter((tool): tool is ToolDefinition => tool !== null);
  }
  const maxTokens = numberOrUndefined(body.max_completion_tokens) ?? numberOrUndefined(body.max_tokens);
  if (maxTokens !== undefined) header.maxTokens = maxTokens;
  return header;
}

export const openaiCompletionsSerializer: ProviderSerializer = {
  id: SERIALIZER_ID,
  label: "OpenAI Chat Completions",
  fidelity: "exact",
  detect,
  serialize,
  extractHeader,
};
