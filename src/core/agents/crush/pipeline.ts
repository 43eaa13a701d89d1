// Crush's turns and requests (docs/formats/crush.md). Every assistant row Crush stores was created
// for one provider call (one step of fantasy's agent loop), so the k-th assistant row that is not
// a summary answers main request k. A summary row (`is_summary_message`) answers the summariser
// request and is a compaction: later requests start at it, sent as a user message
// (`getSessionMessages`). The request of turn k is the system prompt, Crush's todo reminder, the
// rows read back from the database before this run (trimmed, orphan tool results dropped and
// orphan tool calls answered), then this run's own prompt and steps as fantasy carried them.
import type { AuxiliaryRequestEvent, BuiltRequest, CompactionEvent, ContextMessage, PipelineOptions, Session, TimelineItem, TurnSummary } from "../../model";
import { notRecorded } from "../../model";
import { resolveModel } from "../../models/catalogue";
import type { SessionAnalysis, TurnContext } from "../../pipeline/types";
import { llmMessageChars } from "../pi/convert";
import { crushMessageViews, crushSkipsRow, crushToolCallIds, crushToolResultIds, crushWireMessages } from "./messages";
import { crushHeaderOf, crushRowOf, type CrushMessageRow } from "./session";

/** The user message Crush puts first in every main agent's request (`preparePrompt`); sub-agents get none. */
export const CRUSH_TODO_REMINDER =
  "<system_reminder>This is a reminder that your todo list is currently empty. DO NOT mention this to the user explicitly because they are already aware.\n" +
  'If you are working on tasks that would benefit from a todo list please use the "todos" tool to create one.\n' +
  "If not, please feel free to ignore. Again do not mention this message to the user.</system_reminder>";

/** The tool result Crush sends for a stored tool call that has none (an interrupted call). */
const INTERRUPTED_RESULT = "tool call was interrupted and did not produce a result, you may retry this call if the result is still needed";

interface CrushIndex {
  rows: CrushMessageRow[];
  /** Positions of the assistant rows that answer main requests: turn k is answered by rows[answers[k-1]]. */
  answers: number[];
  /** Positions of the summary rows. */
  summaries: number[];
}

const indexCache = new WeakMap<Session, CrushIndex>();

function indexOf(session: Session): CrushIndex {
  let index = indexCache.get(session);
  if (index) return index;
  const rows = session.entries.map((entry) => crushRowOf(entry.raw));
  index = { rows, answers: [], summaries: [] };
  rows.forEach((row, position) => {
    if (row.role !== "assistant") return;
    (row.isSummaryMessage ? index!.summaries : index!.answers).push(position);
  });
  indexCache.set(session, index);
  return index;
}

export function countCrushTurns(session: Session): number {
  return indexOf(session).answers.length;
}

function checkedAnswer(session: Session, turn: number): number {
  const answers = indexOf(session).answers;
  if (!Number.isInteger(turn) || turn < 1 || turn > answers.length) throw new RangeError(`turn ${turn} does not exist: the Crush session has ${answers.length} turns`);
  return answers[turn - 1]!;
}

/** What the request answered at `position` is built from: where it starts (the summary in force), where this run starts. */
function requestSpan(index: CrushIndex, position: number): { start: number; runStart: number; summary: number | null } {
  const summary = index.summaries.filter((at) => at < position).pop() ?? null;
  const start = summary ?? 0;
  let runStart = position;
  while (runStart > start && index.rows[runStart - 1]!.role !== "user") runStart--;
  // The run's prompt is the user row before its first step; a session with none starts at `start`.
  runStart = runStart > start ? runStart - 1 : start;
  return { start, runStart, summary };
}

export interface SentMessage {
  wire: Record<string, unknown>;
  context: ContextMessage;
}

function fromRow(row: CrushMessageRow, entryId: string, trim: boolean, knownCalls: ReadonlySet<string>, asUser: boolean): SentMessage[] {
  const sent = asUser ? { ...row, role: "user" } : row;
  const wire = crushWireMessages(sent, trim, knownCalls);
  const views = crushMessageViews(sent);
  const explanation = asUser ? "Crush's summary of the conversation before it, sent as a user message: requests after a summary start here." : undefined;
  return wire.map((message, at) => ({
    wire: message,
    context: { message: views[Math.min(at, views.length - 1)]!, provenance: asUser ? { rule: "summary:crush", entryId, explanation } : { rule: "entry", entryId } },
  }));
}

/** Crush's todo reminder for a main agent's session; sub-agent sessions (with a parent) get none. */
export function reminder(session: Session): SentMessage[] {
  if (crushHeaderOf(session)?.parentSessionId) return [];
  return [
    {
      wire: { content: CRUSH_TODO_REMINDER, role: "user" },
      context: {
        message: { role: "user", content: [{ type: "text", text: CRUSH_TODO_REMINDER }] },
        provenance: { rule: "reminder:crush-todos", entryId: null, explanation: "Crush's todo reminder, put first in every request of the main agent; not stored." },
      },
    },
  ];
}

