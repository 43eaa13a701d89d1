// The Chat Completions messages of one Qwen Code call, converted from the Gemini-style history the
// way Qwen Code's OpenAI converter sends it (docs/formats/qwen-code.md): model text -> assistant
// `content`, function calls -> `tool_calls` (stored id, arguments = JSON of args), each function
// response -> a `tool` message, user text -> a user message of text parts (consecutive user
// contents merge into one). The reminders Qwen Code adds on send are not stored: taken from a
// capture when there is one (capture.ts), else marked not recorded in their place.
import type { ContextMessage, LlmMessage, Provenance, TextBlock, ToolCallBlock } from "../../model";
import { notRecorded } from "../../model";
import { isText, type Text } from "../../text/text";
import { joinTexts } from "../../text/textTests";
import { isObject } from "../../util/is-object";
import type { QwenContent } from "./history";

/** A wire message with the contents it comes from. */
interface SourcedMessage {
  wire: Record<string, unknown>;
  contents: QwenContent[];
}

/** The texts added on send, or null when no capture supplies them. */
export interface Reminders {
  startup: readonly string[] | null;
  date: string | null;
  /** False for the first call after an automatic compression (no startup reminders). */
  withStartup: boolean;
  /** False for a compression request, which goes out with no current prompt and so no date reminder. */
  withDate?: boolean;
}

/** A tool's output (a large one may be a stored text, storedTextPlaces.ts: it stays one in the wire message). */
function responseText(response: unknown): Text {
  if (isObject(response) && isText(response.output)) return response.output;
  if (isObject(response) && typeof response.error === "string") return response.error;
  return JSON.stringify(response ?? null);
}

/**
 * The wire messages made once per stored record and handed to every later call that sends it: a
 * chat's calls resend the same history, and the same objects let each later stage (sizes, cache
 * segments) reuse what it measured. Only assistant and tool messages: a user message may take
 * the next user content and the reminders in, so it is made per call.
 */
const modelWires = new WeakMap<QwenContent, Record<string, unknown>>();
const toolWires = new WeakMap<object, Record<string, unknown>>();

function modelMessage(content: QwenContent): Record<string, unknown> {
  let wire = modelWires.get(content);
  if (!wire) {
    wire = newModelMessage(content);
    modelWires.set(content, wire);
  }
  return wire;
}

function toolMessage(response: Record<string, unknown>): Record<string, unknown> {
  let wire = toolWires.get(response);
  if (!wire) {
    wire = { role: "tool", tool_call_id: String(response.id ?? ""), content: [{ type: "text", text: responseText(response.response) }] };
    toolWires.set(response, wire);
  }
  return wire;
}

function newModelMessage(content: QwenContent): Record<string, unknown> {
  const texts: Text[] = [];
  const calls: Record<string, unknown>[] = [];
  for (const part of content.parts) {
    if (part.thought === true) continue;
    // A large answer may be a stored text (storedTextPlaces.ts): one text part stays one.
    if (isText(part.text)) texts.push(part.text);
    else if (isObject(part.functionCall)) {
      const call = part.functionCall;
      calls.push({ id: String(call.id ?? ""), type: "function", function: { name: String(call.name ?? ""), arguments: JSON.stringify(call.args ?? {}) } });
    }
  }
  const message: Record<string, unknown> = { role: "assistant", content: texts.length > 0 ? joinTexts(texts, "") : null };
  if (calls.length > 0) message.tool_calls = calls;
  return message;
}

/** One user content: its function responses as tool messages, its texts as one user message part list. */
function userMessages(content: QwenContent, into: SourcedMessage[]): void {
  const texts: unknown[] = [];
  for (const part of content.parts) {
    if (isObject(part.functionResponse)) {
      into.push({ wire: toolMessage(part.functionResponse), contents: [content] });
    } else if (typeof part.text === "string") texts.push({ type: "text", text: part.text });
  }
  if (texts.length === 0) return;
  const previous = into[into.length - 1];
  if (previous && previous.wire.role === "user" && Array.isArray(previous.wire.content)) {
    previous.wire.content = [...(previous.wire.content as unknown[]), ...texts];
    previous.contents.push(content);
    return;
  }
  into.push({ wire: { role: "user", content: texts }, contents: [content] });
}

