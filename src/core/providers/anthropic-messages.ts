// Anthropic Messages (`api: "anthropic-messages"`) as pi sends it: PI-R8, PI-R9, pinned byte for
// byte by the fixture pi/rpc-anthropic-manualcompact. Cache breakpoints (three per main request,
// two without tools): the system block, the last tool definition [SRC: fixture, pi 0.73.1], and
// the last content block of the final message when that message is user-role (a text, image or
// tool_result block; a string content becomes one text block to carry it) [SRC: pi-ai
// anthropic.ts; in pi's requests the final message is always user-role].
// Other facts from pi-ai anthropic.ts:
//  - a run of tool results becomes one user message of tool_result blocks; a result's content is
//    its text joined with "\n", or blocks when it has images ("(see attached image)" first when
//    it has no text);
//  - blank text blocks are dropped; a user message left empty is skipped;
//  - thinking: `{type:"thinking",thinking,signature}` when signed, `redacted_thinking` for
//    redacted blocks, plain text when unsigned [INF: PROV-ANTHROPIC-THINKING, not in fixtures];
//  - tool input_schema is rebuilt as {type:"object", properties, required};
//  - thinking config when thinking is on and the model reasons: adaptive (+ output_config.effort)
//    for Opus/Sonnet 4.6, else budget-based [INF: PROV-ANTHROPIC-THINKING-CONFIG].
import type {
  AssistantMessage,
  ImageBlock,
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
  DEFAULT_MAX_TOKENS_CAP,
  appendExtraSettings,
  cacheControlFor,
  collectExtraSettings,
  isBlank,
  neutralTool,
  numberOrUndefined,
  resolveMaxTokens,
  resolveSystemPrompt,
  resolveTools,
  sanitizeText,
  textOfContent,
  thinkingToReasoning,
} from "./shared";
import { isObject } from "../util/is-object";
import { isText, type Text } from "../text/text";
import { joinTexts } from "../text/textTests";
import type { ReasoningLevel } from "./shared";
import { prepareMessages } from "./transform";
import { sameRun, WireCache } from "./wire-cache";
import { CarriedWire, messageWireStep, type MessageWireForms } from "./carried-wire";

const SERIALIZER_ID = "anthropic-messages";

const DERIVED_KEYS: ReadonlySet<string> = new Set([
  "model",
  "messages",
  "max_tokens",
  "stream",
  "system",
  "tools",
  "thinking",
  "output_config",
]);

const IMAGE_ONLY_RESULT = "(see attached image)";

/** pi-ai's default thinking budgets for budget-based thinking (simple-options.ts). */
const ANTHROPIC_THINKING_BUDGETS: Readonly<Record<"minimal" | "low" | "medium" | "high", number>> = {
  minimal: 1024,
  low: 2048,
  medium: 8192,
  high: 16384,
};
const MIN_OUTPUT_TOKENS = 1024;

type Block = Record<string, unknown>;

function normaliseToolCallId(id: string): string {
  return id.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64);
}

function imageBlock(block: ImageBlock): Block {
  return { type: "image", source: { type: "base64", media_type: block.mimeType, data: block.data } };
}

function toolResultContent(content: readonly (TextBlock | ImageBlock)[]): Text | Block[] {
  if (!content.some((block) => block.type === "image")) {
    return sanitizeText(joinTexts(content.map((block) => (block.type === "text" ? block.text : "")), "\n"));
  }
  const blocks = content.map((block) => (block.type === "text" ? { type: "text", text: sanitizeText(block.text) } : imageBlock(block)));
  if (!blocks.some((block) => block.type === "text")) blocks.unshift({ type: "text", text: IMAGE_ONLY_RESULT });
  return blocks;
}

function toolResultBlock(result: ToolResultMessage): Block {
  return { type: "tool_result", tool_use_id: result.toolCallId, content: toolResultContent(result.content), is_error: result.isError };
}

function convertTools(tools: readonly ToolDefinition[], cacheControl: Block | null): Block[] {
  const converted: Block[] = tools.map((tool) => {
    const schema = isObject(tool.parameters) ? tool.parameters : {};
    return {
      name: tool.name,
      description: tool.description,
      eager_input_streaming: true,
      input_schema: { type: "object", properties: schema.properties ?? {}, required: schema.required ?? [] },
    };
  });
  const last = converted[converted.length - 1];
  if (last && cacheControl) last.cache_control = cacheControl;
  return converted;
}

/** pi-ai: adaptive thinking for Opus/Sonnet 4.6, budget-based for every other reasoning model. */
function supportsAdaptiveThinking(model: ModelInfo): boolean {
  return /(opus|sonnet)-4[-.]6/.test(model.id);
}

