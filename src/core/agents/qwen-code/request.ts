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
import { CarriedMap } from "../../util/carried-map";
import { isObject } from "../../util/is-object";
import type { QwenContent } from "./history";

/** A wire message with the contents it comes from. */
export interface SourcedMessage {
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
    // Only a message being made is merged into: a carried one is made again first (MessageCarry).
    previous.wire.content = [...(previous.wire.content as unknown[]), ...texts];
    previous.contents.push(content);
    return;
  }
  into.push({ wire: { role: "user", content: texts }, contents: [content] });
}

/**
 * The messages of a call's contents before the reminders, carried from call to call: a chat's
 * calls send the history of the call before with a few contents added, so only those are
 * converted, and every message two calls share is the same object (its view, its sizes and its
 * cache segments are then made once). A carried message is never changed: the reminders go into
 * copies (withReminders), and a trailing user message the next content may merge into is made
 * again.
 */
export class MessageCarry {
  private contents: readonly QwenContent[] = [];
  private readonly messages: SourcedMessage[] = [];
  /** Per message, the index of its first content and the index past its last. */
  private readonly firsts: number[] = [];
  private readonly ends: number[] = [];
  /** The copies the reminders went into, kept with the messages they copy. */
  readonly reminded = new ReminderCopies();
  /**
   * `contextMessages(messages)`, the views of the leading messages the last list also had (the
   * same objects) taken from the last answer: a call costs its new messages, not a lookup per
   * message of its history.
   */
  readonly contexts = new CarriedMap<SourcedMessage, ContextMessage>(contextOf);

  /** The messages of `contents`: those made only of contents the last call shared kept, the rest converted. */
  messagesOf(contents: readonly QwenContent[]): readonly SourcedMessage[] {
    const known = this.contents;
    const shared = Math.min(known.length, contents.length);
    let kept = 0;
    while (kept < shared && known[kept] === contents[kept]) kept++;
    let count = 0;
    while (count < this.messages.length && this.ends[count]! <= kept) count++;
    let from = count < this.messages.length ? this.firsts[count]! : count > 0 ? this.ends[count - 1]! : 0;
    // A user message takes the texts of the user content after it in: made again with them.
    if (count > 0 && this.messages[count - 1]!.wire.role === "user" && mergesIntoUser(contents, from)) from = this.firsts[count - 1]!;
    // The messages of a content are made together (its tool messages, then its texts).
    while (count > 0 && this.firsts[count - 1]! >= from) count--;
    this.messages.length = count;
    this.firsts.length = count;
    this.ends.length = count;
    for (let i = from; i < contents.length; i++) {
      const content = contents[i]!;
      const before = this.messages.length;
      const last = this.messages[before - 1];
      if (content.role === "model") this.messages.push({ wire: modelMessage(content), contents: [content] });
      else userMessages(content, this.messages);
      // Its texts merged into the message before it.
      if (last !== undefined && last.contents[last.contents.length - 1] === content) this.ends[before - 1] = i + 1;
      for (let j = before; j < this.messages.length; j++) {
        this.firsts.push(i);
        this.ends.push(i + 1);
      }
    }
    this.contents = contents;
    return this.messages;
  }
}

/**
 * The messages a reminder went into, kept per message while the reminder is the same: the first
 * user message gets the same startup reminders in every call of a process, the current prompt's
 * message the same date in every call of its prompt, and the same copy lets the later stages
 * (sizes, cache segments) measure it once.
 */
class ReminderCopies {
  private readonly startups = new WeakMap<SourcedMessage, { startup: readonly string[] | null; copy: SourcedMessage }>();
  private readonly dates = new WeakMap<SourcedMessage, { date: string | null; at: number; copy: SourcedMessage }>();

