// Turns of a Qwen Code chat: one per `assistant` record with usage (history.ts), each rebuilt as the
// Chat Completions body Qwen Code sends (docs/formats/qwen-code.md):
// `{model, messages, max_tokens, stream, stream_options, tools}`. The system message, the tool
// schemas, max_tokens and the reminders added on send are not in the file: a captured main request
// fills them (capture.ts), else they are marked "not recorded". Chat compressions become timeline
// events before the next turn.
import type { BuiltRequest, CompactionEvent, ModelInfo, ModelRef, PipelineOptions, RecordedUsage, Session, TurnSummary } from "../../model";
import { notRecorded } from "../../model";
import { notInCatalogue, resolveModel } from "../../models/catalogue";
import type { SessionAnalysis, TurnContext } from "../../pipeline/types";
import { analyzeOneBranch, oneBranchSummary, type TurnPlace } from "../../pipeline/oneBranchAnalysis";
import { sessionConstant } from "../../captures/fact";
import { capturedOrFromHeader, valueOrNotRecorded } from "../../captures/headerField";
import { isObject } from "../../util/is-object";
import { jsonLength as exactJsonLength } from "../../simulate/json-length";
import { QWEN_DATE_REMINDER, QWEN_MAX_TOKENS, QWEN_STARTUP_REMINDERS, QWEN_SYSTEM, QWEN_TOOLS } from "./capture";
import { withWrittenFiles } from "./folderTree";
import { clampedMaxTokens, QWEN_DEFAULT_WINDOW } from "./outputClamp";
import { callContents, getQwenIndex, promptTokens, turnContents, type QwenIndex, type QwenTurn } from "./history";
import { CarriedSum } from "../../util/carried-map";
import { perObject } from "../../util/per-object";
import { contextMessages, MessageCarry, wireMessages, type Reminders, type SourcedMessage } from "./request";

const API = "openai-completions" as const;

