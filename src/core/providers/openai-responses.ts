// OpenAI Responses (`api: "openai-responses"`): generic mapping (PI-R14), no fixture pins it yet.
// It follows pi-ai openai-responses.ts / openai-responses-shared.ts (facts only):
//  - system prompt as the first input item `{role, content:<string>}`, role "developer" when the
//    model reasons, else "system";
//  - user: `{role:"user",content:[{type:"input_text",text}, {type:"input_image",detail:"auto",image_url}]}`;
//  - assistant text: `{type:"message",role:"assistant",content:[{type:"output_text",text,annotations:[]}],
//    status:"completed",id}` — id from the text signature, else `msg_<message index>`; ids over 64
//    chars are shortened with a hash of ours (pi uses its own hash: such ids differ) [INF];
//  - thinking: the reasoning item stored (as JSON) in its signature, else dropped;
//  - tool calls: pi stores Responses ids as `call_id|item_id`; the call part becomes `call_id`, the
//    item part `id` (omitted when absent, and for fc_ items of a different model of the same
//    provider); tool results: `{type:"function_call_output",call_id,output}` with the call part;
//  - `stream:true`, `prompt_cache_key` (the session id, when given), `store:false`,
//    `max_output_tokens`, tools `{type:"function",name,description,parameters,strict:false}`,
//    `reasoning:{effort,summary:"auto"}` + `include:["reasoning.encrypted_content"]` when thinking
//    is on for a reasoning model; a reasoning gpt-5 model with thinking off gets pi's developer item
//    "# Juice: 0 !important" at the end of the input.
import type {
  AssistantMessage,
  LlmMessage,
  ModelInfo,
  RequestHeader,
  TextBlock,
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
import { prepareMessages } from "./transform";
import { WireCache } from "./wire-cache";
import { CarriedWire } from "./carried-wire";

const SERIALIZER_ID = "openai-responses";

const DERIVED_KEYS: ReadonlySet<string> = new Set([
  "model",
  "input",
  "instructions",
  "stream",
  "prompt_cache_key",
  "prompt_cache_retention",
  "store",
  "max_output_tokens",
  "tools",
  "reasoning",
  "include",
]);

/** Providers whose tool-call ids pi normalises as Responses ids (pi-ai OPENAI_TOOL_CALL_PROVIDERS). */
const RESPONSES_ID_PROVIDERS = new Set(["openai", "openai-codex", "opencode"]);
const IMAGE_ONLY_RESULT = "(see attached image)";
const JUICE_ZERO_TEXT = "# Juice: 0 !important";

type Item = Record<string, unknown>;

function normaliseToolCallId(model: ModelInfo): (id: string) => string {
  return (id) => {
    if (!RESPONSES_ID_PROVIDERS.has(model.provider) || !id.includes("|")) return id;
    const [callPart = "", itemPart = ""] = id.split("|");
    let callId = callPart.replace(/[^a-zA-Z0-9_-]/g, "_");
    let itemId = itemPart.replace(/[^a-zA-Z0-9_-]/g, "_");
    if (!itemId.startsWith("fc")) itemId = `fc_${itemId}`;
    callId = callId.slice(0, 64).replace(/_+$/, "");
    itemId = itemId.slice(0, 64).replace(/_+$/, "");
    return `${callId}|${itemId}`;
  };
}

/** Deterministic short hash (FNV-1a, base 36) for over-long message ids. Not pi's hash. */
function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}

function textSignature(signature: string | undefined): { id: string; phase?: string } | null {
  if (!signature) return null;
  if (signature.startsWith("{")) {
    try {
      const parsed: unknown = JSON.parse(signature);
      if (isObject(parsed) && parsed.v === 1 && typeof parsed.id === "string") {
        const phase = parsed.phase === "commentary" || parsed.phase === "final_answer" ? parsed.phase : undefined;
        return phase ? { id: parsed.id, phase } : { id: parsed.id };
      }
    } catch {
      // Not JSON: a plain id.
    }
  }
  return { id: signature };
}

