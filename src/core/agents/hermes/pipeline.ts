// Pipeline of the generic chat message list (formats.md FM-RQ-5, FM-RQ-6), the hermes-agent entry
// point (FM-HA-1). The list is one linear session: the k-th assistant message answers request k,
// whose messages are every element before it, and a last "next request" turn sends the whole
// list. Requests are Chat Completions bodies; each message is sent as written minus the keys
// Chat Completions does not know (hermes strips its `_compressed_summary*` keys the same way), and
// model, tools and settings are "not recorded" unless a request header supplies them (FM-RQ-4).
// A hermes compression summary is labelled and shown on the timeline as a compaction.
import { parseNestedJson } from "../../util/json-depth";
import type {
  BuiltRequest,
  CompactionEvent,
  ContextMessage,
  LlmMessage,
  PipelineOptions,
  Provenance,
  Session,
  SessionEntry,
  TextBlock,
  TimelineItem,
  ToolCallBlock,
  TurnSummary,
} from "../../model";
import { notRecorded } from "../../model";
import { resolveModel } from "../../models/catalogue";
import { llmMessageChars } from "../pi/convert";
import type { FormatPipeline } from "../../pipeline/types";
import type { SessionAnalysis, TurnContext } from "../../pipeline/types";
import { isObject } from "../../util/is-object";

/** Message keys Chat Completions accepts; every other key is shown but not sent (FM-RQ-6). */
export const SENT_MESSAGE_KEYS: ReadonlySet<string> = new Set([
  "role",
  "content",
  "name",
  "tool_calls",
  "tool_call_id",
  "function_call",
  "refusal",
]);

/** Provenance rule of a hermes compression summary message (FM-RQ-6). */
export const HERMES_SUMMARY_RULE = "summary:hermes-compressed";
/** The rule of the system prompt hermes sends first, shown among the messages (from storage or a captured request). */
export const HERMES_SYSTEM_PROMPT_RULE = "header:system";

function isHermesSummary(raw: Record<string, unknown>): boolean {
  return raw._compressed_summary === true;
}

const sentCache = new WeakMap<object, Record<string, unknown>>();

/** The message as sent: its own keys in file order, minus unknown ones (FM-RQ-6). */
function sentMessage(raw: Record<string, unknown>): Record<string, unknown> {
  let sent = sentCache.get(raw);
  if (!sent) {
    sent = Object.fromEntries(Object.entries(raw).filter(([key]) => SENT_MESSAGE_KEYS.has(key)));
    sentCache.set(raw, sent);
  }
  return sent;
}

function contentTexts(content: unknown): string[] {
  if (typeof content === "string") return [content];
  if (!Array.isArray(content)) return [];
  return content.map((part) => {
    if (isObject(part) && typeof part.text === "string") return part.text;
    return `[${isObject(part) && typeof part.type === "string" ? part.type : "part"}]`;
  });
}

function textBlocks(content: unknown): TextBlock[] {
  return contentTexts(content).map((text) => ({ type: "text", text }));
}

function toolCallBlock(call: unknown): ToolCallBlock {
  const fn = isObject(call) && isObject(call.function) ? call.function : {};
  let args: Record<string, unknown> = {};
  if (typeof fn.arguments === "string") {
    try {
      const parsed: unknown = parseNestedJson(fn.arguments);
      args = isObject(parsed) ? parsed : { input: parsed };
    } catch {
      args = { input: fn.arguments };
    }
  } else if (isObject(fn.arguments)) args = fn.arguments;
  return {
    type: "toolCall",
    id: isObject(call) && typeof call.id === "string" ? call.id : "",
    name: typeof fn.name === "string" ? fn.name : "",
    arguments: args,
  };
}

const viewCache = new WeakMap<object, LlmMessage>();

