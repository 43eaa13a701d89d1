// Turns of a Codex rollout: one per main sampling request (FM-CX-9), each rebuilt as the OpenAI
// Responses body Codex sends (FM-CX-8, FM-CX-12): `[base instructions] + history`, the fixed
// request settings, the thread id as cache key and the client metadata. Tool schemas and a few
// metadata values are not in the rollout: they come from an attached request header or are
// marked "not recorded". Compactions become timeline events (FM-CX-16). A walk of every turn makes
// the session's common parts once and brings the input and message lists by each turn's new items.
import type {
  BranchInfo,
  BuiltRequest,
  CompactionEvent,
  ContextMessage,
  ModelRef,
  RecordedUsage,
  PipelineOptions,
  Session,
  TimelineItem,
  TurnSummary,
} from "../../model";
import { notRecorded } from "../../model";
import { resolveModel } from "../../models/catalogue";
import type { PipelineHooks, SessionAnalysis, TurnContext } from "../../pipeline/types";
import { sentBaseInstructions } from "./base-instructions";
import { itemChars, itemContext } from "./context";
import { recordSharedHead } from "../../util/list-lineage";
import { AlternatingLists } from "../../providers/alternating-lists";
import { shortenTo } from "../../util/shorten";
import { withCaptureModelFacts } from "../../captures/modelFacts";
import { getCodexIndex, type CodexRolloutIndex, type CodexTurn, type RolloutItem } from "./rollout-index";
import { isObject } from "../../util/is-object";
import { sessionConstant } from "../../captures/fact";
import { CODEX_BASE_ITEM, CODEX_TOOLS, CODEX_TURN_METADATA, type CodexTurnMetadataFact } from "./capture";

/** Pipeline options of the Codex profile ([INF] rules, formats.md §2). */
interface CodexOptions {
  /** FM-CX-10 [INF]: drop the plan-tool sections from the base instructions (default true). */
  stripPlanToolSections?: boolean;
}

