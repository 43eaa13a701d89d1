// Turns of a Gemini CLI chat: one per main request (a `gemini` message written for the first
// time), each rebuilt as the generateContent body the CLI sends (docs/formats/gemini-cli.md):
// `{contents, systemInstruction, tools, generationConfig}`. The contents come from the folded
// history (history.ts, contents.ts); the system instruction, the tool declarations and the
// generationConfig are not in the file: a captured main request fills them (capture.ts), else they
// are marked "not recorded". Chat compressions become timeline events before the next turn.
// The analysis makes each turn's contents once and leaves a mark of what was new in them; the walk
// of every turn's request follows the marks instead of folding the history a second time.
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
import { perObject } from "../../util/per-object";
import { contentMessage } from "./context";
import { getGeminiIndex, turnHistory, type GeminiIndex, type GeminiTurn } from "./history";

/**
 * A turn's contents and context messages (the carry's own lists: read them at once), their
 * characters as JSON, how many leading items the carry's previous request had too, and the turn's mark.
 */
interface TurnContents {
  wire: readonly object[];
  messages: readonly ContextMessage[];
  chars: number;
  carry: ContentsCarry;
  same: number;
  mark: TurnMark | null;
}

/**
 * The last turn's context messages of each history list and the running total of their
 * characters, beside the contents (contents.ts keeps those): the next turn's contents repeat them
 * (the same objects), so only the new ones are mapped and measured.
 */
interface ContentsCarry {
  messages: ContextMessage[];
  charEnds: number[];
  /** The contents' request number these lists were brought to (contents.ts `HistoryContents.call`). */
  call: number;
  /** The mark of the turn the lists were last brought to, when that turn has one. */
  lastMark: TurnMark | null;
}

/**
 * What the analysis learnt of one turn's contents, kept so that the walk of every turn's request
 * follows it instead of folding and converting the same history a second time: the turn's lists
 * are the first `kept` items of the lists of the turn marked `after` (the same objects), then the
 * `wire` contents and context `messages` here (the few new ones). Made the first time a turn's
 * contents are made, in whatever order: a walk that finds a mark whose `after` is not the turn it
 * walked just before takes that turn's contents from the history again.
 */
interface TurnMark {
  after: TurnMark | null;
  kept: number;
  wire: readonly object[];
  messages: readonly ContextMessage[];
}

/**
 * A walk of every turn whose reader reads each request before asking for the next and keeps none
 * past the turn after (PipelineHooks.reuseRequestLists): its lists are two handed out in turn,
 * brought up to date with the new items, instead of a copy of the whole context per turn.
 */
type TurnWalk = object;

/** By the contents' carry (contents.ts `HistoryContents.carry`), which moves with the lists to a history copied from theirs. */
const contentsCarries = new WeakMap<object, ContentsCarry>();
/** Each turn's mark (`TurnMark`), from the first time its contents were made. */
const turnMarks = new WeakMap<GeminiTurn, TurnMark>();

function turnContents(turn: GeminiTurn): TurnContents {
  const { wire, sourced, kept, call, carry: owner } = historyRequestContents(turn.historyBase, turn.historyLength);
  let carry = contentsCarries.get(owner);
  if (!carry) {
    carry = { messages: [], charEnds: [], call: 0, lastMark: null };
    contentsCarries.set(owner, carry);
  }
  // Lists not brought along with the contents' previous request are made again (from per-content caches).
  const follows = call === carry.call + 1;
  const same = follows ? Math.min(kept, carry.messages.length) : 0;
  carry.call = call;
  carry.messages.length = same;
  carry.charEnds.length = same;
  let chars = same > 0 ? carry.charEnds[same - 1]! : 0;
  for (let i = same; i < wire.length; i++) {
    chars += contentsChars([wire[i]!]);
    carry.messages.push(contentMessage(sourced[i]!));
    carry.charEnds.push(chars);
  }
  let mark = turnMarks.get(turn) ?? null;
  // A mark holds the new items only: contents made out of their history's order (the carry's
  // previous request unknown) would make one hold the whole context, so such a turn has none.
  if (!mark && follows && (same === 0 || carry.lastMark !== null)) {
    mark = { after: same > 0 ? carry.lastMark : null, kept: same, wire: wire.slice(same), messages: carry.messages.slice(same) };
    turnMarks.set(turn, mark);
  }
  carry.lastMark = mark;
  return { wire, messages: carry.messages, chars, carry, same, mark };
}

/** A walk's own lists: the turn's contents and context messages as the marks bring them, and the lists handed out last. */
class WalkLists {
  readonly wire: object[] = [];
  readonly messages: ContextMessage[] = [];
  /** The mark the lists were brought to last (null: none, or a turn taken from its history). */
  private mark: TurnMark | null = null;
  /** The carry and request number of the last turn taken from its history (the carry then says what it kept). */
  private carry: ContentsCarry | null = null;
  private call = 0;
  private lastBody: readonly object[] | null = null;
  private bodyShared = 0;
  private lastMessages: readonly ContextMessage[] | null = null;
  private messagesShared = 0;
  private readonly bodyLists = new AlternatingLists<object>();
  private readonly messageLists = new AlternatingLists<ContextMessage>();

