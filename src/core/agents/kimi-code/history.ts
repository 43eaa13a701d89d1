// The fold of a Kimi Code wire file into the context of each request, as Kimi Code itself replays
// it (packages/agent-core-v2/src/agent/contextMemory/: contextOps.ts, loopEventFold.ts,
// compactionHandoff.ts; docs/formats/kimi-code.md). Messages are appended by
// `context.append_message`; a step's `step.begin` opens a partial assistant message that
// `content.part` and `tool.call` fill and `step.end` seals (dropped when it holds only blank
// text); `tool.result` appends a tool message, and a message appended while tool calls wait for
// their results waits behind them. `context.apply_compaction` replaces the history with the real
// user messages, the summary and (2.1) a reminder to go on; `context.clear` empties it. Each
// `llm.request` of kind "loop" is one turn: the history as it stood, the system prompt and tool list in force, and the context
// size Kimi Code had measured (for max_tokens). Built once per session and cached.
import type { ReaderWarning, Session, SessionEntry } from "../../model";
import { isObject } from "../../util/is-object";

interface KimiToolCall {
  id: string;
  name: string;
  arguments: string | null;
}

/** One message of Kimi Code's context (its ContextMessage), with the entry it was built from. */
export interface KimiMessage {
  role: string;
  content: Record<string, unknown>[];
  toolCalls: KimiToolCall[];
  toolCallId?: string;
  name?: string;
  partial?: boolean;
  origin?: Record<string, unknown>;
  isError?: boolean;
  note?: string;
  /** How long the tool ran (2.1: Bash and MCP tools), rendered as a "Wall time" line before its output. */
  durationMs?: number;
  entryId: string;
}

export interface KimiTool {
  name: string;
  description: string;
  parameters: unknown;
}

export interface KimiTurn {
  turn: number;
  /** The `llm.request` entry. */
  request: SessionEntry;
  history: KimiMessage[];
  systemPrompt: string | null;
  tools: KimiTool[] | null;
  /** The context size Kimi Code had counted when it sent the request (its latest anchor), 0 before any. */
  usedTokens: number;
  /** The `usage.record` that follows the request, when there is one. */
  usage: SessionEntry | null;
  /** The compaction applied since the turn before, if any. */
  compaction: KimiCompaction | null;
}

interface KimiCompaction {
  entry: SessionEntry;
  /** Turns sent before it. */
  turnsBefore: number;
  summary: string;
  /** The summariser's `llm.request` (kind "compaction") and its history, when recorded. */
  request: SessionEntry | null;
  history: KimiMessage[];
  tokensBefore: number | null;
  manual: boolean;
}

export interface KimiIndex {
  turns: KimiTurn[];
  compactions: KimiCompaction[];
  warnings: ReaderWarning[];
}