function effortFor(level: ReasoningLevel): string {
  if (level === "minimal") return "low";
  if (level === "xhigh") return "max";
  return level;
}

type WireMessage = { role: string; content: Text | Block[] };

/** Wire forms per message (user: per image support) and per run of tool results. */
const messageWire = new WireCache<WireMessage | null>();
const toolRunWire = new WireCache<{ run: ToolResultMessage[]; wire: WireMessage }>();
const toolsWire = new WireCache<Block[]>();
/** The previous request's wire messages, before the final breakpoint (carried-wire.ts). */
const carriedMessages = new CarriedWire<WireMessage>();

function userWire(message: UserMessage, supportsImages: boolean): WireMessage | null {
  if (isText(message.content)) {
    return isBlank(message.content) ? null : { role: "user", content: sanitizeText(message.content) };
  }
  const blocks = message.content
    .filter((block) => (block.type === "text" ? !isBlank(block.text) : supportsImages))
    .map((block) => (block.type === "text" ? { type: "text", text: sanitizeText(block.text) } : imageBlock(block)));
  return blocks.length > 0 ? { role: "user", content: blocks } : null;
}

function assistantWire(message: AssistantMessage): WireMessage | null {
  const blocks: Block[] = [];
  for (const block of message.content) {
    if (block.type === "text") {
      if (!isBlank(block.text)) blocks.push({ type: "text", text: sanitizeText(block.text) });
    } else if (block.type === "thinking") {
      if (block.redacted) blocks.push({ type: "redacted_thinking", data: block.thinkingSignature ?? "" });
      else if (isBlank(block.thinking)) continue;
      else if (isBlank(block.thinkingSignature)) blocks.push({ type: "text", text: sanitizeText(block.thinking) });
      else blocks.push({ type: "thinking", thinking: sanitizeText(block.thinking), signature: block.thinkingSignature });
    } else {
      blocks.push({ type: "tool_use", id: block.id, name: block.name, input: block.arguments ?? {} });
    }
  }
  return blocks.length > 0 ? { role: "assistant", content: blocks } : null;
}

/**
 * The message-level breakpoint on the final message when it is user-role: on a copy of that
 * message (and of its last block), since the cached wire objects are shared by every turn.
 * Returns how many leading messages are left as they were.
 */
function withFinalBreakpoint(messages: WireMessage[], cacheControl: Block): number {
  const last = messages.length - 1;
  const final = messages[last];
  if (!final || final.role !== "user") return messages.length;
  if (isText(final.content)) {
    messages[last] = { ...final, content: [{ type: "text", text: final.content, cache_control: cacheControl }] };
    return last;
  }
  const lastBlock = final.content[final.content.length - 1];
  if (lastBlock && (lastBlock.type === "text" || lastBlock.type === "image" || lastBlock.type === "tool_result")) {
    messages[last] = { ...final, content: [...final.content.slice(0, -1), { ...lastBlock, cache_control: cacheControl }] };
    return last;
  }
  return messages.length;
}

/** One step of the wire list: a user or assistant message, or a run of tool results. */
function wireStep(list: readonly LlmMessage[], i: number, wire: WireMessage[], forms: MessageWireForms<WireMessage>): number {
  const next = messageWireStep(list, i, wire, forms);
  if (next !== null) return next;
  // A run of tool results: one user message of tool_result blocks.
  const message = list[i]!;
  let end = i;
  while (end < list.length && list[end]!.role === "toolResult") end++;
  const cached = toolRunWire.getValid(
    "run",
    message,
    (value) => sameRun(value.run, list, i, end),
    () => {
      const run = list.slice(i, end) as ToolResultMessage[];
      return { run, wire: { role: "user", content: run.map(toolResultBlock) } };
    },
  );
  wire.push(cached.wire);
  return end;
}

/** The wire forms and step with and without image support, made once rather than per request. */
function wireSteps(supportsImages: boolean): { forms: MessageWireForms<WireMessage>; step: (list: readonly LlmMessage[], i: number, wire: WireMessage[]) => number } {
  const forms: MessageWireForms<WireMessage> = {
    cache: messageWire,
    userConfig: supportsImages ? "user+images" : "user",
    user: (message) => userWire(message, supportsImages),
    assistant: assistantWire,
  };
  return { forms, step: (list, i, wire) => wireStep(list, i, wire, forms) };
}
const withImages = wireSteps(true);
const withoutImages = wireSteps(false);