function insertReminders(messages: SourcedMessage[], contents: readonly QwenContent[], reminders: Reminders): void {
  const firstUser = messages.find((m) => m.wire.role === "user");
  if (firstUser && reminders.withStartup) {
    const startup = reminders.startup ?? [notRecorded("startup reminders (skills, startup context, deferred tools)")];
    firstUser.wire.content = [...startup.map((text) => (typeof text === "string" ? { type: "text", text } : text)), ...(firstUser.wire.content as unknown[])];
  }
  // The date reminder goes in front of the current prompt: the last prompt the history holds.
  if (reminders.withDate === false) return;
  let prompt: QwenContent | null = null;
  for (const content of contents) if (content.prompt) prompt = content;
  if (!prompt) return;
  const holder = messages.find((m) => m.wire.role === "user" && m.contents.includes(prompt));
  if (!holder) return;
  const parts = holder.wire.content as unknown[];
  const promptText = prompt.parts.find((part) => typeof part.text === "string")?.text;
  let at = parts.findIndex((part) => isObject(part) && part.text === promptText);
  if (at < 0) at = parts.length;
  const date = reminders.date !== null ? { type: "text", text: reminders.date } : notRecorded("date reminder");
  holder.wire.content = [...parts.slice(0, at), date, ...parts.slice(at)];
}

/** The request's messages after the system message, each with the contents it was made from. */
export function wireMessages(contents: readonly QwenContent[], reminders: Reminders): SourcedMessage[] {
  const messages: SourcedMessage[] = [];
  for (const content of contents) {
    if (content.role === "model") messages.push({ wire: modelMessage(content), contents: [content] });
    else userMessages(content, messages);
  }
  insertReminders(messages, contents, reminders);
  return messages;
}

function blockText(part: unknown): Text {
  if (isObject(part) && isText(part.text)) return part.text;
  if (isObject(part) && typeof part.$notRecorded === "string") return `[${part.$notRecorded}: not recorded]`;
  return "";
}

function view(wire: Record<string, unknown>): LlmMessage {
  const content = Array.isArray(wire.content) ? wire.content : [];
  if (wire.role === "tool") {
    return { role: "toolResult", toolCallId: String(wire.tool_call_id ?? ""), toolName: "", content: content.map((p): TextBlock => ({ type: "text", text: blockText(p) })), isError: false };
  }
  if (wire.role === "assistant") {
    const blocks: (TextBlock | ToolCallBlock)[] = [];
    if (isText(wire.content)) blocks.push({ type: "text", text: wire.content });
    for (const call of Array.isArray(wire.tool_calls) ? wire.tool_calls.filter(isObject) : []) {
      const fn = isObject(call.function) ? call.function : {};
      let args: Record<string, unknown> = {};
      try {
        const parsed: unknown = JSON.parse(String(fn.arguments ?? "{}"));
        if (isObject(parsed)) args = parsed;
      } catch {
        args = {};
      }
      blocks.push({ type: "toolCall", id: String(call.id ?? ""), name: String(fn.name ?? ""), arguments: args });
    }
    return { role: "assistant", api: "openai-completions", content: blocks };
  }
  return { role: "user", content: content.map((p): TextBlock => ({ type: "text", text: blockText(p) })) };
}

function provenance(message: SourcedMessage): Provenance {
  const entryId = message.contents[message.contents.length - 1]?.entryIds[0] ?? null;
  if (message.contents.some((c) => c.compressed && c.parts.some((p) => typeof p.text === "string" && p.text.trimStart().startsWith("<state_snapshot>")))) {
    return { rule: "wrap:compaction-summary", entryId, ruleId: "FM-QW-4", explanation: "The chat compression's <state_snapshot>, the first message of the compressed history that replaced everything before it." };
  }
  if (message.contents.some((c) => c.compressed)) {
    return { rule: "fold:compressed-history", entryId, ruleId: "FM-QW-4", explanation: "A message of the history the chat compression installed (stored in its compressedHistory)." };
  }
  if (message.contents.length > 1) {
    return { rule: "wrap:consecutive-messages", entryId, ruleId: "FM-QW-3", explanation: `${message.contents.length} consecutive user contents sent as one message.` };
  }
  return { rule: "entry", entryId };
}

export function contextMessages(messages: readonly SourcedMessage[]): ContextMessage[] {
  return messages.map((message) => ({ message: view(message.wire), provenance: provenance(message) }));
}
