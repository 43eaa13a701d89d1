// The DeepSeek chat-completions body the harness's native adapter sends (route `deepseek-official`,
// packages/llm/llm-deepseek/src/serialize.ts at b150a551): keys in the adapter's order, absent
// options left out (never null), the system prompt first, user text joined with no separator,
// each tool result as a `tool` message ("(no output)" when empty), assistant content never null
// and its reasoning passed back on every turn that had it.
import type { ContextMessage, LlmMessage, TextBlock } from "../../model";
import { isObject } from "../../util/is-object";
import { rawToolArguments } from "./messages";
import { isText, textUnits, type Text } from "../../text/text";
import { joinTexts } from "../../text/textTests";

/** The stored request header's `config` and the rest of it (`request/header.data.header`). */
export interface RecordedHeader {
  config: Record<string, unknown>;
  system: string | null;
  tools: { name: unknown; description: unknown; parameters: unknown }[] | null;
}

const headerCache = new WeakMap<object, RecordedHeader>();

/**
 * The stored header as the adapter reads it, one object per stored header: every request under
 * it then sends the same tool objects, which the prefix analysis knows by identity instead of
 * measuring them again per request. Read it, never change it.
 */
export function recordedHeader(value: unknown): RecordedHeader {
  if (!isObject(value)) return headerOf({});
  let header = headerCache.get(value);
  if (!header) {
    header = headerOf(value);
    headerCache.set(value, header);
  }
  return header;
}

function headerOf(header: Record<string, unknown>): RecordedHeader {
  return {
    config: isObject(header.config) ? header.config : {},
    system: typeof header.system === "string" && header.system !== "" ? header.system : null,
    tools: Array.isArray(header.tools) && header.tools.length > 0 ? header.tools.filter(isObject).map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.parameters })) : null,
  };
}

/** How the adapter fills `thinking` / `reasoning_effort`. */
type EffortMode =
  /** From the header's `reasoningEffort`; unset → the adapter default (high). */
  | { kind: "config"; effort: unknown }
  /** Session titles: thinking disabled, no effort. */
  | { kind: "disabled" };

const ADAPTER_DEFAULT_EFFORT = "high";

/** The text blocks joined (one block: its text itself, so a stored text stays a reference). */
function joinedText(content: LlmMessage["content"]): Text {
  if (isText(content)) return content;
  return joinTexts(
    (content as { type: string }[]).filter((block): block is TextBlock => block.type === "text").map((block) => block.text),
    "",
  );
}

function textOrNoOutput(text: Text): Text {
  return textUnits(text) > 0 ? text : "(no output)";
}

/** One context message as the adapter sends it. */
export function wireMessage(message: LlmMessage): Record<string, unknown> {
  if (message.role === "assistant") {
    const texts: Text[] = [];
    const thinking: Text[] = [];
    const calls: Record<string, unknown>[] = [];
    for (const block of message.content) {
      if (block.type === "text") texts.push(block.text);
      else if (block.type === "thinking") thinking.push(block.thinking);
      else if (block.type === "toolCall") calls.push({ id: block.id, type: "function", function: { name: block.name, arguments: rawToolArguments(block) ?? JSON.stringify(block.arguments) } });
    }
    const text = joinTexts(texts, "");
    const reasoning = joinTexts(thinking, "");
    return { role: "assistant", content: text, ...(textUnits(reasoning) > 0 ? { reasoning_content: reasoning } : {}), ...(calls.length > 0 ? { tool_calls: calls } : {}) };
  }
  if (message.role === "toolResult") return { role: "tool", tool_call_id: message.toolCallId, content: textOrNoOutput(joinedText(message.content)) };
  return { role: "user", content: joinedText(message.content) };
}

const wireCache = new WeakMap<object, Record<string, unknown>>();

/** One context message as the adapter sends it, the same object every time it is asked for. */
function cachedWireMessage(message: LlmMessage): Record<string, unknown> {
  let wire = wireCache.get(message);
  if (!wire) {
    wire = wireMessage(message);
    wireCache.set(message, wire);
  }
  return wire;
}

export interface DeepseekBodyInput {
  model: string;
  system: string | null;
  messages: readonly ContextMessage[];
  tools: RecordedHeader["tools"];
  effort: EffortMode;
  temperature?: unknown;
  maxTokens?: unknown;
  stop?: unknown;
}

/**
 * The system message of a prompt, a new object. A walk keeps the one it made while the prompt
 * stays the same (walk.ts), so consecutive requests send it as the same object.
 */
export function systemWireMessage(system: string): Record<string, unknown> {
  return { role: "system", content: system };
}

const toolsCache = new WeakMap<object, Record<string, unknown>[]>();

/** The tool list as sent, one per stored header's tools (recordedHeader.ts keeps those one per header). */
function wireTools(tools: NonNullable<RecordedHeader["tools"]>): Record<string, unknown>[] {
  let wire = toolsCache.get(tools);
  if (!wire) {
    wire = tools.map((tool) => ({ type: "function", function: { name: tool.name, description: tool.description, parameters: tool.parameters } }));
    toolsCache.set(tools, wire);
  }
  return wire;
}

/** The wire messages of a request: the system prompt first, then each message's. */
function wireMessages(system: string | null, messages: readonly ContextMessage[]): Record<string, unknown>[] {
  const wire: Record<string, unknown>[] = [];
  if (system !== null) wire.push(systemWireMessage(system));
  for (const item of messages) wire.push(cachedWireMessage(item.message));
  return wire;
}

/**
 * The request body, keys in the adapter's order (model, messages, stream, stream_options, thinking,
 * reasoning_effort, tools, temperature, max_tokens, stop). `wire`: the wire messages when the
 * caller has them already (a walk carries them from request to request), else made from `input`.
 */
export function deepseekBody(input: DeepseekBodyInput, wire?: Record<string, unknown>[]): Record<string, unknown> {
  const messages = wire ?? wireMessages(input.system, input.messages);
  const body: Record<string, unknown> = { model: input.model, messages, stream: true, stream_options: { include_usage: true } };
  if (input.effort.kind === "disabled") body.thinking = { type: "disabled" };
  else {
    const effort = typeof input.effort.effort === "string" ? input.effort.effort : ADAPTER_DEFAULT_EFFORT;
    if (effort === "off") body.thinking = { type: "disabled" };
    else {
      body.thinking = { type: "enabled" };
      body.reasoning_effort = effort;
    }
  }
  if (input.tools) body.tools = wireTools(input.tools);
  if (input.temperature !== undefined) body.temperature = input.temperature;
  if (input.maxTokens !== undefined) body.max_tokens = input.maxTokens;
  if (input.stop !== undefined) body.stop = input.stop;
  return body;
}