/**
 * Rows [start, end) read back from the database (`preparePrompt`): texts trimmed, skipped rows
 * left out, orphan tool results dropped, tool calls without a result answered by Crush's error;
 * the summary at `summary` sent as a user message.
 */
function historyMessages(session: Session, index: CrushIndex, start: number, end: number, summary: number | null): SentMessage[] {
  const history = index.rows.slice(start, end);
  const knownCalls = new Set(history.flatMap(crushToolCallIds));
  const knownResults = crushToolResultIds(history);
  const sent: SentMessage[] = [];
  history.forEach((row, offset) => {
    const at = start + offset;
    if (crushSkipsRow(row)) return;
    sent.push(...fromRow(row, session.entries[at]!.id, true, knownCalls, at === summary));
    for (const id of crushToolCallIds(row).filter((call) => !knownResults.has(call))) {
      sent.push({
        wire: { content: INTERRUPTED_RESULT, tool_call_id: id, role: "tool" },
        context: {
          message: { role: "toolResult", toolCallId: id, toolName: "", content: [{ type: "text", text: INTERRUPTED_RESULT }], isError: true },
          provenance: { rule: "synthetic:interrupted-tool", entryId: session.entries[at]!.id, explanation: "Crush answers a stored tool call without a result with this error." },
        },
      });
    }
  });
  return sent;
}

/** The messages after the system prompt of the request answered at `position`. */
function requestMessages(session: Session, index: CrushIndex, position: number): SentMessage[] {
  const { start, runStart, summary } = requestSpan(index, position);
  const sent = [...reminder(session), ...historyMessages(session, index, start, runStart, summary)];
  const run = index.rows.slice(runStart, position);
  const runCalls = new Set(run.flatMap(crushToolCallIds));
  run.forEach((row, offset) => {
    const at = runStart + offset;
    sent.push(...fromRow(row, session.entries[at]!.id, false, runCalls, at === summary));
  });
  return sent;
}

/**
 * The messages the summariser sends before its prompt, for the summary row at `position`
 * (`Summarize`): the reminder and every stored row since the summary before it, all read back
 * from the database.
 */
export function summariserMessages(session: Session, position: number): SentMessage[] {
  const index = indexOf(session);
  const summary = index.summaries.filter((at) => at < position).pop() ?? null;
  return [...reminder(session), ...historyMessages(session, index, summary ?? 0, position, summary)];
}

/** Where the rows of turn `turn`'s step end: after its answer and the tool results that follow it. */
export function crushTurnEnd(session: Session, turn: number): number {
  const index = indexOf(session);
  let end = checkedAnswer(session, turn) + 1;
  while (end < index.rows.length && index.rows[end]!.role === "tool") end++;
  return end;
}

/** The positions of the summary rows (each answers one summariser request). */
export function crushSummaryPositions(session: Session): readonly number[] {
  return indexOf(session).summaries;
}

export function modelOf(row: CrushMessageRow | undefined) {
  return row?.model ? { provider: row.provider ?? "unknown", modelId: row.model } : null;
}

export function buildCrushTurnContext(session: Session, options: PipelineOptions, turn: number): TurnContext {
  const position = checkedAnswer(session, turn);
  const index = indexOf(session);
  const { start, summary } = requestSpan(index, position);
  const row = index.rows[position]!;
  return {
    turn,
    entryId: session.entries[position]!.id,
    messages: requestMessages(session, index, position).map((message) => message.context),
    dropped: [],
    model: modelOf(row),
    thinkingLevel: "off",
    api: options.api ?? "openai-completions",
    pathEntryIds: session.entries.slice(start, position).map((entry) => entry.id),
    compactionId: summary === null ? null : session.entries[summary]!.id,
    warnings: [],
  };
}

/**
 * The fields of openai-go's `ChatCompletionNewParams` (v3.50.0, the version fantasy names), in the
 * order openai-go writes them; `stream` is set on the written body afterwards, so it comes last.
 */
const OPENAI_GO_BODY_ORDER = [
  "messages", "model", "frequency_penalty", "logprobs", "max_completion_tokens", "max_tokens", "n", "presence_penalty",
  "prompt_cache_key", "safety_identifier", "seed", "store", "temperature", "top_logprobs", "top_p", "parallel_tool_calls",
  "user", "audio", "logit_bias", "metadata", "modalities", "moderation", "prompt_cache_retention", "reasoning_effort",
  "service_tier", "stop", "stream_options", "verbosity", "function_call", "functions", "prediction", "prompt_cache_options",
  "response_format", "tool_choice", "tools", "web_search_options",
];

/** `fields` in openai-go's order; fields it does not know (a provider's extra body fields) after them, then `stream`. */
function inOpenaiGoOrder(fields: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const key of OPENAI_GO_BODY_ORDER) if (key in fields) body[key] = fields[key];
  for (const [key, value] of Object.entries(fields)) if (!(key in body) && key !== "stream" && key !== "__proto__") body[key] = value;
  body.stream = true;
  return body;
}