/** The message in pi-ai shape for the Messages view and the size estimates. */
export function messageView(raw: Record<string, unknown>): LlmMessage {
  let view = viewCache.get(raw);
  if (view) return view;
  const role = raw.role;
  if (role === "assistant") {
    const calls = Array.isArray(raw.tool_calls) ? raw.tool_calls.map(toolCallBlock) : [];
    if (isObject(raw.function_call)) calls.push(toolCallBlock({ function: raw.function_call }));
    view = { role: "assistant", api: "openai-completions", content: [...textBlocks(raw.content), ...calls] };
  } else if (role === "tool" || role === "function") {
    view = {
      role: "toolResult",
      toolCallId: typeof raw.tool_call_id === "string" ? raw.tool_call_id : "",
      toolName: typeof raw.name === "string" ? raw.name : "",
      content: textBlocks(raw.content),
      isError: false,
    };
  } else {
    view = { role: "user", content: textBlocks(raw.content) };
  }
  viewCache.set(raw, view);
  return view;
}

function provenance(entry: SessionEntry): Provenance {
  const raw = entry.raw;
  if (isHermesSummary(raw)) {
    return {
      rule: HERMES_SUMMARY_RULE,
      entryId: entry.id,
      ruleId: "FM-RQ-6",
      inferred: "FM-RQ-6",
      explanation:
        "hermes-agent compression summary (_compressed_summary); hermes' own keys are shown here but not sent.",
    };
  }
  if (raw.role === "system" || raw.role === "developer") {
    return { rule: "entry", entryId: entry.id, explanation: `${raw.role} message (sent with its own role).` };
  }
  return { rule: "entry", entryId: entry.id };
}

interface MessageListIndex {
  /** Positions (in entries) of the assistant messages: turn k is answered by entries[answers[k-1]]. */
  answers: number[];
  /** chars[i]: characters of entries[0..i). */
  chars: number[];
  summaries: number[];
}

const indexCache = new WeakMap<Session, MessageListIndex>();

function getIndex(session: Session): MessageListIndex {
  let index = indexCache.get(session);
  if (index) return index;
  index = { answers: [], chars: [0], summaries: [] };
  session.entries.forEach((entry, position) => {
    if (entry.raw.role === "assistant") index!.answers.push(position);
    if (isHermesSummary(entry.raw)) index!.summaries.push(position);
    index!.chars.push(index!.chars[position]! + llmMessageChars(messageView(entry.raw)));
  });
  indexCache.set(session, index);
  return index;
}

/** One turn per assistant message, plus the "next request" with the whole list (FM-RQ-5). */
function countMessageListTurns(session: Session): number {
  return session.entries.length === 0 ? 0 : getIndex(session).answers.length + 1;
}

/** Number of list elements the request of `turn` sends. */
function contextLength(session: Session, index: MessageListIndex, turn: number): number {
  return turn <= index.answers.length ? index.answers[turn - 1]! : session.entries.length;
}

function checkedTurn(session: Session, turn: number): void {
  const count = countMessageListTurns(session);
  if (!Number.isInteger(turn) || turn < 1 || turn > count) {
    throw new RangeError(`turn ${turn} does not exist: the message list has ${count} turns`);
  }
}

/** The entry a turn is attached to: its answer, or the last message for the next request. */
function turnEntry(session: Session, index: MessageListIndex, turn: number): SessionEntry {
  const position = turn <= index.answers.length ? index.answers[turn - 1]! : session.entries.length - 1;
  return session.entries[position]!;
}

/** The turn whose request first contains the message at `position`. */
function firstTurnWith(index: MessageListIndex, position: number): number {
  let turn = 1;
  while (turn <= index.answers.length && index.answers[turn - 1]! <= position) turn++;
  return turn;
}

function analyzeMessageList(session: Session): SessionAnalysis {
  const index = getIndex(session);
  const count = countMessageListTurns(session);
  const turns: TurnSummary[] = [];
  const timeline: TimelineItem[] = [];
  const compactionTurns = new Set<number>();
  const events: CompactionEvent[] = index.summaries.map((position) => {
    const entry = session.entries[position]!;
    const beforeTurn = firstTurnWith(index, position);
    compactionTurns.add(beforeTurn);
    return {
      kind: "compaction",
      entryId: entry.id,
      beforeTurn,
      timestamp: null,
      tokensBefore: null,
      firstKeptEntryId: null,
      summaryChars: llmMessageChars(messageView(entry.raw)),
    };
  });
  let eventAt = 0;
  for (let turn = 1; turn <= count; turn++) {
    while (eventAt < events.length && events[eventAt]!.beforeTurn === turn) timeline.push(events[eventAt++]!);
    timeline.push({ kind: "turn", turn });
    const length = contextLength(session, index, turn);
    const chars = index.chars[length]!;
    const entry = turnEntry(session, index, turn);
    turns.push({
      turn,
      entryId: entry.id,
      timestamp: null,
      model: null,
      api: "openai-completions",
      thinkingLevel: "off",
      messageCount: length,
      estimatedTokens: Math.ceil(chars / 4),
      chars,
      usage: null,
      stopReason: null,
      afterCompaction: compactionTurns.has(turn),
      modelSwitched: false,
      hasNote: false,
      hasDropped: false,
    });
  }
  const last = session.entries[session.entries.length - 1];
  return {
    branches: last ? [{ leafId: last.id, turns: index.answers.length, timestamp: null, label: null, isDefault: true }] : [],
    leafId: last?.id ?? null,
    turns,
    timeline,
    warnings: [],
  };
}