function num(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

/** The model the answer names; Qwen Code talks to an OpenAI-compatible endpoint whose provider the file does not name. */
export function turnModel(turn: QwenTurn): ModelRef | null {
  const model = turn.answer.raw.model;
  return typeof model === "string" && model.length > 0 ? { provider: "openai", modelId: model } : null;
}

/** The answer's usageMetadata in the usage shape every agent records: prompt tokens include the cached ones; thoughts are output. */
function turnUsage(turn: QwenTurn): RecordedUsage | null {
  const usage = turn.answer.raw.usageMetadata;
  if (!isObject(usage)) return null;
  const cacheRead = num(usage.cachedContentTokenCount);
  const input = Math.max(0, num(usage.promptTokenCount) - cacheRead);
  const output = num(usage.candidatesTokenCount) + num(usage.thoughtsTokenCount);
  return { input, output, cacheRead, cacheWrite: 0, totalTokens: num(usage.totalTokenCount) || input + cacheRead + output };
}

/**
 * The window Qwen Code clamps against: its settings' contextWindowSize, else its own table of known
 * models, else 200,000. Neither is in the chat file; a model our catalogue knows (or the user set)
 * gives its window, any other model Qwen Code's default — inferred, and editable in the model panel.
 */
function contextWindow(session: Session, turn: QwenTurn, options: PipelineOptions): number {
  const model = resolvedModel(session, turn, options);
  return notInCatalogue(model) ? QWEN_DEFAULT_WINDOW : model.contextWindow;
}

/**
 * The model a session's call resolves to, kept while the call names the same model under the same
 * overrides (a chat's calls mostly do): its window is asked for each time the call is built (its summary, then its request), and its
 * request holds a copy of its own.
 */
const lastResolvedOf = perObject<Session, { id: string | null; overrides: unknown; model: ModelInfo | null }>(() => ({ id: null, overrides: undefined, model: null }));

function resolvedModel(session: Session, turn: QwenTurn, options: PipelineOptions): ModelInfo {
  const ref = turnModel(turn);
  const id = ref?.modelId ?? null;
  const last = lastResolvedOf(session);
  if (last.model === null || last.id !== id || last.overrides !== options.modelOverrides) {
    last.model = resolveModel(ref, API, options.modelOverrides);
    last.id = id;
    last.overrides = options.modelOverrides;
  }
  return last.model;
}

function selectedTurn(index: QwenIndex, turn: number): QwenTurn {
  const found = Number.isInteger(turn) ? index.turns[turn - 1] : undefined;
  if (!found) throw new RangeError(`turn ${turn} does not exist: the chat has ${index.turns.length} calls`);
  return found;
}

/** The reminders a process adds on send: the startup ones list the folder as it was when the process started. */
export function sendReminders(options: PipelineOptions, cwd: string | null, writtenBefore: readonly string[], withStartup: boolean): Reminders {
  const startup = sessionConstant(options, QWEN_STARTUP_REMINDERS)?.value;
  const date = sessionConstant(options, QWEN_DATE_REMINDER)?.value;
  return {
    startup: Array.isArray(startup) ? startup.filter((text): text is string => typeof text === "string").map((text) => withWrittenFiles(text, cwd, writtenBefore)) : null,
    date: typeof date === "string" ? date : null,
    withStartup,
  };
}

/** The system message and the tool list of a call, with the labels of those not recorded, and what they were made from. */
interface SystemAndTools {
  sources: readonly unknown[];
  system: unknown;
  tools: unknown;
  missing: readonly string[];
}

/**
 * Each session's system message and tool list, kept while what they are made from is the same: every
 * call sends them, and the same objects let the later stages (cache segments, sizes) take them
 * and every message after them from the call before instead of measuring them again.
 */
const systemAndToolsOf = perObject<Session, { last: SystemAndTools | null }>(() => ({ last: null }));

function systemAndTools(session: Session, options: PipelineOptions): SystemAndTools {
  const header = options.header ?? null;
  const sources = [sessionConstant(options, QWEN_SYSTEM)?.value, header?.systemPrompt, sessionConstant(options, QWEN_TOOLS)?.value, header?.tools];
  const kept = systemAndToolsOf(session);
  if (kept.last !== null && kept.last.sources.every((source, i) => source === sources[i])) return kept.last;
  const missing: string[] = [];
  const system = capturedOrFromHeader(sources[0], header?.systemPrompt, (content) => ({ role: "system", content }), "system prompt", "system prompt", missing);
  const tools = capturedOrFromHeader(
    sources[2],
    header?.tools,
    (declared) => declared.map((tool) => ({ type: "function", function: { name: tool.name, description: tool.description, parameters: tool.parameters } })),
    "tool schemas",
    "tools",
    missing,
  );
  kept.last = { sources, system, tools, missing };
  return kept.last;
}

/** The request fields the file does not hold: captured verbatim, else from a generic header, else not recorded. */
function headerFields(session: Session, options: PipelineOptions, turn: QwenTurn, window: number): { system: unknown; tools: unknown; maxTokens: unknown; missing: string[] } {
  const { system, tools, missing: kept } = systemAndTools(session, options);
  const missing = [...kept];
  const captured = sessionConstant(options, QWEN_MAX_TOKENS)?.value;
  const maxTokens =
    typeof captured === "number" ? clampedMaxTokens(captured, window, turn.countsBefore, turnContents(turn), turn.added) : valueOrNotRecorded(captured, "max_tokens", "max_tokens", missing);
  return { system, tools, maxTokens, missing };
}

/** Each chat's messages carried from call to call (request.ts): one carry per session. */
const messageCarryOf = perObject<Session, MessageCarry>(() => new MessageCarry());

/** A call's messages after the system message, carried from the session's call before. */
function turnMessages(session: Session, options: PipelineOptions, turn: QwenTurn): SourcedMessage[] {
  return wireMessages(callContents(turn), sendReminders(options, turn.cwd, turn.writtenBefore, !turn.firstAfterAutoCompression), messageCarryOf(session));
}

function turnRequest(session: Session, options: PipelineOptions, turnNumber: number): { body: Record<string, unknown>; sourced: SourcedMessage[]; missing: string[]; turn: QwenTurn } {
  const turn = selectedTurn(getQwenIndex(session), turnNumber);
  const sourced = turnMessages(session, options, turn);
  const fields = headerFields(session, options, turn, contextWindow(session, turn, options));
  const messages: unknown[] = [fields.system];
  for (const message of sourced) messages.push(message.wire);
  const body: Record<string, unknown> = {
    model: turnModel(turn)?.modelId ?? notRecorded("model"),
    messages,
    max_tokens: fields.maxTokens,
    stream: true,
    stream_options: { include_usage: true },
    tools: fields.tools,
  };
  return { body, sourced, missing: fields.missing, turn };
}

function compactionEvent(index: QwenIndex, position: number): CompactionEvent {
  const compression = index.compressions[position]!;
  const previous = index.turns[compression.turnsBefore - 1];
  const next = index.turns[compression.turnsBefore];
  const original = compression.info.originalTokenCount;
  return {
    kind: "compaction",
    entryId: compression.entry.id,
    beforeTurn: next ? next.turn : null,
    timestamp: compression.entry.timestamp,
    tokensBefore: typeof original === "number" ? original : previous ? promptTokens(previous) : null,
    firstKeptEntryId: null,
    summaryChars: compression.summary.length,
  };
}

/** JSON lengths of the objects every call of a chat sends (the same system message, the same tools). */
const jsonLengths = new WeakMap<object, number>();

function jsonLength(value: unknown): number {
  if (typeof value !== "object" || value === null) return (JSON.stringify(value) ?? "null").length;
  let length = jsonLengths.get(value);
  if (length === undefined) {
    // A tool message may hold a stored text (storedTextPlaces.ts): measured without rendering it.
    length = exactJsonLength(value) ?? 4;
    jsonLengths.set(value, length);
  }
  return length;
}

/**
 * A message's JSON length, measured once per message object (a carried message is one from call to
 * call). A copy the reminders went into is its message's length and the added parts' (each with
 * its comma): a process that starts after a file was written sends new startup reminders in the
 * first message, and measuring each such copy whole read that message's own parts (a
 * compression's summary) again for every prompt.
 */
function messageLength(message: SourcedMessage): number {
  if (message.jsonLength !== undefined) return message.jsonLength;
  const copied = message.copyOf;
  if (copied !== undefined) {
    const before = copied.message.wire.content as unknown[];
    let length = messageLength(copied.message) + (before.length > 0 ? copied.added.length : Math.max(0, copied.added.length - 1));
    for (const part of copied.added) length += exactJsonLength(part) ?? 4;
    message.jsonLength = length;
  } else {
    // A tool message may hold a stored text (storedTextPlaces.ts): measured without rendering it.
    message.jsonLength = exactJsonLength(message.wire) ?? 4;
  }
  return message.jsonLength;
}

/**
 * The summed JSON lengths of a session's calls' messages, each message measured once: the leading
 * messages the last call also sent (the same objects) take their running total, so a call costs
 * its new messages, not a lookup per message of its history.
 */
const messageLengthsOf = perObject<Session, CarriedSum<SourcedMessage>>(() => new CarriedSum(messageLength));

/** A call's size, from its messages alone: the summary needs no request body. */
function turnSummary(session: Session, options: PipelineOptions, turn: QwenTurn, place: TurnPlace): TurnSummary {
  const sourced = turnMessages(session, options, turn);
  const { system, tools } = systemAndTools(session, options);
  const messageCount = 1 + sourced.length;
  // `JSON.stringify(messages).length`: the brackets, the commas and each message's length.
  const messagesLength = 2 + (messageCount - 1) + jsonLength(system) + messageLengthsOf(session).sum(sourced);
  const chars = messagesLength + (Array.isArray(tools) ? jsonLength(tools) : 0);
  return oneBranchSummary({ turn: turn.turn, entry: turn.answer, api: API, thinkingLevel: "off", messageCount, chars, usage: turnUsage(turn) }, place);
}

export function analyzeQwenSession(session: Session, options: PipelineOptions): SessionAnalysis {
  const index = getQwenIndex(session);
  const fold = { turns: index.turns, compactions: index.compressions, warnings: index.warnings };
  return analyzeOneBranch(session, fold, { compactionEvent: (position) => compactionEvent(index, position), modelOf: turnModel, summary: (turn, place) => turnSummary(session, options, turn, place) });
}

export function countQwenTurns(session: Session): number {
  return getQwenIndex(session).turns.length;
}

export function buildQwenTurnContext(session: Session, options: PipelineOptions, turnNumber: number): TurnContext {
  const { sourced, turn } = turnRequest(session, options, turnNumber);
  return {
    turn: turn.turn,
    entryId: turn.answer.id,
    messages: contextMessages(sourced),
    dropped: [],
    model: turnModel(turn),
    thinkingLevel: "off",
    api: API,
    pathEntryIds: [...new Set(turnContents(turn).flatMap((content) => content.entryIds))],
    compactionId: turn.compression?.entry.id ?? null,
    warnings: [],
  };
}

export function buildQwenTurnRequest(session: Session, options: PipelineOptions, turnNumber: number): BuiltRequest {
  const { body, sourced, missing, turn } = turnRequest(session, options, turnNumber);
  return { api: API, body, messages: messageCarryOf(session).contexts.map(sourced), dropped: [], model: { ...resolvedModel(session, turn, options) }, notRecorded: missing };
}