function assistantItems(message: AssistantMessage, model: ModelInfo, messageIndex: number): Item[] {
  const items: Item[] = [];
  const differentModel = message.model !== model.id && message.provider === model.provider && message.api === model.api;
  for (const block of message.content) {
    if (block.type === "thinking") {
      if (!block.thinkingSignature) continue;
      try {
        const reasoningItem: unknown = JSON.parse(block.thinkingSignature);
        if (isObject(reasoningItem)) items.push(reasoningItem);
      } catch {
        // A signature that is not a stored reasoning item cannot be replayed.
      }
    } else if (block.type === "text") {
      const signature = textSignature((block as TextBlock).textSignature);
      let id = signature?.id ?? `msg_${messageIndex}`;
      if (id.length > 64) id = `msg_${shortHash(id)}`;
      const item: Item = {
        type: "message",
        role: "assistant",
        content: [{ type: "output_text", text: sanitizeText(block.text), annotations: [] }],
        status: "completed",
        id,
      };
      if (signature?.phase) item.phase = signature.phase;
      items.push(item);
    } else {
      const [callId = block.id, rawItemId] = block.id.split("|");
      const itemId = differentModel && rawItemId?.startsWith("fc_") ? undefined : rawItemId;
      const item: Item = { type: "function_call" };
      if (itemId !== undefined) item.id = itemId;
      item.call_id = callId;
      item.name = block.name;
      item.arguments = JSON.stringify(block.arguments);
      items.push(item);
    }
  }
  return items;
}

function convertTools(tools: readonly ToolDefinition[]): Item[] {
  return tools.map((tool) => ({
    type: "function",
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    strict: false,
  }));
}

/** Input items per message, valid for the message index they were built at (assistant ids use it). */
const messageItems = new WireCache<{ index: number; items: Item[] }>();
const toolsWire = new WireCache<Item[]>();
/** The previous request's input items after the system item (carried-wire.ts). */
const carriedItems = new CarriedWire<Item>();
let lastSystemItem: Item | null = null;

function systemItem(role: string, content: unknown): Item {
  if (lastSystemItem?.role !== role || !sameSystemPrompt(lastSystemItem.content, content)) lastSystemItem = Object.freeze({ role, content });
  return lastSystemItem;
}

function userItems(message: UserMessage, supportsImages: boolean): Item[] {
  const parts =
    isText(message.content)
      ? [{ type: "input_text", text: sanitizeText(message.content) }]
      : message.content
          .filter((block) => block.type === "text" || supportsImages)
          .map((block) =>
            block.type === "text"
              ? { type: "input_text", text: sanitizeText(block.text) }
              : { type: "input_image", detail: "auto", image_url: imageDataUrl(block.mimeType, block.data) },
          );
  return parts.length === 0 ? [] : [{ role: "user", content: parts }];
}

function toolResultItems(message: ToolResultMessage, supportsImages: boolean): Item[] {
  const text = joinText(message.content, "\n");
  const images = message.content.filter((block) => block.type === "image");
  let output: Text | Item[];
  if (images.length > 0 && supportsImages) {
    output = [];
    if (textUnits(text) > 0) output.push({ type: "input_text", text: sanitizeText(text) });
    for (const image of images) {
      if (image.type === "image") {
        output.push({ type: "input_image", detail: "auto", image_url: imageDataUrl(image.mimeType, image.data) });
      }
    }
  } else {
    output = sanitizeText(textUnits(text) > 0 ? text : IMAGE_ONLY_RESULT);
  }
  return [{ type: "function_call_output", call_id: message.toolCallId.split("|")[0], output }];
}

/**
 * One message's input items, appended to `wire`. `carried.counter` is the index of the message
 * among those sent (assistant item ids use it; a user message with no content is not counted).
 */
function itemStep(message: LlmMessage, wire: Item[], carried: CarriedWire<Item>, config: string, model: ModelInfo): void {
  const index = carried.counter;
  const supportsImages = model.supportsImages === true;
  const converted = messageItems.getValid(
    config,
    message,
    // Only assistant items depend on the index (`msg_<index>` ids).
    (value) => message.role !== "assistant" || value.index === index,
    () => ({
      index,
      items:
        message.role === "user"
          ? userItems(message, supportsImages)
          : message.role === "assistant"
            ? assistantItems(message, model, index)
            : toolResultItems(message, supportsImages),
    }),
  ).items;
  if (converted.length === 0 && message.role !== "toolResult") return;
  for (const item of converted) wire.push(item);
  carried.counter++;
}