function str(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

function notRecordedText(what: string): string {
  return `[not recorded: ${what}]`;
}

function threadId(index: CodexRolloutIndex): string | null {
  return str(index.meta?.id) ?? str(index.meta?.session_id);
}

function turnModel(turn: CodexTurn, index: CodexRolloutIndex): ModelRef | null {
  const modelId = str(turn.turnContext?.model);
  const provider = str(index.meta?.model_provider) ?? "openai";
  return modelId ? { provider, modelId } : null;
}

function reasoningEffort(turn: CodexTurn): string | null {
  const context = turn.turnContext;
  if (!context) return null;
  const direct = str(context.effort) ?? str(context.reasoning_effort);
  if (direct) return direct;
  const mode = isObject(context.collaboration_mode) ? context.collaboration_mode : null;
  const settings = mode && isObject(mode.settings) ? mode.settings : null;
  return settings ? str(settings.reasoning_effort) : null;
}

/** Codex rollout usage → pi field names (CA-21: `input_tokens` includes cached tokens). */
function codexUsage(usage: Record<string, unknown> | null): RecordedUsage | null {
  if (!usage) return null;
  const number = (key: string) => (typeof usage[key] === "number" ? (usage[key] as number) : 0);
  const cacheRead = number("cached_input_tokens");
  const cacheWrite = number("cache_write_input_tokens");
  const input = Math.max(0, number("input_tokens") - cacheRead - cacheWrite);
  const output = number("output_tokens");
  return { input, output, cacheRead, cacheWrite, totalTokens: number("total_tokens") || input + cacheRead + cacheWrite + output };
}

function baseInstructionsText(index: CodexRolloutIndex, options: CodexOptions): string | null {
  const base = index.meta && isObject(index.meta.base_instructions) ? index.meta.base_instructions : null;
  const text = base ? str(base.text) : null;
  return text === null ? null : sentBaseInstructions(text, options);
}

/** By the rollout's session_meta payload, the one thing the item is made from (kept as a followed rollout grows). */
const baseItems = new WeakMap<object, Map<string, RolloutItem>>();
const NO_META = {};

/** `input[0]` (FM-CX-10): cached per session_meta and option value so every turn shares one object. */
function baseInstructionsItem(index: CodexRolloutIndex, options: CodexOptions, headerText: string | null): RolloutItem {
  const key = `${options.stripPlanToolSections !== false}|${headerText ?? ""}`;
  const owner = index.meta ?? NO_META;
  let cache = baseItems.get(owner);
  if (!cache) {
    cache = new Map();
    baseItems.set(owner, cache);
  }
  let item = cache.get(key);
  if (!item) {
    const text = headerText ?? baseInstructionsText(index, options) ?? notRecordedText("base instructions");
    item = {
      type: "message",
      id: notRecordedText("base instructions item id"),
      role: "developer",
      content: [{ type: "input_text", text }],
    };
    cache.set(key, item);
  }
  return item;
}

/** The option that removes the plan-tool sections from the base instructions (FM-CX-10). */
export const STRIP_PLAN_TOOL_SECTIONS = "stripPlanToolSections";

function codexOptions(options: PipelineOptions): CodexOptions {
  const strip = options.agentOptions?.[STRIP_PLAN_TOOL_SECTIONS];
  return typeof strip === "boolean" ? { stripPlanToolSections: strip } : {};
}

function compactionEvent(index: CodexRolloutIndex, position: number, beforeTurn: number | null): CompactionEvent {
  const compaction = index.compactions[position]!;
  const payload = isObject(compaction.entry.raw.payload) ? compaction.entry.raw.payload : {};
  const previousTurn = index.turns[compaction.turnsBefore - 1];
  const tokensBefore = previousTurn?.usage && typeof previousTurn.usage.total_tokens === "number" ? previousTurn.usage.total_tokens : null;
  const event: CompactionEvent = {
    kind: "compaction",
    entryId: compaction.entry.id,
    beforeTurn,
    timestamp: compaction.entry.timestamp,
    tokensBefore,
    firstKeptEntryId: null,
    summaryChars: typeof payload.message === "string" ? payload.message.length : 0,
  };
  // The summariser call is a provider call too: its usage line is priced with the session.
  const usage = codexUsage(compaction.usage);
  if (usage) {
    event.usage = usage;
    event.model = previousTurn ? turnModel(previousTurn, index) : null;
  }
  return event;
}

export function analyzeCodexSession(session: Session, options: PipelineOptions): SessionAnalysis {
  const index = getCodexIndex(session);
  const turns: TurnSummary[] = [];
  const timeline: TimelineItem[] = [];
  let compactionAt = 0;
  let previousModel: string | null = null;
  const chars = index.windows.map(() => [0]);
  const prefixChars = (window: number, length: number): number => {
    const sums = chars[window]!;
    const items = index.windows[window]!;
    while (sums.length <= length) sums.push(sums[sums.length - 1]! + itemChars(items[sums.length - 1]!));
    return sums[length]!;
  };
  const baseChars = itemChars(baseInstructionsItem(index, codexOptions(options), options.header?.systemPrompt ?? null));
  for (const turn of index.turns) {
    let afterCompaction = false;
    while (compactionAt < index.compactions.length && index.compactions[compactionAt]!.turnsBefore < turn.turn) {
      timeline.push(compactionEvent(index, compactionAt, turn.turn));
      compactionAt += 1;
      afterCompaction = true;
    }
    timeline.push({ kind: "turn", turn: turn.turn });
    const model = turnModel(turn, index);
    const total = baseChars + prefixChars(turn.window, turn.historyLength);
    turns.push({
      turn: turn.turn,
      entryId: (turn.answer ?? turn.closer).id,
      timestamp: (turn.answer ?? turn.closer).timestamp,
      model,
      api: "openai-responses",
      thinkingLevel: reasoningEffort(turn) ?? "off",
      messageCount: turn.historyLength + 1,
      estimatedTokens: Math.ceil(total / 4),
      chars: total,
      usage: codexUsage(turn.usage),
      // An interrupted response shows as pi's "aborted" stop reason (the timeline's flag for it).
      stopReason: turn.interrupted ? "aborted" : null,
      afterCompaction,
      modelSwitched: turn.turn > 1 && previousModel !== (model?.modelId ?? null),
      hasNote: false,
      hasDropped: false,
    });
    previousModel = model?.modelId ?? null;
  }
  for (; compactionAt < index.compactions.length; compactionAt++) timeline.push(compactionEvent(index, compactionAt, null));
  const last = session.entries[session.entries.length - 1];
  const branches: BranchInfo[] = last
    ? [{ leafId: last.id, turns: index.turns.length, timestamp: last.timestamp, label: null, isDefault: true }]
    : [];
  return { branches, leafId: last?.id ?? null, turns, timeline, warnings: index.warnings.slice() };
}

export function countCodexTurns(session: Session): number {
  return getCodexIndex(session).turns.length;
}

function selectedTurn(index: CodexRolloutIndex, turn: number): CodexTurn {
  const found = Number.isInteger(turn) ? index.turns[turn - 1] : undefined;
  if (!found) throw new RangeError(`turn ${turn} does not exist: the rollout has ${index.turns.length} turns`);
  return found;
}

/**
 * What a session keeps of the one window asked for last: the context message of each of its
 * history items and the item as a request's `input` holds it (a copy of the history item), each
 * made when first asked for. A window's items never change once the index is made, and every later
 * turn of the window repeats them. A walk never comes back to a window a compaction ended: kept
 * for every window, the messages (with their views and the call arguments the views parsed) and
 * everything the segmenter keeps by the input items (the segments it keeps apart for the items a
 * compaction cut, their facts) would live as long as the session, since the history items are the
 * lines' own payloads. A turn of another window asked for later makes its window's again, with
 * the same values.
 */
interface KeptWindow {
  window: number;
  messages: ContextMessage[];
  input: RolloutItem[];
}

const keptWindows = new WeakMap<CodexRolloutIndex, KeptWindow>();

function keptWindow(index: CodexRolloutIndex, window: number): KeptWindow {
  let kept = keptWindows.get(index);
  if (!kept || kept.window !== window) {
    kept = { window, messages: [], input: [] };
    keptWindows.set(index, kept);
  }
  return kept;
}

/** The context messages of the first `length` history items of `window`. */
function windowMessages(index: CodexRolloutIndex, window: number, length: number): readonly ContextMessage[] {
  const made = keptWindow(index, window).messages;
  const items = index.windows[window] ?? [];
  const ids = index.windowEntryIds[window] ?? [];
  for (let i = made.length; i < length; i++) made.push(itemContext(items[i]!, ids[i] ?? null));
  return made;
}

/** The first `length` history items of `window` as a request's input holds them. */
function windowInput(index: CodexRolloutIndex, window: number, length: number): readonly RolloutItem[] {
  const made = keptWindow(index, window).input;
  const items = index.windows[window] ?? [];
  for (let i = made.length; i < length; i++) made.push({ ...items[i]! });
  return made;
}

/** The base instructions item's context message, by item and by whether a header gave its text: one object per walk and per turn asked for. */
const baseMessages = new WeakMap<RolloutItem, ContextMessage[]>();

/** The context message of `input[0]`, the base instructions item. */
function baseMessage(index: CodexRolloutIndex, base: RolloutItem, headerUsed: boolean): ContextMessage {
  let byHeader = baseMessages.get(base);
  if (!byHeader) {
    byHeader = [];
    baseMessages.set(base, byHeader);
  }
  const slot = (headerUsed ? 1 : 0) + (index.meta ? 2 : 0);
  return (byHeader[slot] ??= itemContext(base, index.meta ? "L1" : null, { base: true, approximate: !headerUsed }));
}

/** How many history items of its window the turn sent (never more than the window holds). */
function sentLength(index: CodexRolloutIndex, turn: CodexTurn): number {
  return Math.min(turn.historyLength, index.windows[turn.window]?.length ?? 0);
}

/** `[the base item's message, ...the window's first items' messages]`, a list of its own. */
function turnMessages(index: CodexRolloutIndex, turn: CodexTurn, first: ContextMessage): ContextMessage[] {
  const length = sentLength(index, turn);
  const made = windowMessages(index, turn.window, length);
  const messages: ContextMessage[] = new Array(length + 1);
  messages[0] = first;
  for (let i = 0; i < length; i++) messages[i + 1] = made[i]!;
  return messages;
}

/** The last request's `input` of each index and its window: the next turn's input of the same window starts with it. */
const lastInputs = new WeakMap<CodexRolloutIndex, { window: number; base: RolloutItem; input: readonly RolloutItem[] }>();

/**
 * `[base, ...the window's first length items]` in one list, recorded as sharing its head with the
 * previous request's input of the same window (the same items: a window's list is never changed).
 */
function turnInput(index: CodexRolloutIndex, turn: CodexTurn, base: RolloutItem): RolloutItem[] {
  const length = sentLength(index, turn);
  const items = windowInput(index, turn.window, length);
  const input: RolloutItem[] = new Array(length + 1);
  input[0] = base;
  for (let i = 0; i < length; i++) input[i + 1] = items[i]!;
  const last = lastInputs.get(index);
  if (last && last.window === turn.window && last.base === base) recordSharedHead(input, last.input, Math.min(last.input.length, input.length));
  lastInputs.set(index, { window: turn.window, base, input });
  return input;
}

export function buildCodexTurnContext(session: Session, options: PipelineOptions, turnNumber: number): TurnContext {
  const index = getCodexIndex(session);
  const turn = selectedTurn(index, turnNumber);
  const headerText = options.header?.systemPrompt ?? null;
  const base = baseInstructionsItem(index, codexOptions(options), headerText);
  const window = index.windowEntryIds[turn.window] ?? [];
  return {
    turn: turn.turn,
    entryId: (turn.answer ?? turn.closer).id,
    messages: turnMessages(index, turn, baseMessage(index, base, headerText !== null)),
    dropped: [],
    model: turnModel(turn, index),
    thinkingLevel: reasoningEffort(turn) ?? "off",
    api: "openai-responses",
    pathEntryIds: window.slice(0, turn.historyLength),
    compactionId: turn.window > 0 ? (index.compactions[turn.window - 1]?.entry.id ?? null) : null,
    warnings: [],
  };
}

/** `client_metadata` (FM-CX-12, FM-CX-13): derivable ids, with the installation id not recorded. */
function clientMetadata(index: CodexRolloutIndex, turn: CodexTurn, learnt: CodexTurnMetadataFact | null): Record<string, unknown> {
  const thread = threadId(index) ?? notRecordedText("thread id");
  const turnId = str(turn.turnContext?.turn_id) ?? str(turn.task?.turn_id) ?? notRecordedText("turn id");
  const rootTurnId = str(turn.turnContext?.root_turn_id) ?? str(turn.task?.root_turn_id) ?? turnId;
  const windowId = `${thread}:${turn.window}`;
  const attribution = turn.task && isObject(turn.task.turn_attribution) ? turn.task.turn_attribution : null;
  const installationId = learnt && typeof learnt.constants.installation_id === "string" ? learnt.constants.installation_id : notRecordedText("installation id");
  const derived: Record<string, unknown> = {
    installation_id: installationId,
    session_id: thread,
    thread_id: thread,
    turn_id: turnId,
    window_id: windowId,
    window_number: turn.window,
    context_window_id: index.windowIds[turn.window] ?? notRecordedText("context window id"),
    request_kind: "turn",
    // [INF] the first task of the file starts a new thread; later ones are resumes.
    history_initialization: turn.taskIndex === 0 ? "new" : "cold_resume",
    root_turn_id: rootTurnId,
    thread_source: str(index.meta?.thread_source) ?? notRecordedText("thread source"),
    turn_trigger: (attribution && str(attribution.turn_trigger)) ?? notRecordedText("turn trigger"),
    model: str(turn.turnContext?.model) ?? notRecordedText("model"),
  };
  const turnMetadata = learnt ? withLearntMetadata(derived, learnt, turn) : derived;
  return {
    "x-codex-window-id": windowId,
    "x-codex-turn-metadata": JSON.stringify(turnMetadata),
    thread_id: thread,
    root_turn_id: rootTurnId,
    turn_id: turnId,
    "x-codex-installation-id": installationId,
    session_id: thread,
  };
}

/**
 * The turn metadata in the captured key order, with the captured session constants added. The
 * turn start time is recorded in whole seconds only (task_started.started_at): the milliseconds
 * Codex sends are not derivable, so the value is that second ×1000 (named in notRecorded).
 */
function withLearntMetadata(derived: Record<string, unknown>, learnt: CodexTurnMetadataFact, turn: CodexTurn): Record<string, unknown> {
  const startedAt = typeof turn.task?.started_at === "number" ? turn.task.started_at * 1000 : null;
  const values: Record<string, unknown> = { ...learnt.constants, ...derived, ...(startedAt !== null ? { turn_started_at_unix_ms: startedAt } : {}) };
  const out: Record<string, unknown> = {};
  for (const key of learnt.order) if (key in values) out[key] = values[key];
  for (const key of Object.keys(values)) if (!(key in out)) out[key] = values[key];
  return out;
}

/**
 * What every request of a session has in common under one set of options: `input[0]`, the tools,
 * the labels of what the file does not record, the captured client metadata. A walk makes them
 * once, so every request has the same objects (the segmenter then knows them by identity instead
 * of measuring them again per turn).
 */
interface RequestParts {
  base: RolloutItem;
  /** The context message of `base`. */
  baseMessage: ContextMessage;
  tools: unknown;
  labels: readonly string[];
  learntMetadata: CodexTurnMetadataFact | null;
  /** `prompt_cache_key`: the thread id. */
  cacheKey: unknown;
}

function requestParts(index: CodexRolloutIndex, options: PipelineOptions): RequestParts {
  const header = options.header ?? null;
  const headerText = header?.systemPrompt ?? null;
  // Session constants of a captured request (./capture.ts): input[0] and tools verbatim, client metadata.
  const learntBase = sessionConstant(options, CODEX_BASE_ITEM)?.value;
  const learntTools = sessionConstant(options, CODEX_TOOLS)?.value;
  const learntMetadata = (sessionConstant(options, CODEX_TURN_METADATA)?.value ?? null) as CodexTurnMetadataFact | null;
  const base = isObject(learntBase) ? (learntBase as RolloutItem) : baseInstructionsItem(index, codexOptions(options), headerText);
  const labels: string[] = [];
  if (!isObject(learntBase)) labels.push("the base instructions item's id");
  if (headerText === null && !isObject(learntBase)) labels.push("base instructions (approximated from the session's header line)");
  const tools = Array.isArray(learntTools)
    ? learntTools
    : header?.tools
      ? header.tools.map((tool) => ({ type: "function", name: tool.name, description: tool.description, strict: false, parameters: tool.parameters }))
      : notRecorded("tool definitions");
  if (!header?.tools && !Array.isArray(learntTools)) labels.push("tools");
  labels.push(
    learntMetadata
      ? "client_metadata: turn start time (milliseconds not recorded; the recorded second is used)"
      : "client_metadata: installation id, sandbox and analytics flags, turn start time",
  );
  return {
    base,
    baseMessage: baseMessage(index, base, headerText !== null),
    tools,
    labels,
    learntMetadata,
    cacheKey: threadId(index) ?? notRecorded("thread id"),
  };
}

/** A turn's request: its input and messages are copies, or the lists of a walk (`WalkLists`). */
function turnRequest(index: CodexRolloutIndex, turn: CodexTurn, options: PipelineOptions, parts: RequestParts, lists: WalkLists | null): BuiltRequest {
  const labels = parts.labels.slice();
  const compaction = turn.window > 0 ? index.compactions[turn.window - 1] : undefined;
  if (compaction?.approximated) labels.push("history after a compaction (the file does not record what replaced it, so it is approximated)");
  const modelRef = turnModel(turn, index);
  const effort = reasoningEffort(turn);
  if (lists) lists.bring(index, turn, parts);
  const body: Record<string, unknown> = {
    model: modelRef?.modelId ?? notRecorded("model"),
    stream: true,
    input: lists ? lists.handedInput() : turnInput(index, turn, parts.base),
    tools: parts.tools,
    tool_choice: "auto",
    parallel_tool_calls: true,
    reasoning: effort ? { effort, summary: "auto" } : { summary: "auto" },
    store: false,
    include: ["reasoning.encrypted_content"],
    prompt_cache_key: parts.cacheKey,
    client_metadata: clientMetadata(index, turn, parts.learntMetadata),
  };
  return {
    api: "openai-responses",
    body,
    messages: lists ? lists.handedMessages() : turnMessages(index, turn, parts.baseMessage),
    dropped: [],
    model: resolveModel(modelRef, "openai-responses", options.modelOverrides),
    notRecorded: labels,
  };
}

export function buildCodexTurnRequest(session: Session, options: PipelineOptions, turnNumber: number): BuiltRequest {
  const index = getCodexIndex(session);
  return turnRequest(index, selectedTurn(index, turnNumber), options, requestParts(index, options), null);
}

/**
 * A walk's own lists: the turn's input and context messages, brought from the turn before by its
 * new items (a window's items never change; a compaction starts another window, which shares only
 * `input[0]`), and the lists handed out last.
 */
class WalkLists {
  private readonly input: RolloutItem[] = [];
  private readonly messages: ContextMessage[] = [];
  private window = -1;
  private readonly walk = {};
  private lastInput: readonly RolloutItem[] | null = null;
  private inputShared = 0;
  private lastMessages: readonly ContextMessage[] | null = null;
  private messagesShared = 0;
  private readonly inputLists = new AlternatingLists<RolloutItem>();
  private readonly messageLists = new AlternatingLists<ContextMessage>();

  /** Brings the lists to `turn`'s: `[base, ...the window's first items]`. */
  bring(index: CodexRolloutIndex, turn: CodexTurn, parts: RequestParts): void {
    const length = sentLength(index, turn);
    let same: number;
    if (this.input[0] !== parts.base || this.messages[0] !== parts.baseMessage) same = 0;
    else if (turn.window !== this.window) same = 1;
    else same = Math.min(this.input.length, length + 1);
    shortenTo(this.input, same);
    shortenTo(this.messages, same);
    if (same === 0) {
      this.input.push(parts.base);
      this.messages.push(parts.baseMessage);
    }
    const items = windowInput(index, turn.window, length);
    const made = windowMessages(index, turn.window, length);
    for (let i = this.input.length - 1; i < length; i++) {
      this.input.push(items[i]!);
      this.messages.push(made[i]!);
    }
    this.window = turn.window;
    this.inputShared = Math.min(this.inputShared, same);
    this.messagesShared = Math.min(this.messagesShared, same);
    // The items past `same` are new: the lists handed out follow them from there.
    this.inputLists.cut(same);
    this.messageLists.cut(same);
  }

  /** The turn's `input`, one of the walk's two lists, recorded as sharing its head with the one handed out before. */
  handedInput(): RolloutItem[] {
    const list = this.inputLists.next(this.input, this.walk);
    if (this.lastInput) recordSharedHead(list, this.lastInput, this.inputShared);
    this.lastInput = list;
    this.inputShared = list.length;
    return list;
  }

  /** The turn's context messages, one of the walk's two lists, recorded as sharing its head with the ones handed out before. */
  handedMessages(): ContextMessage[] {
    const list = this.messageLists.next(this.messages, this.walk);
    if (this.lastMessages) recordSharedHead(list, this.lastMessages, this.messagesShared);
    this.lastMessages = list;
    this.messagesShared = list.length;
    return list;
  }
}

/**
 * Every turn's request in order, with the session's common parts made once. With
 * `reuseRequestLists` each request's input and messages are one of a walk's two lists, brought up
 * to date with the turn's new items, instead of copies of the whole context per turn.
 */
export function* iterateCodexTurnRequests(session: Session, options: PipelineOptions, hooks: PipelineHooks): Generator<{ turn: number; request: BuiltRequest }> {
  const index = getCodexIndex(session);
  // As the pipeline's one-turn entry point applies them (session/pipeline.ts buildTurnRequest).
  const effective = withCaptureModelFacts(options);
  const parts = requestParts(index, effective);
  const lists = hooks.reuseRequestLists === true ? new WalkLists() : null;
  for (const turn of index.turns) yield { turn: turn.turn, request: turnRequest(index, turn, effective, parts, lists) };
}
