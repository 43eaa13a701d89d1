// PR-5: OpenAI Responses. `instructions` (or, without it, the leading run of developer/system
// items, as Codex sends) is the system level; then tool definitions; then `input` items in order,
// message items split into a header and content parts. A string `input` is one user item.
import { isNotRecorded } from "../model";
import { isObject } from "../util/is-object";
import type { SegmentListBuilder } from "./segment-builder";
import { addChatMessage, type OpenAiToolsPosition } from "./segment-openai-chat";
import type { CacheLevel } from "./types";

function isMessageItem(item: unknown): item is Record<string, unknown> {
  return isObject(item) && (item.type === "message" || (item.type === undefined && typeof item.role === "string"));
}

function isSystemItem(item: unknown): boolean {
  return isMessageItem(item) && (item.role === "developer" || item.role === "system");
}

const responsesTextType = (role: unknown) => (role === "assistant" ? "output_text" : "input_text");

function addItem(out: SegmentListBuilder, item: unknown, k: number, level: CacheLevel): void {
  const label = `input[${k}]`;
  if (isMessageItem(item)) addChatMessage(out, item, label, k, level, responsesTextType);
  else out.add({ label, level, messageIndex: k, source: item, view: "strip" });
}

export function segmentOpenAiResponses(
  body: Record<string, unknown>,
  out: SegmentListBuilder,
  toolsPosition: OpenAiToolsPosition,
): void {
  const instructions = body.instructions;
  const input = body.input;
  const items = Array.isArray(input) ? input : [];
  let leading = 0;
  if (instructions !== undefined && instructions !== null) {
    out.add({ label: "instructions", level: "system", messageIndex: null, source: instructions, view: "whole" });
  } else if (toolsPosition === "after-leading-system") {
    while (leading < items.length && isSystemItem(items[leading])) leading++;
  }
  for (let k = 0; k < leading; k++) addItem(out, items[k], k, "system");

  const tools = body.tools;
  if (isNotRecorded(tools)) out.add({ label: "tools", level: "tools", messageIndex: null, source: tools, view: "whole" });
  else if (Array.isArray(tools)) {
    tools.forEach((tool, i) => out.add({ label: `tools[${i}]`, level: "tools", messageIndex: null, source: tool, view: "strip", tokenMode: "json" }));
  }

  if (typeof input === "string") {
    out.add({ label: "input[0]", level: "messages", messageIndex: 0, source: input, view: "text-block", textType: "input_text" });
    return;
  }
  if (isNotRecorded(input)) {
    out.add({ label: "input", level: "messages", messageIndex: null, source: input, view: "whole" });
    return;
  }
  // The leading items the previous request also had come with their segments in one copy.
  for (let k = out.carryMessages("openai-responses", items, leading); k < items.length; k++) {
    addItem(out, items[k], k, "messages");
    out.endOfMessage(items[k]);
  }
}