function serialize(input: SerializeInput): SerializeOutput {
  const { model, header } = input;
  const notRecordedLabels: string[] = [];
  const cacheControl = cacheControlFor(input);
  const supportsImages = model.supportsImages === true;
  const prepared = prepareMessages(input.messages, model, normaliseToolCallId, input.options?.transformMessages, SERIALIZER_ID, input.messagesGrowing);
  const steps = supportsImages ? withImages : withoutImages;
  const messages = carriedMessages.build(steps.forms.userConfig, prepared.messages, steps.step, {
    growing: prepared.growing,
    ...(input.reuseWalk ? { reuseWalk: input.reuseWalk } : {}),
    finish: (list) => (cacheControl ? withFinalBreakpoint(list, cacheControl) : list.length),
  });

  let maxTokens = resolveMaxTokens(input);
  let thinking: Block | null = null;
  let outputConfig: Block | null = null;
  const reasoning = thinkingToReasoning(input.thinkingLevel);
  if (reasoning && model.reasoning) {
    if (supportsAdaptiveThinking(model)) {
      thinking = { type: "adaptive" };
      outputConfig = { effort: effortFor(reasoning) };
    } else {
      const level = reasoning === "xhigh" ? "high" : reasoning;
      let budget = ANTHROPIC_THINKING_BUDGETS[level];
      if (input.header?.maxTokens === undefined) {
        const base = Math.min(model.maxTokens, input.options?.maxTokensCap ?? DEFAULT_MAX_TOKENS_CAP);
        maxTokens = Math.min(base + budget, model.maxTokens);
      }
      if (maxTokens <= budget) budget = Math.max(0, maxTokens - MIN_OUTPUT_TOKENS);
      thinking = { type: "enabled", budget_tokens: budget };
    }
  }

  const body: Record<string, unknown> = { model: model.id, messages, max_tokens: maxTokens, stream: true };
  const system = resolveSystemPrompt(header, notRecordedLabels);
  if (system !== null) {
    body.system = [{ type: "text", text: system, ...(cacheControl ? { cache_control: cacheControl } : {}) }];
  }
  const tools = resolveTools(input, notRecordedLabels);
  if (tools !== null) {
    body.tools = isNotRecorded(tools)
      ? tools
      : toolsWire.get(JSON.stringify(cacheControl), tools, () => convertTools(tools, cacheControl));
  }
  if (thinking) body.thinking = thinking;
  if (outputConfig) body.output_config = outputConfig;

  appendExtraSettings(body, header, "anthropic-messages");
  return { body, notRecorded: notRecordedLabels, adjustments: prepared.adjustments };
}

const ANTHROPIC_BLOCK_TYPES = new Set(["tool_use", "tool_result", "thinking", "redacted_thinking"]);

function detect(body: Record<string, unknown>): boolean {
  if (!Array.isArray(body.messages) || "contents" in body || "input" in body) return false;
  if ("system" in body) return true;
  if (Array.isArray(body.tools) && body.tools.some((tool) => isObject(tool) && "input_schema" in tool)) return true;
  const messages = body.messages.filter(isObject);
  if (messages.some((m) => m.role === "system" || m.role === "developer" || m.role === "tool")) return false;
  const anthropicBlock = messages.some(
    (m) => Array.isArray(m.content) && m.content.some((b) => isObject(b) && typeof b.type === "string" && ANTHROPIC_BLOCK_TYPES.has(b.type)),
  );
  if (anthropicBlock) return true;
  return "max_tokens" in body && !("max_completion_tokens" in body) && !("stream_options" in body);
}

function extractHeader(body: Record<string, unknown>, source: string): RequestHeader {
  const extraSettings = collectExtraSettings(body, DERIVED_KEYS);
  // `thinking` is derived from the turn's thinking level, but only when thinking is on: an agent
  // that says so explicitly when it is off (Claude Code sends {"type":"disabled"}) sends the same
  // value on every turn, so the capture teaches it. It fills a body only where none was derived.
  if (isObject(body.thinking) && body.thinking.type === "disabled") extraSettings.thinking = body.thinking;
  const header: RequestHeader = {
    api: "anthropic-messages",
    systemPrompt: textOfContent(body.system) ?? "",
    extraSettings,
    source,
  };
  if (Array.isArray(body.tools)) {
    header.tools = body.tools
      .filter(isObject)
      // Server tools (web_search_…, bash_…) have a `type` and no schema: not pi tool definitions.
      .filter((tool) => tool.type === undefined || tool.type === "custom")
      .map((tool) => neutralTool(tool.name, tool.description, tool.input_schema))
      .filter((tool): tool is ToolDefinition => tool !== null);
  }
  const maxTokens = numberOrUndefined(body.max_tokens);
  if (maxTokens !== undefined) header.maxTokens = maxTokens;
  return header;
}

export const anthropicMessagesSerializer: ProviderSerializer = {
  id: SERIALIZER_ID,
  label: "Anthropic Messages",
  fidelity: "exact",
  detect,
  serialize,
  extractHeader,
};
