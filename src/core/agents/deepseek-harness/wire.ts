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

export function recordedHeader(value: unknown): RecordedHeader {
  const header = isObject(value) ? value : {};
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
function wireMessage(message: LlmMessage): Record<string, unknown> {
  if (message.role === "assistant") {
    const text = joinTexts(message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])), "");
    const reasoning = joinTexts(message.content.flatMap((block) => (block.type === "thinking" ? [block.thinking] : [])), "");
    const calls = message.content.flatMap((block) =>
      block.type === "toolCall" ? [{ id: block.id, type: "function", function: { name: block.name, arguments: rawToolArguments(block) ?? JSON.stringify(block.arguments) } }] : [],
    );
    return { role: "assistant", content: text, ...(textUnits(reasoning) > 0 ? { reasoning_content: reasoning } : {}), ...(calls.length > 0 ? { tool_calls: calls } : {}) };
  }
  if (message.role === "toolResult") return { role: "tool", tool_call_id: message.toolCallId, content: textOrNoOutput(joinedText(message.content)) };
  return { role: "user", content: joinedText(message.content) };
}

const wireCache = new WeakMap<object, Record<string, unknown>>();

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

/** The request body, keys in the adapter's order (model, messages, stream, stream_options, thinking, reasoning_effort, tools, temperature, max_tokens, stop). */
export function deepseekBody(input: DeepseekBodyInput): Record<string, unknown> {
  const messages: Record<string, unknown>[] = [];
  if (input.system !== null) messages.push({ role: "system", content: input.system });
  for (const item of input.messages) messages.push(cachedWireMessage(item.message));
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
  if (input.tools) body.tools = input.tools.map((tool) => ({ type: "function", function: { name: tool.name, description: tool.description, parameters: tool.parameters } }));
  if (input.temperature !== undefined) body.temperature = input.temperature;
  if (input.maxTokens !== undefined) body.max_tokens = input.maxTokens;
  if (input.stop !== undefined) body.stop = input.stop;
  return body;
}