function serialize(input: SerializeInput): SerializeOutput {
  const { model, header } = input;
  const notRecordedLabels: string[] = [];
  const supportsImages = model.supportsImages === true;
  const prepared = prepareMessages(
    input.messages,
    model,
    normaliseToolCallId(model),
    input.options?.transformMessages,
    SERIALIZER_ID,
    input.messagesGrowing,
  );
  const config = `${supportsImages}\u0000${model.provider}\u0000${model.api}\u0000${model.id}`;
  const system = resolveSystemPrompt(header, notRecordedLabels);
  const head = system === null ? [] : [systemItem(model.reasoning ? "developer" : "system", system)];
  const reasoning = thinkingToReasoning(input.thinkingLevel);
  // pi's developer item for a reasoning gpt-5 model with thinking off, after the messages.
  const juiceZero = model.reasoning === true && !reasoning && model.id.startsWith("gpt-5");
  const items = carriedItems.build(
    config,
    prepared.messages,
    (list, i, wire, carried) => {
      itemStep(list[i]!, wire, carried, config, model);
      return i + 1;
    },
    {
      head,
      growing: prepared.growing,
      ...(input.reuseWalk ? { reuseWalk: input.reuseWalk } : {}),
      finish: (list) => {
        const untouched = list.length;
        if (juiceZero) list.push({ role: "developer", content: [{ type: "input_text", text: JUICE_ZERO_TEXT }] });
        return untouched;
      },
    },
  );

  const retention = input.options?.cacheRetention ?? "short";
  const body: Record<string, unknown> = { model: model.id, input: items, stream: true };
  if (retention !== "none" && input.options?.sessionId) body.prompt_cache_key = input.options.sessionId;
  body.store = false;
  body.max_output_tokens = resolveMaxTokens(input);
  const tools = resolveTools(input, notRecordedLabels);
  if (tools !== null) body.tools = isNotRecorded(tools) ? tools : toolsWire.get("tools", tools, () => convertTools(tools));

  if (model.reasoning && reasoning) {
    body.reasoning = { effort: clampReasoning(reasoning, model), summary: "auto" };
    body.include = ["reasoning.encrypted_content"];
  }

  appendExtraSettings(body, header, "openai-responses");
  return { body, notRecorded: notRecordedLabels, adjustments: prepared.adjustments };
}

function detect(body: Record<string, unknown>): boolean {
  return !("messages" in body) && !("contents" in body) && (Array.isArray(body.input) || typeof body.input === "string");
}

function extractHeader(body: Record<string, unknown>, source: string): RequestHeader {
  const systemTexts: string[] = [];
  if (typeof body.instructions === "string") systemTexts.push(body.instructions);
  if (Array.isArray(body.input)) {
    for (const item of body.input) {
      if (!isObject(item) || (item.type !== undefined && item.type !== "message")) break;
      if (item.role !== "system" && item.role !== "developer") break;
      const text = textOfContent(item.content);
      if (text !== undefined) systemTexts.push(text);
    }
  }
  const header: RequestHeader = {
    api: "openai-responses",
    systemPrompt: systemTexts.join("\n\n"),
    extraSettings: collectExtraSettings(body, DERIVED_KEYS),
    source,
  };
  if (Array.isArray(body.tools)) {
    header.tools = body.tools
      .filter(isObject)
      .filter((tool) => tool.type === "function")
      .map((tool) => neutralTool(tool.name, tool.description, tool.parameters))
      .filter((tool): tool is ToolDefinition => tool !== null);
  }
  const maxTokens = numberOrUndefined(body.max_output_tokens);
  if (maxTokens !== undefined) header.maxTokens = maxTokens;
  return header;
}

export const openaiResponsesSerializer: ProviderSerializer = {
  id: SERIALIZER_ID,
  label: "OpenAI Responses (generic mapping)",
  fidelity: "generic",
  detect,
  serialize,
  extractHeader,
};
