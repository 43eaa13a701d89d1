// Turns of a Gemini CLI chat: one per main request (a `gemini` message written for the first
// time), each rebuilt as the generateContent body the CLI sends (docs/formats/gemini-cli.md):
// `{contents, systemInstruction, tools, generationConfig}`. The contents come from the folded
// history (history.ts, contents.ts); the system instruction, the tool declarations and the
// generationConfig are not in the file: a captured main request fills them (capture.ts), else they
// are marked "not recorded". Chat compressions become timeline events before the next turn.
import type { BuiltRequest, CompactionEvent, ContextMessage, ModelRef, PipelineOptions, RecordedUsage, Session, TurnSummary } from "../../model";
import { resolveModel } from "../../models/catalogue";
import type { PipelineHooks, SessionAnalysis, TurnContext } from "../../pipeline/types";
import { AlternatingLists } from "../../providers/alternating-lists";
import { withCaptureModelFacts } from "../../captures/modelFacts";
import { analyzeOneBranch, oneBranchSummary, type TurnPlace } from "../../pipeline/oneBranchAnalysis";
import { sessionConstant } from "../../captures/fact";
import { capturedOrFromHeader, valueOrNotRecorded } from "../../captures/headerField";
import { isObject } from "../../util/is-object";
import { jsonLength } from "../../simulate/json-length";
import { textUnits } from "../../text/text";
import { GEMINI_GENERATION_CONFIG, GEMINI_SYSTEM_INSTRUCTION, GEMINI_TOOLS } from "./capture";
import { historyRequestContents } from "./contents";
import { recordSharedHead } from "../../util/list-lineage";
import { contentMessage } from "./context";
import { getGeminiIndex, turnHistory, type GeminiIndex, type GeminiTurn } from "./history";

/** A turn's contents (the carry's own list: read it at once) with their context messages (when asked for) and their characters as JSON. */
interface TurnContents {
  wire: readonly object[];
  messages: ContextMessage[] | null;
  chars: number;
}

/**
 * The last turn's context messages of each history list and the running total of their
 * characters, beside the contents (contents.ts keeps those): the next turn's contents repeat them
 * (the same objects), so only the new ones are mapped and measured. With them, the last message
 * list and request contents handed out for the list, and how many leading items the carry still
 * shares with each (recorded on the next ones, so the readers downstream compare only the new part).
 */
interface ContentsCarry {
  messages: ContextMessage[];
  charEnds: number[];
  /** The contents' request number these lists were brought to (contents.ts `HistoryContents.call`). */
  call: number;
  lastBody: readonly object[] | null;
  bodyShared: number;
  lastMessages: readonly ContextMessage[] | null;
  messagesShared: number;
  /** The two lists of each kind a walk whose reader keeps no request past the turn after is handed in turn (`TurnWalk`). */
  bodyLists: AlternatingLists<object>;
  messageLists: AlternatingLists<ContextMessage>;
}

/**
 * A walk of every turn whose reader reads each request before asking for the next and keeps none
 * past the turn after (PipelineHooks.reuseRequestLists): its lists are two handed out in turn,
 * brought up to date with the new items, instead of a copy of the whole context per turn.
 */
type TurnWalk = object;

/** By the contents' carry (contents.ts `HistoryContents.carry`), which moves with the lists to a history copied from theirs. */
const contentsCarries = new WeakMap<object, ContentsCarry>();
/** The carry a turn's contents were last made with, for its body (`bodyContents`). */
const lastCarries = new WeakMap<GeminiTurn, ContentsCarry>();

