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
import { contentAt, contentCount, type CallContents, type QwenContent } from "./history";

/**
 * A wire message with the contents it comes from, and what is made of it once (a carried message
 * is the same object from call to call): its context view, its JSON length, the copies the
 * reminders went into.
 */
export interface SourcedMessage {
  wire: Record<string, unknown>;
  contents: QwenContent[];
  context?: ContextMessage;
  jsonLength?: number;
  /** For a copy the reminders went into: the message it copies and the parts added to its content. */
  copyOf?: { message: SourcedMessage; added: readonly unknown[] };
  startupCopy?: { startup: readonly string[] | null; copy: SourcedMessage };
  dateCopy?: { date: string | null; at: number; copy: SourcedMessage };
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
 * The wire messages made once per stored record (kept on its content) and handed to every later
 * call that sends it: a chat's calls resend the same history, and the same objects let each later
 * stage (sizes, cache segments) reuse what it measured. Only assistant and tool messages: a user
 * message may take the next user content and the reminders in, so it is made per call.
 */
function modelMessage(content: QwenContent): Record<string, unknown> {
  content.wires ??= [newModelMessage(content)];
  return content.wires[0]!;
}

/** The tool messages of a user content's function responses, in part order. */
function toolMessages(content: QwenContent): Record<string, unknown>[] {
  if (content.wires === null) {
    const wires: Record<string, unknown>[] = [];
    for (const part of content.parts) {
      const response = part.functionResponse;
      if (isObject(response)) wires.push({ role: "tool", tool_call_id: String(response.id ?? ""), content: [{ type: "text", text: responseText(response.response) }] });
    }
    content.wires = wires;
  }
  return content.wires;
}

/**
 * A call's `args` as its view shows them, without writing them as JSON and parsing that back (the
 * view of every call of a chat did): the record's own object where parsing its JSON gives the same
 * value, which holds for what a JSON line parses to but for numbers JSON cannot write (an
 * overflowing literal, minus zero); null when it is not that (the view then parses the arguments).
 * Not an object: the view shows no arguments, as it shows for what parses to one.
 */
function heldArguments(args: unknown): Record<string, unknown> | null {
  if (!isObject(args)) return {};
  return writesAsItself(args, 0) ? args : null;
}

/** Whether JSON.stringify then JSON.parse gives `value` back, deep-equal (plain JSON data of finite numbers, no minus zero). */
function writesAsItself(value: unknown, depth: number): boolean {
  if (typeof value === "string" || typeof value === "boolean" || value === null) return true;
  if (typeof value === "number") return Number.isFinite(value) && !Object.is(value, -0);
  if (typeof value !== "object" || depth > 64) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (!writesAsItself(item, depth + 1)) return false;
    return true;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return false;
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
    if (!writesAsItself((value as Record<string, unknown>)[key], depth + 1)) return false;
  }
  return true;
}

function newModelMessage(content: QwenContent): Record<string, unknown> {
  const texts: Text[] = [];
  const calls: Record<string, unknown>[] = [];
  const args: (Record<string, unknown> | null)[] = [];
  for (const part of content.parts) {
    if (part.thought === true) continue;
    // A large answer may be a stored text (storedTextPlaces.ts): one text part stays one.
    if (isText(part.text)) texts.push(part.text);
    else if (isObject(part.functionCall)) {
      const call = part.functionCall;
      calls.push({ id: String(call.id ?? ""), type: "function", function: { name: String(call.name ?? ""), arguments: JSON.stringify(call.args ?? {}) } });
      args.push(heldArguments(call.args));
    }
  }
  content.callArguments = args;
  const message: Record<string, unknown> = { role: "assistant", content: texts.length > 0 ? joinTexts(texts, "") : null };
  if (calls.length > 0) message.tool_calls = calls;
  return message;
}