function str(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

function num(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

function contentOf(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}

function toolCallsOf(value: unknown): KimiToolCall[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isObject).map((call) => ({ id: str(call.id) ?? "", name: str(call.name) ?? "", arguments: typeof call.arguments === "string" ? call.arguments : null }));
}

/** A stored ContextMessage as the fold holds it. */
function messageOf(raw: Record<string, unknown>, entryId: string): KimiMessage {
  const message: KimiMessage = { role: str(raw.role) ?? "user", content: contentOf(raw.content), toolCalls: toolCallsOf(raw.toolCalls), entryId };
  if (typeof raw.toolCallId === "string") message.toolCallId = raw.toolCallId;
  if (typeof raw.name === "string") message.name = raw.name;
  if (raw.partial === true) message.partial = true;
  if (isObject(raw.origin)) message.origin = raw.origin;
  if (raw.isError === true) message.isError = true;
  if (typeof raw.note === "string") message.note = raw.note;
  if (typeof raw.durationMs === "number") message.durationMs = raw.durationMs;
  return message;
}

/** Kimi Code's token estimate of a text: a token per 4 ASCII characters, one per other code point. */
function estimateTokens(text: string): number {
  let ascii = 0;
  let other = 0;
  for (const char of text) {
    if (char.codePointAt(0)! <= 127) ascii += 1;
    else other += 1;
  }
  return Math.ceil(ascii / 4) + other;
}

function textOf(message: KimiMessage): string {
  return message.content.map((part) => (part.type === "text" && typeof part.text === "string" ? part.text : "")).join("");
}

function isBlank(part: Record<string, unknown>): boolean {
  if (part.type === "text") return typeof part.text !== "string" || part.text.trim().length === 0;
  if (part.type === "think") return part.encrypted === undefined && (typeof part.think !== "string" || part.think.trim().length === 0);
  return false;
}

/** A user message the compaction keeps: typed by the user (or a slash command the user ran), not a summary. */
function isRealUserInput(message: KimiMessage): boolean {
  if (message.role !== "user") return false;
  const kind = message.origin?.kind;
  if (kind === undefined || kind === "user") return true;
  if (kind === "skill_activation" || kind === "plugin_command") return message.origin?.trigger === "user-slash";
  return false;
}

const SUMMARY_ORIGIN = "compaction_summary";
const INTERRUPTED_OUTPUT = "Tool execution was interrupted before its result was recorded. Do not assume the tool completed successfully.";
const COMPACTION_CONTINUATION = "Context compaction is complete — continue the work that was in progress when it began.";
/** Kimi Code keeps at most this many estimated tokens of user messages through a compaction (compactionHandoff.ts). */
const KEPT_USER_TOKENS = 20_000;

/** The loop-event fold of loopEventFold.ts over one list of messages. */
class Fold {
  messages: KimiMessage[] = [];
  private open = -1;
  private openStep: string | undefined;
  private openHasCalls = false;
  private openVacuous = true;
  private readonly pending = new Set<string>();
  private deferred: KimiMessage[] = [];

  reset(messages: KimiMessage[]): void {
    this.messages = messages;
    this.open = -1;
    this.openStep = undefined;
    this.openHasCalls = false;
    this.openVacuous = true;
    this.pending.clear();
    this.deferred = [];
  }

  append(message: KimiMessage): void {
    if (this.pending.size > 0) this.deferred.push(message);
    else this.messages.push(message);
  }

  private flushDeferred(): void {
    if (this.pending.size > 0 || this.deferred.length === 0) return;
    this.messages.push(...this.deferred);
    this.deferred = [];
  }

  private settleOpen(entryId: string): void {
    if (this.openStep === undefined) return;
    for (const id of this.pending) this.messages.push({ role: "tool", content: [{ type: "text", text: INTERRUPTED_OUTPUT }], toolCalls: [], toolCallId: id, entryId });
    this.pending.clear();
    this.flushDeferred();
    if (this.open >= 0) {
      if (!this.openHasCalls && this.openVacuous) this.messages.splice(this.open, 1);
      else delete this.messages[this.open]!.partial;
    }
    this.open = -1;
    this.openStep = undefined;
  }

  loopEvent(event: Record<string, unknown>, entryId: string): void {
    switch (event.type) {
      case "step.begin":
        this.settleOpen(entryId);
        this.messages.push({ role: "assistant", content: [], toolCalls: [], partial: true, entryId });
        this.open = this.messages.length - 1;
        this.openStep = str(event.uuid) ?? entryId;
        this.openHasCalls = false;
        this.openVacuous = true;
        return;
      case "step.end":
        if (event.finishReason === "interrupted" || event.finishReason === "error") return;
        this.settleOpen(entryId);
        this.flushDeferred();
        return;
      case "content.part":
        if (this.openStep === undefined || event.stepUuid !== this.openStep || this.open < 0 || !isObject(event.part)) return;
        this.messages[this.open]!.content.push(event.part);
        this.openVacuous = this.openVacuous && isBlank(event.part);
        return;
      case "tool.call": {
        if (this.openStep === undefined || event.stepUuid !== this.openStep || this.open < 0) return;
        const id = str(event.toolCallId) ?? "";
        this.messages[this.open]!.toolCalls.push({ id, name: str(event.name) ?? "", arguments: event.args === undefined ? null : JSON.stringify(event.args) });
        this.pending.add(id);
        this.openHasCalls = true;
        return;
      }
      case "tool.result": {
        const id = str(event.toolCallId) ?? "";
        if (!this.pending.has(id)) return;
        this.pending.delete(id);
        const result = isObject(event.result) ? event.result : {};
        const output = result.output;
        const message: KimiMessage = { role: "tool", content: typeof output === "string" ? [{ type: "text", text: output }] : contentOf(output), toolCalls: [], toolCallId: id, entryId };
        if (result.isError === true) message.isError = true;
        if (typeof result.note === "string") message.note = result.note;
        if (typeof result.durationMs === "number") message.durationMs = result.durationMs;
        this.messages.push(message);
        this.flushDeferred();
        return;
      }
    }
  }
}

/** The summary text a compaction record names (contextSummary wins, as Kimi Code reads it). */
function compactionSummary(raw: Record<string, unknown>): string {
  const context = str(raw.contextSummary);
  if (context !== null) return context;
  if (typeof raw.summary === "string") return raw.summary;
  if (isObject(raw.summary)) return textOf(messageOf(raw.summary, ""));
  return "";
}

/** The history after a `context.apply_compaction` (buildContextCompactionShape), with a warning when Kimi Code would have shortened kept messages. */
function compactedHistory(history: KimiMessage[], entry: SessionEntry, warnings: ReaderWarning[]): KimiMessage[] {
  const raw = entry.raw;
  const summaryMessage: KimiMessage = isObject(raw.summary) && raw.contextSummary === undefined
    ? messageOf(raw.summary, entry.id)
    : { role: "user", content: [{ type: "text", text: compactionSummary(raw) }], toolCalls: [], origin: { kind: SUMMARY_ORIGIN }, entryId: entry.id };
  const legacyTail = raw.legacyTail === true || raw.keptUserMessageCount === undefined;
  if (legacyTail) {
    const count = num(raw.compactedCount) ?? num(raw.count) ?? 0;
    return [summaryMessage, ...history.slice(count)];
  }
  const kept = history.filter((message) => isRealUserInput(message) && message.origin?.kind !== SUMMARY_ORIGIN);
  const tokens = kept.reduce((sum, message) => sum + estimateTokens(message.role) + estimateTokens(textOf(message)), 0);
  if (tokens > KEPT_USER_TOKENS || (num(raw.keptUserMessageCount) ?? kept.length) !== kept.length) {
    warnings.push({ line: entry.line, reason: "this compaction shortened the user messages it kept (more than 20,000 estimated tokens of them): the kept messages are shown whole, so the requests after it are approximated" });
  }
  // 2.1 adds a reminder after the summary (createCompactionContinuationMessage in its bundle).
  const continuation: KimiMessage = { role: "user", content: [{ type: "text", text: `<system-reminder>\n${COMPACTION_CONTINUATION}\n</system-reminder>` }], toolCalls: [], origin: { kind: "injection", variant: "compaction_continuation" }, entryId: entry.id };
  return [...kept, summaryMessage, continuation];
}

interface Anchor {
  length: number;
  tokens: number;
}

/** Kimi Code's context-size anchors (tokenCountingAgentModel.ts): the size it uses for max_tokens is the latest anchor not past the history. */
function applyAnchor(anchors: Anchor[], type: string, raw: Record<string, unknown>): Anchor[] {
  const length = Math.max(0, num(raw.length) ?? 0);
  const tokens = Math.max(0, num(raw.tokens) ?? 0);
  switch (type) {
    case "token_counting.measured":
      return [...anchors.filter((anchor) => anchor.length < length), { length, tokens }];
    case "token_counting.truncated":
      return anchors.filter((anchor) => anchor.length <= length);
    case "token_counting.rebased":
      return [{ length, tokens }];
    case "token_counting.turn_recorded":
      return anchors.some((anchor) => anchor.length === length) ? anchors : [...anchors.filter((anchor) => anchor.length < length), { length, tokens }];
    default:
      return anchors;
  }
}

function usedTokens(anchors: readonly Anchor[], length: number): number {
  for (let i = anchors.length - 1; i >= 0; i--) if (anchors[i]!.length <= length) return anchors[i]!.tokens;
  return 0;
}

function toolsOf(raw: Record<string, unknown>): KimiTool[] {
  return (Array.isArray(raw.tools) ? raw.tools.filter(isObject) : []).map((tool) => ({ name: str(tool.name) ?? "", description: str(tool.description) ?? "", parameters: tool.parameters }));
}

interface FoldState {
  fold: Fold;
  systemPrompt: string | null;
  tools: Map<string, KimiTool[]>;
  anchors: Anchor[];
  turns: KimiTurn[];
  compactions: KimiCompaction[];
  pendingCompaction: KimiCompaction | null;
  compactionSource: string | null;
  compactionRequest: { entry: SessionEntry; history: KimiMessage[] } | null;
  warnings: ReaderWarning[];
}

function onRequest(state: FoldState, entry: SessionEntry): void {
  const raw = entry.raw;
  if (raw.kind === "compaction") {
    state.compactionRequest = { entry, history: state.fold.messages.filter((message) => message.partial !== true) };
    return;
  }
  const toolsHash = str(raw.toolsHash);
  const tools = toolsHash !== null ? (state.tools.get(toolsHash) ?? null) : null;
  if (tools === null) state.warnings.push({ line: entry.line, reason: "this request's tool list (its llm.tools_snapshot) is not in the file: tools are not recorded" });
  state.turns.push({
    turn: state.turns.length + 1,
    request: entry,
    history: state.fold.messages.map((message) => ({ ...message, content: message.content.slice(), toolCalls: message.toolCalls.slice() })),
    systemPrompt: str(raw.systemPrompt) ?? state.systemPrompt,
    tools,
    usedTokens: usedTokens(state.anchors, state.fold.messages.length),
    usage: null,
    compaction: state.pendingCompaction,
  });
  state.pendingCompaction = null;
}

function onCompaction(state: FoldState, entry: SessionEntry): void {
  const compaction: KimiCompaction = {
    entry,
    turnsBefore: state.turns.length,
    summary: compactionSummary(entry.raw),
    request: state.compactionRequest?.entry ?? null,
    history: state.compactionRequest?.history ?? [],
    tokensBefore: num(entry.raw.tokensBefore),
    manual: state.compactionSource === "manual",
  };
  state.fold.reset(compactedHistory(state.fold.messages.filter((message) => message.partial !== true), entry, state.warnings));
  state.compactions.push(compaction);
  state.pendingCompaction = compaction;
  state.compactionRequest = null;
}

function step(state: FoldState, entry: SessionEntry): void {
  const raw = entry.raw;
  // Records of a sub-agent written into this file would belong to another context.
  if (typeof raw.agentId === "string" && raw.agentId !== "main" && entry.type.startsWith("context.")) return;
  switch (entry.type) {
    case "profile.bind":
    case "config.update":
      if (typeof raw.systemPrompt === "string") state.systemPrompt = raw.systemPrompt;
      return;
    case "context.append_message":
      if (isObject(raw.message)) state.fold.append(messageOf(raw.message, entry.id));
      return;
    case "context.append_loop_event":
      if (isObject(raw.event)) state.fold.loopEvent(raw.event, entry.id);
      return;
    case "context.apply_compaction":
      onCompaction(state, entry);
      return;
    case "context.clear":
      state.fold.reset([]);
      return;
    case "context.undo":
      state.warnings.push({ line: entry.line, reason: "an undo of earlier turns: not replayed, so the requests after it are approximated" });
      return;
    case "full_compaction.begin":
      state.compactionSource = str(raw.source);
      return;
    case "llm.tools_snapshot":
      if (typeof raw.hash === "string") state.tools.set(raw.hash, toolsOf(raw));
      return;
    case "llm.request":
      onRequest(state, entry);
      return;
    case "usage.record": {
      const last = state.turns[state.turns.length - 1];
      if (last && last.usage === null && state.compactionRequest === null) last.usage = entry;
      return;
    }
    case "token_counting.measured":
    case "token_counting.truncated":
    case "token_counting.rebased":
    case "token_counting.turn_recorded":
      state.anchors = applyAnchor(state.anchors, entry.type, raw);
      return;
  }
}

function buildIndex(session: Session): KimiIndex {
  const state: FoldState = { fold: new Fold(), systemPrompt: null, tools: new Map(), anchors: [], turns: [], compactions: [], pendingCompaction: null, compactionSource: null, compactionRequest: null, warnings: [] };
  for (const entry of session.entries) step(state, entry);
  return { turns: state.turns, compactions: state.compactions, warnings: state.warnings };
}

const cache = new WeakMap<Session, KimiIndex>();

export function getKimiIndex(session: Session): KimiIndex {
  let index = cache.get(session);
  if (!index) {
    index = buildIndex(session);
    cache.set(session, index);
  }
  return index;
}
