// The fold of a session trace into its calls (docs/formats/sts.md). The format records the
// conversation, not the requests: every run of assistant messages (one, or several in a row: an
// answer written as one message per tool call) is taken as the answer of one model call, whose
// request held every message before it; messages after the last answer (a file that ends on the
// user's or a tool's turn) make one more call whose answer the file does not hold.
// System messages go out as instructions; a tool message names the tool of the call it answers.
import type { AssistantMessage, ContextMessage, ModelRef, ReaderWarning, RecordedUsage, Session, SessionEntry, TextBlock, ThinkingBlock, ToolCallBlock } from "../../model";
import { isObject } from "../../util/is-object";
import { stsModel, stsUsage } from "./usage";

export interface StsCall {
  turn: number;
  /** The assistant message that answered it, or, for a call the file holds no answer of, its last message. */
  entry: SessionEntry;
  /** How many of the conversation's messages its request held. */
  historyLength: number;
  answered: boolean;
  model: ModelRef | null;
  usage: RecordedUsage | null;
}

export interface StsIndex {
  messages: ContextMessage[];
  calls: StsCall[];
  warnings: ReaderWarning[];
}

/** A message's text: a string, or the text parts of a list of content parts. */
function stsText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((part) => (typeof part === "string" ? part : isObject(part) && typeof part.text === "string" ? part.text : "")).join("");
}

function toolArguments(value: unknown): Record<string, unknown> {
  let parsed = value;
  if (typeof value === "string") {
    try {
      parsed = value.trim() === "" ? {} : JSON.parse(value);
    } catch {
      return { value };
    }
  }
  if (isObject(parsed)) return parsed;
  return parsed === undefined ? {} : { value: parsed };
}

class StsFold {
  readonly messages: ContextMessage[] = [];
  readonly calls: StsCall[] = [];
  readonly warnings: ReaderWarning[] = [];
  private readonly toolNames = new Map<string, string>();
  /** Where the last answer ends: a message right there that is an assistant's continues it. */
  private answerEnd = -1;

  push(entry: SessionEntry): void {
    const message = isObject(entry.raw.message) ? entry.raw.message : {};
    const text = stsText(message.content);
    const provenance = { rule: "entry", entryId: entry.id };
    const stamp = typeof message.timestamp === "number" && Number.isFinite(message.timestamp) ? { timestamp: message.timestamp } : {};
    switch (message.role) {
      case "system":
        this.messages.push({ message: { role: "user", content: [{ type: "text", text }], ...stamp }, provenance: { rule: "sts:system", entryId: entry.id, ruleId: "FM-STS-3", sentAsSystem: true, explanation: "A system message of the trace, sent as an instruction." } });
        return;
      case "user":
        this.messages.push({ message: { role: "user", content: [{ type: "text", text }], ...stamp }, provenance });
        return;
      case "tool": {
        const id = typeof message.toolCallId === "string" ? message.toolCallId : "";
        if (id === "") this.warnings.push({ line: entry.line ?? 0, reason: "tool message without a toolCallId: it answers no call of the trace" });
        this.messages.push({ message: { role: "toolResult", toolCallId: id, toolName: this.toolNames.get(id) ?? "", content: [{ type: "text", text }], isError: false, ...stamp }, provenance });
        return;
      }
      default:
        this.answer(entry, message, text);
    }
  }

  private answer(entry: SessionEntry, message: Record<string, unknown>, text: string): void {
    const blocks: (TextBlock | ThinkingBlock | ToolCallBlock)[] = [];
    const reasoning = stsText(message.reasoningContent);
    if (reasoning !== "") blocks.push({ type: "thinking", thinking: reasoning });
    if (text !== "") blocks.push({ type: "text", text });
    const calls = Array.isArray(message.toolCalls) ? message.toolCalls : [];
    calls.forEach((call, at) => {
      const fn = isObject(call) && isObject(call.function) ? call.function : {};
      const id = isObject(call) && typeof call.id === "string" ? call.id : `${entry.id}:${at}`;
      const name = typeof fn.name === "string" ? fn.name : "";
      this.toolNames.set(id, name);
      blocks.push({ type: "toolCall", id, name, arguments: toolArguments(fn.arguments) });
    });
    const model = stsModel(message.model);
    const usage = stsUsage(message.usage);
    const answer: AssistantMessage = { role: "assistant", content: blocks, api: "openai-completions", ...(model ? { model: model.modelId } : {}), ...(usage ? { usage } : {}), ...(typeof message.timestamp === "number" && Number.isFinite(message.timestamp) ? { timestamp: message.timestamp } : {}) };
    const current = this.calls[this.calls.length - 1];
    if (current && this.answerEnd === this.messages.length) {
      current.model ??= model;
      current.usage ??= usage;
    } else this.calls.push({ turn: this.calls.length + 1, entry, historyLength: this.messages.length, answered: true, model, usage });
    this.messages.push({ message: answer, provenance: { rule: "entry", entryId: entry.id } });
    this.answerEnd = this.messages.length;
  }

  /** The call the trailing messages (after the last answer) were sent in, its answer not in the file. */
  finish(last: SessionEntry | undefined): void {
    const answeredUpTo = Math.max(0, this.answerEnd);
    if (!last || this.messages.length <= answeredUpTo || this.messages.slice(answeredUpTo).every((m) => m.provenance.sentAsSystem)) return;
    const model = this.calls[this.calls.length - 1]?.model ?? null;
    this.calls.push({ turn: this.calls.length + 1, entry: last, historyLength: this.messages.length, answered: false, model, usage: null });
  }
}

const cache = new WeakMap<Session, StsIndex>();

export function getStsIndex(session: Session): StsIndex {
  let index = cache.get(session);
  if (index) return index;
  const fold = new StsFold();
  for (const entry of session.entries) fold.push(entry);
  fold.finish(session.entries[session.entries.length - 1]);
  index = { messages: fold.messages, calls: fold.calls, warnings: fold.warnings };
  cache.set(session, index);
  return index;
}
