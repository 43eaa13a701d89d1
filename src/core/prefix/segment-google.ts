// PR-6: Google Gemini. Cached prefix = systemInstruction, tools (+ toolConfig), then
// contents[i].parts[j]. Accepts the REST body (`systemInstruction`, `tools` at the top level) and
// the @google/genai SDK form (`config.systemInstruction`, `config.tools`).
import { isNotRecorded } from "../model";
import { isObject } from "../util/is-object";
import type { SegmentListBuilder } from "./segment-builder";

export function googleConfig(body: Record<string, unknown>): Record<string, unknown> {
  return isObject(body.config) ? body.config : body;
}

export function segmentGoogle(body: Record<string, unknown>, out: SegmentListBuilder): void {
  const config = googleConfig(body);
  const system = config.systemInstruction ?? body.systemInstruction;
  if (typeof system === "string") {
    out.add({ label: "systemInstruction.parts[0]", level: "system", messageIndex: null, source: { text: system }, view: "whole", cacheKey: null });
  } else if (isNotRecorded(system)) {
    out.add({ label: "systemInstruction", level: "system", messageIndex: null, source: system, view: "whole" });
  } else if (isObject(system) && Array.isArray(system.parts)) {
    system.parts.forEach((part, j) =>
      out.add({ label: `systemInstruction.parts[${j}]`, level: "system", messageIndex: null, source: part, view: "strip" }),
    );
  }

  const tools = config.tools ?? body.tools;
  if (isNotRecorded(tools)) out.add({ label: "tools", level: "tools", messageIndex: null, source: tools, view: "whole" });
  else if (Array.isArray(tools)) {
    tools.forEach((tool, i) => out.add({ label: `tools[${i}]`, level: "tools", messageIndex: null, source: tool, view: "strip", tokenMode: "json" }));
  }
  const toolConfig = config.toolConfig ?? body.toolConfig;
  if (toolConfig !== undefined) {
    out.add({ label: "toolConfig", level: "tools", messageIndex: null, source: toolConfig, view: "whole", tokenMode: "json" });
  }

  const contents = body.contents;
  if (isNotRecorded(contents)) {
    out.add({ label: "contents", level: "messages", messageIndex: null, source: contents, view: "whole" });
    return;
  }
  if (!Array.isArray(contents)) return;
  // The leading contents the previous request also had come with their segments in one copy.
  for (let i = out.carryMessages("google", contents, 0); i < contents.length; i++) {
    addContent(out, contents[i], i);
    out.endOfMessage(contents[i]);
  }
}

function addContent(out: SegmentListBuilder, content: unknown, i: number): void {
  const label = `contents[${i}]`;
  if (!isObject(content)) {
    out.add({ label, level: "messages", messageIndex: i, source: content, view: "whole" });
    return;
  }
  out.add({ label, level: "messages", messageIndex: i, source: content, view: "header" });
  const parts = content.parts;
  if (Array.isArray(parts)) {
    parts.forEach((part, j) => out.add({ label: `${label}.parts[${j}]`, level: "messages", messageIndex: i, source: part, view: "strip" }));
  } else if (parts !== undefined) {
    out.add({ label: `${label}.parts`, level: "messages", messageIndex: i, source: parts, view: "whole" });
  }
}