function turnContents(turn: GeminiTurn, withMessages: boolean, walk: TurnWalk | null = null): TurnContents {
  const { wire, sourced, kept, call, carry: owner } = historyRequestContents(turn.historyBase, turn.historyLength);
  let carry = contentsCarries.get(owner);
  if (!carry) {
    carry = { messages: [], charEnds: [], call: 0, lastBody: null, bodyShared: 0, lastMessages: null, messagesShared: 0, bodyLists: new AlternatingLists(), messageLists: new AlternatingLists() };
    contentsCarries.set(owner, carry);
  }
  lastCarries.set(turn, carry);
  // Lists not brought along with the contents' previous request are made again (from per-content caches).
  const same = call === carry.call + 1 ? Math.min(kept, carry.messages.length) : 0;
  carry.call = call;
  carry.messages.length = same;
  carry.charEnds.length = same;
  carry.bodyShared = Math.min(carry.bodyShared, same);
  carry.messagesShared = Math.min(carry.messagesShared, same);
  // The contents and the messages past `same` are new: the lists a walk is handed follow them from there.
  carry.bodyLists.cut(same);
  carry.messageLists.cut(same);
  let chars = same > 0 ? carry.charEnds[same - 1]! : 0;
  for (let i = same; i < wire.length; i++) {
    chars += contentsChars([wire[i]!]);
    carry.messages.push(contentMessage(sourced[i]!));
    carry.charEnds.push(chars);
  }
  // The summary reads the size only: the list of context messages is made for a request.
  return { wire, messages: withMessages ? handedMessages(carry, walk) : null, chars };
}

/**
 * The turn's context messages as a list of the caller's (a copy, or one of a walk's two lists),
 * recorded as sharing its head with the list handed out before, so that a reader comparing the
 * two (the composition of every turn) need not compare those messages.
 */
function handedMessages(carry: ContentsCarry, walk: TurnWalk | null): ContextMessage[] {
  const list = walk ? carry.messageLists.next(carry.messages, walk) : carry.messages.slice();
  if (carry.lastMessages) recordSharedHead(list, carry.lastMessages, carry.messagesShared);
  carry.lastMessages = list;
  carry.messagesShared = list.length;
  return list;
}

/**
 * A turn's `contents` as the body's own list (one copy, or one of a walk's two lists), recorded as
 * sharing its head with the previous body made of the same history, so that the segmenter need
 * not compare those contents.
 */
function bodyContents(turn: GeminiTurn, wire: readonly object[], walk: TurnWalk | null): object[] {
  const carry = lastCarries.get(turn)!;
  const body = walk ? carry.bodyLists.next(wire, walk) : wire.slice();
  if (carry.lastBody) recordSharedHead(body, carry.lastBody, carry.bodyShared);
  carry.lastBody = body;
  carry.bodyShared = body.length;
  return body;
}

const API = "google-generative-ai" as const;