function contextMessages(session: Session, length: number): ContextMessage[] {
  return session.entries.slice(0, length).map((entry) => ({ message: messageView(entry.raw), provenance: provenance(entry) }));
}

function buildMessageListTurnContext(session: Session, options: PipelineOptions, turn: number): TurnContext {
  checkedTurn(session, turn);
  const index = getIndex(session);
  const length = contextLength(session, index, turn);
  const summary = index.summaries.filter((position) => position < length).pop();
  return {
    turn,
    entryId: turnEntry(session, index, turn).id,
    messages: contextMessages(session, length),
    dropped: [],
    model: null,
    thinkingLevel: "off",
    api: options.api ?? "openai-completions",
    pathEntryIds: session.entries.slice(0, length).map((entry) => entry.id),
    compactionId: summary === undefined ? null : session.entries[summary]!.id,
    warnings: [],
  };
}

/**
 * The Chat Completions body of `turn`. With a request header (FM-RQ-4): its system prompt when
 * the list has no leading system/developer message (hermes does not store it, FM-HA-3), its tools
 * and its settings; without one, model, tools and settings are marked not recorded.
 */
function buildMessageListTurnRequest(session: Session, options: PipelineOptions, turn: number): BuiltRequest {
  checkedTurn(session, turn);
  const index = getIndex(session);
  const length = contextLength(session, index, turn);
  const entries = session.entries.slice(0, length);
  const header = options.header ?? null;
  const messages: ContextMessage[] = contextMessages(session, length);
  const sent: Record<string, unknown>[] = entries.map((entry) => sentMessage(entry.raw));
  const firstRole = entries[0]?.raw.role;
  const labels: string[] = ["model"];
  if (header?.systemPrompt && firstRole !== "system" && firstRole !== "developer") {
    sent.unshift({ role: "system", content: header.systemPrompt });
    messages.unshift({
      message: { role: "user", content: [{ type: "text", text: header.systemPrompt }] },
      provenance: { rule: HERMES_SYSTEM_PROMPT_RULE, sentAsSystem: true, entryId: null, ruleId: "FM-RQ-4", inferred: "FM-RQ-4", explanation: `System prompt from the request header ${header.source}.` },
    });
  }
  const body: Record<string, unknown> = { model: notRecorded("model"), messages: sent };
  if (header?.tools) {
    body.tools = header.tools.map((tool) => ({
      type: "function",
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    }));
  } else {
    body.tools = notRecorded("tool definitions");
    labels.push("tools");
  }
  if (header) {
    if (header.maxTokens !== undefined) body.max_completion_tokens = header.maxTokens;
    for (const [key, value] of Object.entries(header.extraSettings)) {
      if (key !== "__proto__" && !(key in body)) body[key] = value;
    }
  } else {
    labels.push("settings (temperature, output cap, …)");
  }
  return {
    api: "openai-completions",
    body,
    messages,
    dropped: [],
    model: resolveModel(null, "openai-completions", options.modelOverrides),
    notRecorded: labels,
  };
}

export const messageListPipeline: FormatPipeline = {
  analyze: (session) => analyzeMessageList(session),
  countTurns: (session) => countMessageListTurns(session),
  buildTurnContext: (session, options, turn) => buildMessageListTurnContext(session, options, turn),
  buildTurnRequest: (session, options, turn) => buildMessageListTurnRequest(session, options, turn),
};