  constructor(private readonly walk: TurnWalk | null) {}

  /** Brings the lists to `turn`'s: from its mark when it follows the turn before, else from its history. */
  bring(turn: GeminiTurn): void {
    let mark = turnMarks.get(turn);
    let same: number;
    if (mark && mark === this.mark) same = this.wire.length;
    else if (mark && (mark.kept === 0 || (mark.after !== null && mark.after === this.mark))) {
      same = mark.kept;
      this.wire.length = same;
      this.messages.length = same;
      for (const content of mark.wire) this.wire.push(content);
      for (const message of mark.messages) this.messages.push(message);
      this.carry = null;
    } else {
      // Its history folded again (the carry's lists are read at once); only what differs from the
      // turn before is replaced.
      const made = turnContents(turn);
      const { messages } = made;
      mark = made.mark ?? undefined;
      if (made.carry === this.carry && made.carry.call === this.call + 1) same = Math.min(made.same, this.wire.length);
      else {
        same = 0;
        while (same < this.wire.length && same < made.wire.length && this.wire[same] === made.wire[same] && this.messages[same] === messages[same]) same++;
      }
      this.carry = made.carry;
      this.call = made.carry.call;
      this.wire.length = same;
      this.messages.length = same;
      for (let i = same; i < made.wire.length; i++) {
        this.wire.push(made.wire[i]!);
        this.messages.push(messages[i]!);
      }
    }
    this.mark = mark ?? null;
    this.bodyShared = Math.min(this.bodyShared, same);
    this.messagesShared = Math.min(this.messagesShared, same);
    // The contents and the messages past `same` are new: the lists a walk is handed follow them from there.
    this.bodyLists.cut(same);
    this.messageLists.cut(same);
  }

  /**
   * The turn's context messages as a list of the caller's (a copy, or one of a walk's two lists),
   * recorded as sharing its head with the list handed out before, so that a reader comparing the
   * two (the composition of every turn) need not compare those messages.
   */
  handedMessages(): ContextMessage[] {
    const list = this.walk ? this.messageLists.next(this.messages, this.walk) : this.messages.slice();
    if (this.lastMessages) recordSharedHead(list, this.lastMessages, this.messagesShared);
    this.lastMessages = list;
    this.messagesShared = list.length;
    return list;
  }

  /**
   * The turn's `contents` as the body's own list (one copy, or one of a walk's two lists), recorded
   * as sharing its head with the previous body, so that the segmenter need not compare those contents.
   */
  bodyContents(): object[] {
    const body = this.walk ? this.bodyLists.next(this.wire, this.walk) : this.wire.slice();
    if (this.lastBody) recordSharedHead(body, this.lastBody, this.bodyShared);
    this.lastBody = body;
    this.bodyShared = body.length;
    return body;
  }
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
  const { wire, chars: contentChars } = turnContents(turn);
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
  const lists = singleLists(session);
  lists.bring(turn);
  const messages = lists.handedMessages();
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
  return turnRequest(selectedTurn(getGeminiIndex(session), turnNumber), options, singleLists(session));
}

/** The lists one-turn builds of a session bring from turn to turn (copies handed out), so that consecutive builds record what they share. */
const singleLists = perObject<Session, WalkLists>(() => new WalkLists(null));

/**
 * Every turn's request in order, following the marks the analysis left (each turn's new contents
 * and messages) instead of folding every turn's history again. With `reuseRequestLists` each
 * request's contents and messages are one of two lists handed out in turn (`TurnWalk`), not
 * copies of the whole context.
 */
export function* iterateGeminiTurnRequests(session: Session, options: PipelineOptions, hooks: PipelineHooks): Generator<{ turn: number; request: BuiltRequest }> {
  const index = getGeminiIndex(session);
  // As the pipeline's one-turn entry point applies them (session/pipeline.ts buildTurnRequest).
  const effective = withCaptureModelFacts(options);
  const lists = new WalkLists(hooks.reuseRequestLists === true ? {} : null);
  // The fields the file does not hold are the session's: every request of the walk has the same
  // objects, which the segmenter then knows by identity instead of measuring them again per turn.
  const fields = requestHeaderFields(effective);
  for (const turn of index.turns) yield { turn: turn.turn, request: turnRequest(turn, effective, lists, fields) };
}

/** A turn's request, its contents and messages as `lists` brings them (from the turn's mark when it follows the turn before). */
function turnRequest(turn: GeminiTurn, options: PipelineOptions, lists: WalkLists, fields = requestHeaderFields(options)): BuiltRequest {
  lists.bring(turn);
  const messages = lists.handedMessages();
  const wire = lists.bodyContents();
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