function num(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

/** The model that answered, as the answer records it (the CLI's provider is always Google). */
function turnModel(turn: GeminiTurn): ModelRef | null {
  const model = turn.answerRecord.model;
  return typeof model === "string" && model.length > 0 ? { provider: "google", modelId: model } : null;
}

/**
 * The answer's `tokens` (the response's usageMetadata) in the usage shape every agent records:
 * `input` is promptTokenCount, which includes the implicit-cache hits (`cached`); tool-use prompt
 * tokens are input too; thought tokens are billed as output.
 */
function turnUsage(turn: GeminiTurn): RecordedUsage | null {
  const tokens = turn.answerRecord.tokens;
  if (!isObject(tokens)) return null;
  const cacheRead = num(tokens.cached);
  const input = Math.max(0, num(tokens.input) - cacheRead) + num(tokens.tool);
  const output = num(tokens.output) + num(tokens.thoughts);
  return { input, output, cacheRead, cacheWrite: 0, totalTokens: num(tokens.total) || input + cacheRead + output };
}

/** The prompt size the CLI itself saw for a turn: the response's promptTokenCount. */
export function promptTokens(turn: GeminiTurn): number | null {
  const tokens = turn.answerRecord.tokens;
  return isObject(tokens) && typeof tokens.input === "number" ? tokens.input : null;
}

function compactionEvent(index: GeminiIndex, position: number): CompactionEvent {
  const compression = index.compressions[position]!;
  const previous = index.turns[compression.turnsBefore - 1];
  const next = index.turns[compression.turnsBefore];
  return {
    kind: "compaction",
    entryId: compression.entry.id,
    beforeTurn: next ? next.turn : null,
    timestamp: compression.entry.timestamp ?? (typeof (compression.entry.raw.$set as Record<string, unknown>).lastUpdated === "string" ? ((compression.entry.raw.$set as Record<string, unknown>).lastUpdated as string) : null),
    tokensBefore: previous ? promptTokens(previous) : null,
    firstKeptEntryId: compression.after[compression.keptFrom]?.entryId ?? null,
    summaryChars: textUnits(compression.summary),
  };
}

function selectedTurn(index: GeminiIndex, turn: number): GeminiTurn {
  const found = Number.isInteger(turn) ? index.turns[turn - 1] : undefined;
  if (!found) throw new RangeError(`turn ${turn} does not exist: the chat has ${index.turns.length} requests`);
  return found;
}

/** The characters of a request's contents as JSON, for the chars/4 estimate. */
function contentsChars(contents: readonly object[]): number {
  let total = 0;
  for (const content of contents) {
    // Measured once per content object: a turn's contents are mostly the previous turn's.
    let chars = contentChars.get(content);
    if (chars === undefined) {
      // Its JSON's length with large texts kept as bytes counted as the texts they hold.
      chars = jsonLength(content) ?? 0;
      contentChars.set(content, chars);
    }
    total += chars;
  }
  return total;
}

const contentChars = new WeakMap<object, number>();

/** A turn's summary and what it was made from besides the turn's history (which does not change). */
interface KeptSummary {
  summary: TurnSummary;
  answerRecord: Record<string, unknown>;
  systemChars: number;
}

/**
 * Summaries made per turn: a followed chat that grows keeps its turns (the fold goes on,
 * history.ts `carryGeminiFold`), so the analysis of the grown session builds the new turns' requests only.
 */
const keptSummaries = new WeakMap<GeminiTurn, KeptSummary>();

/** The summary of `turn`: the kept one while its answer record, header size and place are the same, else made from its request. */
function turnSummary(turn: GeminiTurn, systemChars: number, place: TurnPlace): TurnSummary {
  const kept = keptSummaries.get(turn);
  if (
    kept &&
    kept.answerRecord === turn.answerRecord &&
    kept.systemChars === systemChars &&
    kept.summary.turn === turn.turn &&
    kept.summary.afterCompaction === place.afterCompaction &&
    kept.summary.modelSwitched === place.modelSwitched
  ) {
    return kept.summary;
  }
  const { wire, chars: contentChars } = turnContents(turn, false);
  const chars = systemChars + contentChars;
  const summary = oneBranchSummary({ turn: turn.turn, entry: turn.answer, api: API, thinkingLevel: "off", messageCount: wire.length, chars, usage: turnUsage(turn) }, place);
  keptSummaries.set(turn, { summary, answerRecord: turn.answerRecord, systemChars });
  return summary;
}

export function analyzeGeminiSession(session: Session, options: PipelineOptions): SessionAnalysis {
  const index = getGeminiIndex(session);
  const systemChars = headerChars(options);
  const fold = { turns: index.turns, compactions: index.compressions, warnings: index.warnings };
  return analyzeOneBranch(session, fold, { compactionEvent: (position) => compactionEvent(index, position), modelOf: turnModel, summary: (turn, place) => turnSummary(turn, systemChars, place) });
}

export function countGeminiTurns(session: Session): number {
  return getGeminiIndex(session).turns.length;
}

function compactionIdOf(index: GeminiIndex, turn: GeminiTurn): string | null {
  let id: string | null = null;
  for (const compression of index.compressions) if (compression.turnsBefore < turn.turn) id = compression.entry.id;
  return id;
}

export function buildGeminiTurnContext(session: Session, _options: PipelineOptions, turnNumber: number): TurnContext {
  const index = getGeminiIndex(session);
  const turn = selectedTurn(index, turnNumber);
  const history = turnHistory(turn);
  const messages = turnContents(turn, true).messages!;
  return {
    turn: turn.turn,
    entryId: turn.answer.id,
    messages,
    dropped: [],
    model: turnModel(turn),
    thinkingLevel: "off",
    api: API,
    pathEntryIds: [...new Set(history.map((m) => m.entryId))],
    compactionId: compactionIdOf(index, turn),
    warnings: [],
  };
}

function headerChars(options: PipelineOptions): number {
  const system = sessionConstant(options, GEMINI_SYSTEM_INSTRUCTION)?.value;
  const tools = sessionConstant(options, GEMINI_TOOLS)?.value;
  return (system !== undefined ? JSON.stringify(system).length : (options.header?.systemPrompt?.length ?? 0)) + (tools !== undefined ? JSON.stringify(tools).length : 0);
}

/** The request fields the file does not hold: captured verbatim, else from a generic header, else not recorded. */
function requestHeaderFields(options: PipelineOptions): { systemInstruction: unknown; tools: unknown; generationConfig: unknown; missing: string[] } {
  const missing: string[] = [];
  const header = options.header ?? null;
  const systemInstruction = capturedOrFromHeader(
    sessionConstant(options, GEMINI_SYSTEM_INSTRUCTION)?.value,
    header?.systemPrompt,
    (text) => ({ parts: [{ text }], role: "user" }),
    "system instruction",
    "system instruction",
    missing,
  );
  const tools = capturedOrFromHeader(
    sessionConstant(options, GEMINI_TOOLS)?.value,
    header?.tools,
    (declared) => [{ functionDeclarations: declared.map((tool) => ({ name: tool.name, description: tool.description, parametersJsonSchema: tool.parameters })) }],
    "tool declarations",
    "tools",
    missing,
  );
  const generationConfig = valueOrNotRecorded(sessionConstant(options, GEMINI_GENERATION_CONFIG)?.value, "generationConfig", "generation settings", missing);
  return { systemInstruction, tools, generationConfig, missing };
}

export function buildGeminiTurnRequest(session: Session, options: PipelineOptions, turnNumber: number): BuiltRequest {
  return turnRequest(selectedTurn(getGeminiIndex(session), turnNumber), options, null);
}

/**
 * Every turn's request in order. With `reuseRequestLists` each request's contents and messages
 * are one of two lists handed out in turn (`TurnWalk`), not copies of the whole context.
 */
export function* iterateGeminiTurnRequests(session: Session, options: PipelineOptions, hooks: PipelineHooks): Generator<{ turn: number; request: BuiltRequest }> {
  const index = getGeminiIndex(session);
  // As the pipeline's one-turn entry point applies them (session/pipeline.ts buildTurnRequest).
  const effective = withCaptureModelFacts(options);
  const walk: TurnWalk | null = hooks.reuseRequestLists === true ? {} : null;
  // The fields the file does not hold are the session's: every request of the walk has the same
  // objects, which the segmenter then knows by identity instead of measuring them again per turn.
  const fields = requestHeaderFields(effective);
  for (const turn of index.turns) yield { turn: turn.turn, request: turnRequest(turn, effective, walk, fields) };
}

function turnRequest(turn: GeminiTurn, options: PipelineOptions, walk: TurnWalk | null, fields = requestHeaderFields(options)): BuiltRequest {
  const contents = turnContents(turn, true, walk);
  const wire = bodyContents(turn, contents.wire, walk);
  const messages = contents.messages!;
  const body: Record<string, unknown> = {
    contents: wire,
    systemInstruction: fields.systemInstruction,
    tools: fields.tools,
    generationConfig: fields.generationConfig,
  };
  const modelRef = turnModel(turn);
  return {
    api: API,
    body,
    messages,
    dropped: [],
    model: resolveModel(modelRef, API, options.modelOverrides),
    notRecorded: fields.missing.slice(),
  };
}
