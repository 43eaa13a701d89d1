// PR-4: OpenAI Chat Completions. Cached prefix = leading system/developer messages, tool
// definitions, the structured-output schema, then the conversation. `openaiToolsPosition`
// ("after-leading-system", default, [INF]) or "first" places the tools. Each message is a header
// segment carrying the chat framing constant (PD-3: 3 tokens, +1 with `name`), then its content
// parts and tool calls.
import { isNotRecorded } from "../model";
import { isObject } from "../util/is-object";
import type { SegmentListBuilder } from "./segment-builder";
import type { CacheLevel } from "./types";
import { isText } from "../text/text";

export type OpenAiToolsPosition = "after-leading-system" | "first";

/** PD-3 chat framing: tokens per message, per `name`, and reply priming. [INF] */
export const CHAT_FRAMING = { perMessage: 3, perName: 1, replyPriming: 3 } as const;

export function addChatMessage(
  out: SegmentListBuilder,
  message: unknown,
  label: string,
  index: number,
  level: CacheLevel,
  textType: (role: unknown) => string,
): void {
  if (!isObject(message)) {
    out.add({ label, level, messageIndex: index, source: message, view: "whole" });
    return;
  }
  const framing = CHAT_FRAMING.perMessage + (typeof message.name === "string" ? CHAT_FRAMING.perName : 0);
  out.add({ label, level, messageIndex: index, source: message, view: "header", framingTokens: framing });
  const content = message.content;
  if (isText(content)) {
    out.add({
      label: `${label}.content[0]`,
      level,
      messageIndex: index,
      source: content,
      view: "text-block",
      textType: textType(message.role),
      cacheKey: message,
    });
  } else if (Array.isArray(content)) {
    content.forEach((part, p) => out.add({ label: `${label}.content[${p}]`, level, messageIndex: index, source: part, view: "strip" }));
  } else if (isNotRecorded(content)) {
    out.add({ label: `${label}.content`, level, messageIndex: index, source: content, view: "whole" });
  }
  const toolCalls = message.tool_calls;
  if (Array.isArray(toolCalls)) {
    toolCalls.forEach((call, k) =>
      out.add({ label: `${label}.tool_calls[${k}]`, level, messageIndex: index, source: call, view: "strip" }),
    );
  }
}

function isSystemRole(message: unknown): boolean {
  return isObject(message) && (message.role === "system" || message.role === "developer");
}

export function segmentOpenAiChat(
  body: Record<string, unknown>,
  out: SegmentListBuilder,
  toolsPosition: OpenAiToolsPosition,
): void {
  const messages = body.messages;
  const list = Array.isArray(messages) ? messages : [];
  let leading = 0;
  if (toolsPosition === "after-leading-system") while (leading < list.length && isSystemRole(list[leading])) leading++;
  const textType = () => "text";
  for (let m = 0; m < leading; m++) addChatMessage(out, list[m], `messages[${m}]`, m, "system", textType);

  const tools = body.tools;
  if (isNotRecorded(tools)) out.add({ label: "tools", level: "tools", messageIndex: null, source: tools, view: "whole" });
  else if (Array.isArray(tools)) {
    tools.forEach((tool, i) => out.add({ label: `tools[${i}]`, level: "tools", messageIndex: null, source: tool, view: "strip", tokenMode: "json" }));
  }
  const format = body.response_format;
  if (isObject(format) && format.type === "json_schema") {
    out.add({ label: "response_format", level: "schema", messageIndex: null, source: format, view: "whole", tokenMode: "json" });
  }

  if (isNotRecorded(messages)) {
    out.add({ label: "messages", level: "messages", messageIndex: null, source: messages, view: "whole" });
    return;
  }
  // The leading messages the previous request also had come with their segments in one copy.
  for (let m = out.carryMessages("openai-chat", list, leading); m < list.length; m++) {
    addConversationMessage(out, list[m], m, textType);
    out.endOfMessage(list[m]);
  }
}

function addConversationMessage(out: SegmentListBuilder, message: unknown, m: number, textType: (role: unknown) => string): void {
  if (!isObject(message)) {
    addChatMessage(out, message, `messages[${m}]`, m, "messages", textType);
    return;
  }
  // A message repeated from an earlier turn at the same place: its segments as they were.
  if (out.reuseMessage("openai-chat", message, m, "messages")) return;
  addChatMessage(out, message, `messages[${m}]`, m, "messages", textType);
}