  withStartup(message: SourcedMessage, startup: readonly string[] | null): SourcedMessage {
    const kept = this.startups.get(message);
    if (kept !== undefined && sameTexts(kept.startup, startup)) return kept.copy;
    const texts = startup ?? [notRecorded("startup reminders (skills, startup context, deferred tools)")];
    const content = [...texts.map((text) => (typeof text === "string" ? { type: "text", text } : text)), ...(message.wire.content as unknown[])];
    const copy = { wire: { ...message.wire, content }, contents: message.contents };
    this.startups.set(message, { startup, copy });
    return copy;
  }

  /** `message` with the date reminder at part `at` (in front of the prompt's text). */
  withDate(message: SourcedMessage, date: string | null, at: number): SourcedMessage {
    const kept = this.dates.get(message);
    if (kept !== undefined && kept.date === date && kept.at === at) return kept.copy;
    const parts = message.wire.content as unknown[];
    const reminder = date !== null ? { type: "text", text: date } : notRecorded("date reminder");
    const copy = { wire: { ...message.wire, content: [...parts.slice(0, at), reminder, ...parts.slice(at)] }, contents: message.contents };
    this.dates.set(message, { date, at, copy });
    return copy;
  }
}

function sameTexts(a: readonly string[] | null, b: readonly string[] | null): boolean {
  if (a === b) return true;
  if (a === null || b === null || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Whether the first content from `from` on that makes a message merges into a user message before
 * it: a user content of texts only (a function response goes out as a tool message first).
 */
function mergesIntoUser(contents: readonly QwenContent[], from: number): boolean {
  for (let i = from; i < contents.length; i++) {
    const content = contents[i]!;
    if (content.role === "model") return false;
    let texts = false;
    for (const part of content.parts) {
      if (isObject(part.functionResponse)) return false;
      if (typeof part.text === "string") texts = true;
    }
    if (texts) return true;
  }
  return false;
}

/** The call's messages with the reminders in: a copy of the list, each message a reminder goes into copied. */
function withReminders(carried: readonly SourcedMessage[], contents: readonly QwenContent[], reminders: Reminders, copies: ReminderCopies): SourcedMessage[] {
  const messages = carried.slice();
  const firstUser = messages.findIndex((m) => m.wire.role === "user");
  if (firstUser >= 0 && reminders.withStartup) messages[firstUser] = copies.withStartup(messages[firstUser]!, reminders.startup);
  // The date reminder goes in front of the current prompt: the last prompt the history holds.
  if (reminders.withDate === false) return messages;
  let prompt: QwenContent | null = null;
  for (let i = contents.length - 1; i >= 0 && prompt === null; i--) if (contents[i]!.prompt) prompt = contents[i]!;
  if (!prompt) return messages;
  // Each content is in one message: the last one holding the prompt is the only one.
  let holder = messages.length - 1;
  while (holder >= 0 && !(messages[holder]!.wire.role === "user" && messages[holder]!.contents.includes(prompt))) holder--;
  if (holder < 0) return messages;
  const parts = messages[holder]!.wire.content as unknown[];
  const promptText = prompt.parts.find((part) => typeof part.text === "string")?.text;
  let at = parts.findIndex((part) => isObject(part) && part.text === promptText);
  if (at < 0) at = parts.length;
  messages[holder] = copies.withDate(messages[holder]!, reminders.date, at);
  return messages;
}

/**
 * The request's messages after the system message, each with the contents it was made from; with
 * a carry, the messages it shares with the carry's last call are the same objects.
 */
export function wireMessages(contents: readonly QwenContent[], reminders: Reminders, carry: MessageCarry = new MessageCarry()): SourcedMessage[] {
  return withReminders(carry.messagesOf(contents), contents, reminders, carry.reminded);
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

/** Each message's context view, made once per message object (a carried message is one from call to call). */
const contextViews = new WeakMap<SourcedMessage, ContextMessage>();

function contextOf(message: SourcedMessage): ContextMessage {
  let context = contextViews.get(message);
  if (context === undefined) {
    context = { message: view(message.wire), provenance: provenance(message) };
    contextViews.set(message, context);
  }
  return context;
}

export function contextMessages(messages: readonly SourcedMessage[]): ContextMessage[] {
  return messages.map(contextOf);
}