/**
 * The Chat Completions body of `turn` as fantasy's OpenAI provider writes it through openai-go:
 * `messages`, `model`, the output cap and settings when a capture supplies them, `stream_options`,
 * `tools`, then `stream`. The system prompt and tools are not stored: from a capture, else marked.
 */
export function buildCrushTurnRequest(session: Session, options: PipelineOptions, turn: number): BuiltRequest {
  const position = checkedAnswer(session, turn);
  const index = indexOf(session);
  const header = options.header ?? null;
  const labels: string[] = [];
  const sent = requestMessages(session, index, position);
  const system = header?.systemPrompt ?? notRecorded("system prompt (Crush's coder prompt with its environment)");
  if (header?.systemPrompt === undefined) labels.push("system");
  const row = index.rows[position]!;
  const model = resolveModel(modelOf(row), "openai-completions", options.modelOverrides);
  const fields: Record<string, unknown> = { ...(header?.extraSettings ?? {}) };
  fields.messages = [{ content: system, role: "system" }, ...sent.map((message) => message.wire)];
  fields.model = row.model ?? notRecorded("model");
  if (header?.maxTokens !== undefined) fields.max_tokens = header.maxTokens;
  else labels.push("max_tokens");
  fields.stream_options = { include_usage: true };
  if (header?.tools !== undefined) {
    fields.tools = header.tools.map((tool) => ({ function: { name: tool.name, strict: false, description: tool.description, parameters: tool.parameters }, type: "function" }));
  } else {
    fields.tools = notRecorded("tool definitions");
    labels.push("tools");
  }
  const messages: ContextMessage[] = [
    { message: { role: "user", content: [{ type: "text", text: typeof system === "string" ? system : "" }] }, provenance: { rule: "header:system", entryId: null, sentAsSystem: true, explanation: "Crush's system prompt: not stored in crush.db." } },
    ...sent.map((message) => message.context),
  ];
  return { api: "openai-completions", body: inOpenaiGoOrder(fields), messages, dropped: [], model, notRecorded: labels };
}

export function analyzeCrushSession(session: Session): SessionAnalysis {
  const index = indexOf(session);
  const turns: TurnSummary[] = [];
  const timeline: TimelineItem[] = [];
  const events: CompactionEvent[] = index.summaries.map((position) => {
    const beforeTurn = index.answers.findIndex((answer) => answer > position) + 1;
    const entry = session.entries[position]!;
    return {
      kind: "compaction",
      entryId: entry.id,
      beforeTurn: beforeTurn === 0 ? null : beforeTurn,
      timestamp: entry.timestamp,
      tokensBefore: null,
      firstKeptEntryId: null,
      summaryChars: crushMessageViews(index.rows[position]!).reduce((sum, message) => sum + llmMessageChars(message), 0),
      model: modelOf(index.rows[position]),
    };
  });
  const afterCompaction = new Set(events.map((event) => event.beforeTurn));
  let eventAt = 0;
  index.answers.forEach((position, at) => {
    const turn = at + 1;
    while (eventAt < events.length && events[eventAt]!.beforeTurn === turn) timeline.push(events[eventAt++]!);
    timeline.push({ kind: "turn", turn });
    const messages = requestMessages(session, index, position);
    const chars = messages.reduce((sum, message) => sum + llmMessageChars(message.context.message), 0);
    const row = index.rows[position]!;
    const previous = at > 0 ? index.rows[index.answers[at - 1]!] : undefined;
    turns.push({
      turn,
      entryId: session.entries[position]!.id,
      timestamp: session.entries[position]!.timestamp,
      model: modelOf(row),
      api: "openai-completions",
      thinkingLevel: "off",
      messageCount: messages.length + 1,
      estimatedTokens: Math.ceil(chars / 4),
      chars,
      // crush.db keeps token counters per session, none per message.
      usage: null,
      stopReason: typeof row.parts.find((part) => part.type === "finish")?.data.reason === "string" ? String(row.parts.find((part) => part.type === "finish")!.data.reason) : null,
      afterCompaction: afterCompaction.has(turn),
      modelSwitched: previous !== undefined && previous.model !== row.model,
      hasNote: false,
      hasDropped: false,
    });
  });
  while (eventAt < events.length) timeline.push(events[eventAt++]!);
  // Each summary row answered one summariser request (./summariser.ts rebuilds it).
  const auxiliary: AuxiliaryRequestEvent[] = events.map((event, at) => ({
    kind: "auxiliary",
    index: at,
    purpose: "summary",
    entryId: event.entryId,
    beforeTurn: event.beforeTurn,
    timestamp: event.timestamp,
    rule: "synth:compaction-summary",
    ruleId: "FM-CR-15",
    label: "Crush summariser",
    model: event.model ?? null,
    explanation: "Crush's summariser request: its summary prompt as the system message, the conversation since the last summary, and its request for a detailed summary.",
  }));
  const last = session.entries[session.entries.length - 1];
  return {
    branches: last ? [{ leafId: last.id, turns: index.answers.length, timestamp: last.timestamp, label: null, isDefault: true }] : [],
    leafId: last?.id ?? null,
    turns,
    timeline,
    warnings: [],
    auxiliary,
  };
}