/** One user content: its function responses as tool messages, its texts as one user message part list. */
function userMessages(content: QwenContent, into: SourcedMessage[]): void {
  const texts: unknown[] = [];
  let tools: Record<string, unknown>[] | null = null;
  let tool = 0;
  for (const part of content.parts) {
    if (isObject(part.functionResponse)) {
      tools ??= toolMessages(content);
      into.push({ wire: tools[tool++]!, contents: [content] });
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
  private contents: CallContents = { base: [], length: 0, pending: null };
  private readonly messages: SourcedMessage[] = [];
  /** Per message, the index of its first content and the index past its last. */
  private readonly firsts: number[] = [];
  private readonly ends: number[] = [];
  /**
   * `contextMessages(messages)`, the views of the leading messages the last list also had (the
   * same objects) taken from the last answer: a call costs its new messages, not a lookup per
   * message of its history.
   */
  readonly contexts = new CarriedMap<SourcedMessage, ContextMessage>(contextOf);

  /** The messages of `contents`: those made only of contents the last call shared kept, the rest converted. */
  messagesOf(contents: CallContents): readonly SourcedMessage[] {
    const known = this.contents;
    const count = contentCount(contents);
    const shared = Math.min(contentCount(known), count);
    let kept = 0;
    // The same history array, only appended to since: the last call's contents, without comparing them.
    if (known.base === contents.base && known.pending === null && known.length <= contents.length) kept = known.length;
    while (kept < shared && contentAt(known, kept) === contentAt(contents, kept)) kept++;
    if (kept < contentCount(known)) releaseLeft(known, kept, contents);
    // The messages made only of kept contents (the ends only grow along the list): found from the end.
    let made = this.messages.length;
    while (made > 0 && this.ends[made - 1]! > kept) made--;
    let from = made < this.messages.length ? this.firsts[made]! : made > 0 ? this.ends[made - 1]! : 0;
    // A user message takes the texts of the user content after it in: made again with them.
    if (made > 0 && this.messages[made - 1]!.wire.role === "user" && mergesIntoUser(contents, from)) from = this.firsts[made - 1]!;
    // The messages of a content are made together (its tool messages, then its texts).
    while (made > 0 && this.firsts[made - 1]! >= from) made--;
    this.messages.length = made;
    this.firsts.length = made;
    this.ends.length = made;
    for (let i = from; i < count; i++) {
      const content = contentAt(contents, i);
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
 * Lets go of the wire messages of the contents of `left` from `from` on that `next` does not
 * send: the contents a compression replaced (and a prompt a later process no longer holds) are
 * never sent again by a chat walked forwards, yet the index keeps them as long as the session,
 * and with them every wire message made of them and everything later stages keep by those
 * messages (their segments, their views). A content sent again after all (a walk that goes back)
 * has its messages made again: the same values.
 */
function releaseLeft(left: CallContents, from: number, next: CallContents): void {
  const count = contentCount(left);
  const nextCount = contentCount(next);
  const sent = new Set<QwenContent>();
  for (let i = from; i < nextCount; i++) sent.add(contentAt(next, i));
  for (let i = from; i < count; i++) {
    const content = contentAt(left, i);
    if (content.wires === null || sent.has(content)) continue;
    content.wires = null;
    content.callArguments = undefined;
  }
}

/**
 * `message` with the startup reminders in front, kept on the message while the reminders are the
 * same: the first user message gets the same startup reminders in every call of a process, and
 * the same copy lets the later stages (sizes, cache segments) measure it once.
 */
function withStartup(message: SourcedMessage, startup: readonly string[] | null): SourcedMessage {
  const kept = message.startupCopy;
  if (kept !== undefined && sameTexts(kept.startup, startup)) return kept.copy;
  const texts = startup ?? [notRecorded("startup reminders (skills, startup context, deferred tools)")];
  const added = texts.map((text) => (typeof text === "string" ? { type: "text", text } : text));
  const content = [...added, ...(message.wire.content as unknown[])];
  const copy = { wire: { ...message.wire, content }, contents: message.contents, copyOf: { message, added } };
  message.startupCopy = { startup, copy };
  return copy;
}

/**
 * `message` with the date reminder at part `at` (in front of the prompt's text), kept on the
 * message while the reminder is the same: the current prompt's message gets the same date in
 * every call of its prompt.
 */
function withDate(message: SourcedMessage, date: string | null, at: number): SourcedMessage {
  const kept = message.dateCopy;
  if (kept !== undefined && kept.date === date && kept.at === at) return kept.copy;
  const parts = message.wire.content as unknown[];
  const reminder = date !== null ? { type: "text", text: date } : notRecorded("date reminder");
  const copy = { wire: { ...message.wire, content: [...parts.slice(0, at), reminder, ...parts.slice(at)] }, contents: message.contents, copyOf: { message, added: [reminder] } };
  message.dateCopy = { date, at, copy };
  return copy;
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
function mergesIntoUser(contents: CallContents, from: number): boolean {
  const count = contentCount(contents);
  for (let i = from; i < count; i++) {
    const content = contentAt(contents, i);
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
function withReminders(carried: readonly SourcedMessage[], contents: CallContents, reminders: Reminders): SourcedMessage[] {
  const messages = carried.slice();
  const firstUser = messages.findIndex((m) => m.wire.role === "user");
  if (firstUser >= 0 && reminders.withStartup) messages[firstUser] = withStartup(messages[firstUser]!, reminders.startup);
  // The date reminder goes in front of the current prompt: the last prompt the history holds.
  if (reminders.withDate === false) return messages;
  let prompt: QwenContent | null = null;
  for (let i = contentCount(contents) - 1; i >= 0 && prompt === null; i--) if (contentAt(contents, i).prompt) prompt = contentAt(contents, i);
  if (!prompt) return messages;
  // Each content is in one message: the last one holding the prompt is the only one.
  let holder = messages.length - 1;
  while (holder >= 0 && !(messages[holder]!.wire.role === "user" && messages[holder]!.contents.includes(prompt))) holder--;
  if (holder < 0) return messages;
  const parts = messages[holder]!.wire.content as unknown[];
  const promptText = prompt.parts.find((part) => typeof part.text === "string")?.text;
  let at = parts.findIndex((part) => isObject(part) && part.text === promptText);
  if (at < 0) at = parts.length;
  messages[holder] = withDate(messages[holder]!, reminders.date, at);
  return messages;
}

/**
 * The request's messages after the system message, each with the contents it was made from; with
 * a carry, the messages it shares with the carry's last call are the same objects.
 */
export function wireMessages(contents: CallContents, reminders: Reminders, carry: MessageCarry = new MessageCarry()): SourcedMessage[] {
  return withReminders(carry.messagesOf(contents), contents, reminders);
}

function blockText(part: unknown): Text {
  if (isObject(part) && isText(part.text)) return part.text;
  if (isObject(part) && typeof part.$notRecorded === "string") return `[${part.$notRecorded}: not recorded]`;
  return "";
}

/** A tool call's arguments as the view shows them: its `arguments` JSON parsed back. */
function parsedArguments(fn: Record<string, unknown>): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(String(fn.arguments ?? "{}"));
    return isObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

function view(message: SourcedMessage): LlmMessage {
  const wire = message.wire;
  const content = Array.isArray(wire.content) ? wire.content : [];
  if (wire.role === "tool") {
    return { role: "toolResult", toolCallId: String(wire.tool_call_id ?? ""), toolName: "", content: content.map((p): TextBlock => ({ type: "text", text: blockText(p) })), isError: false };
  }
  if (wire.role === "assistant") {
    const blocks: (TextBlock | ToolCallBlock)[] = [];
    if (isText(wire.content)) blocks.push({ type: "text", text: wire.content });
    // The calls' arguments as their content holds them, where that is what parsing them back gives.
    const held = message.contents.length === 1 ? message.contents[0]!.callArguments : undefined;
    const calls = Array.isArray(wire.tool_calls) ? wire.tool_calls.filter(isObject) : [];
    calls.forEach((call, k) => {
      const fn = isObject(call.function) ? call.function : {};
      const args = held?.length === calls.length ? (held[k] ?? parsedArguments(fn)) : parsedArguments(fn);
      blocks.push({ type: "toolCall", id: String(call.id ?? ""), name: String(fn.name ?? ""), arguments: args });
    });
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
function contextOf(message: SourcedMessage): ContextMessage {
  message.context ??= { message: view(message), provenance: provenance(message) };
  return message.context;
}

export function contextMessages(messages: readonly SourcedMessage[]): ContextMessage[] {
  return messages.map(contextOf);
}
