// One pass over a Codex rollout (formats.md §2.2–2.3) that replays the model-visible history and
// finds the sampling steps: `response_item` payloads (minus `internal_*` keys) are appended, a
// `compacted` line replaces the history by its `replacement_history` (FM-CX-8), and each
// `token_usage_record` (older: `token_count`; without either: the next run of output items after
// an input) closes one response whose request is the history just before that response's first
// output item (FM-CX-9). Responses of compactions (`compaction_response_id`) are summariser
// requests, not turns. History is kept per window and turns hold (window, length)
// so no turn copies the history (design.md §3). Cached per Session object.
import type { ReaderWarning, Session, SessionEntry } from "../../model";
import { isObject } from "../../util/is-object";
import { linePayload } from "./lines";

export type RolloutItem = Record<string, unknown>;

export interface CodexTurn {
  turn: number;
  /** History window (0 before the first compaction) and how many of its items were sent. */
  window: number;
  historyLength: number;
  /**
   * The line that closed the response: a token_usage_record, a token_count in older files, or the
   * response's last output item where no usage line closed it.
   */
  closer: SessionEntry;
  /** First output item of the response (the "answer"), when there is one. */
  answer: SessionEntry | null;
  turnContext: Record<string, unknown> | null;
  /** task_started payload of the task this request belongs to. */
  task: Record<string, unknown> | null;
  /** 0-based index of the task (prompt) in the file: 0 = the first one. */
  taskIndex: number;
  usage: Record<string, unknown> | null;
  responseId: string | null;
  /**
   * Cut short: a `turn_aborted` event followed it, or (in a rollout with usage lines) it has none.
   * The request was still sent, so it is a turn.
   */
  interrupted: boolean;
}

interface CodexCompaction {
  entry: SessionEntry;
  /** Window the compaction ended (its summariser request saw this window's history). */
  fromWindow: number;
  /** History length the summariser request was built from (FM-CX-15). */
  historyLength: number;
  /** Number of turns before it: it precedes turn `turnsBefore + 1`. */
  turnsBefore: number;
  usage: Record<string, unknown> | null;
  /** True when the line had no `replacement_history` (older versions): history approximated. */
  approximated: boolean;
}

export interface CodexRolloutIndex {
  meta: Record<string, unknown> | null;
  /** What closed the responses of this rollout. */
  source: CodexTurnSource;
  windows: RolloutItem[][];
  /** The entry each history item came from (a response_item, or the compacted line). */
  windowEntryIds: string[][];
  /** Context window id per window: session_meta's, then each compaction's `window_id`. */
  windowIds: (string | null)[];
  turns: CodexTurn[];
  compactions: CodexCompaction[];
  warnings: ReaderWarning[];
}

const OUTPUT_TYPES = new Set([
  "function_call",
  "custom_tool_call",
  "local_shell_call",
  "web_search_call",
  "image_generation_call",
  "tool_search_call",
  "reasoning",
]);

/** A model output item (as opposed to an input the client appended). */
export function isOutputItem(item: RolloutItem): boolean {
  if (typeof item.type !== "string") return false;
  if (item.type === "message") return item.role === "assistant";
  return OUTPUT_TYPES.has(item.type);
}

/** Recorded items Codex keeps out of the prompt (`is_api_message` in its context manager). */
const NOT_SENT_TYPES = new Set(["ghost_snapshot", "compaction_trigger", "other"]);

/** Whether Codex sends a recorded item to the model: not undo snapshots, not system messages. */
function isSentItem(item: RolloutItem): boolean {
  if (typeof item.type === "string" && NOT_SENT_TYPES.has(item.type)) return false;
  return !(item.type === "message" && item.role === "system");
}

const strippedItems = new WeakMap<object, RolloutItem>();

/** The item as sent: keys starting with `internal_` are rollout-only (FM-CX-4). */
function sentItem(item: RolloutItem): RolloutItem {
  const cached = strippedItems.get(item);
  if (cached) return cached;
  let result = item;
  if (Object.keys(item).some((key) => key.startsWith("internal_"))) {
    result = {};
    for (const key of Object.keys(item)) if (!key.startsWith("internal_")) result[key] = item[key];
  }
  strippedItems.set(item, result);
  return result;
}

const indexes = new WeakMap<Session, CodexRolloutIndex>();
/** The pass that made a session's index, kept so that the index of the session grown by appended lines goes on from it. */
const builders = new WeakMap<Session, RolloutIndexBuilder>();

/**
 * What closes a response, by what the rollout records (docs/formats/codex.md, "Turns"):
 * `token_usage_record` lines (recent versions), `token_count` events (older envelope versions), or
 * nothing (pre-envelope rollouts, rollouts whose publisher or client left the events out): then a
 * response is a run of output items between inputs.
 */
type CodexTurnSource = "usage-records" | "token-counts" | "structure";

function turnSource(entries: readonly SessionEntry[]): CodexTurnSource {
  let tokenCounts = false;
  for (const entry of entries) {
    if (entry.type === "token_usage_record") return "usage-records";
    if (entry.type === "event_msg") {
      const payload = linePayload(entry);
      if (payload?.type === "token_count" && isObject(payload.info)) tokenCounts = true;
    }
  }
  return tokenCounts ? "token-counts" : "structure";
}

/** The `compaction_response_id`s of the `compacted` lines among `entries`. */
function compactionResponseIds(entries: readonly SessionEntry[]): string[] {
  const ids: string[] = [];
  for (const entry of entries) {
    if (entry.type !== "compacted") continue;
    const id = linePayload(entry)?.compaction_response_id;
    if (typeof id === "string") ids.push(id);
  }
  return ids;
}

function firstMeta(entries: readonly SessionEntry[]): Record<string, unknown> | null {
  for (const entry of entries) {
    const payload = linePayload(entry);
    if (entry.type === "session_meta" && payload) return payload;
  }
  return null;
}

export function getCodexIndex(session: Session): CodexRolloutIndex {
  const cached = indexes.get(session);
  if (cached) return cached;
  let builder = builders.get(session);
  if (!builder) {
    builder = new RolloutIndexBuilder(session.entries);
    builders.set(session, builder);
  }
  const index = builder.index();
  indexes.set(session, index);
  return index;
}

/**
 * `next` is `previous` with lines appended: the pass over `previous`'s lines goes on with the new
 * ones (it moves to `next`), unless they change how the earlier lines read — the first usage line
 * of a rollout read without them, a `compacted` line naming a response already taken as a turn,
 * or a first `session_meta` line. Then `next` is indexed from its first line.
 */
export function carryCodexIndex(previous: Session, next: Session): void {
  const builder = builders.get(previous);
  if (!builder || builders.has(next)) return;
  builders.delete(previous);
  const appended = next.entries.slice(builder.consumed);
  if (builder.extendsWith(appended)) {
    for (const entry of appended) builder.push(entry);
    builders.set(next, builder);
  }
}

/** The one forward pass of the index, kept open: `push` takes the next line, `index` gives the index of the lines pushed so far. */
class RolloutIndexBuilder {
  consumed = 0;
  private readonly source: CodexTurnSource;
  private readonly compactionResponses: Set<string>;
  private readonly meta: Record<string, unknown> | null;
  private readonly windows: RolloutItem[][];
  private readonly windowEntryIds: string[][];
  private readonly windowIds: (string | null)[];
  private readonly turns: CodexTurn[] = [];
  private readonly compactions: CodexCompaction[] = [];
  private readonly warnings: ReaderWarning[] = [];
  private history: RolloutItem[];
  private historyEntryIds: string[];
  /** History length before the open response's first output item; null when no response is open. */
  private responseStart: number | null = null;
  private answer: SessionEntry | null = null;
  private lastOutput: SessionEntry | null = null;
  /** An input (tool output, user message) came after the open response's output items. */
  private inputSinceOutput = false;
  private turnContext: Record<string, unknown> | null = null;
  private task: Record<string, unknown> | null = null;
  private taskIndex = -1;
  /** A compaction's response, closed before its `compacted` line arrives. */
  private pendingSummariser: { historyLength: number; usage: Record<string, unknown> | null } | null = null;
  /** A user_message event whose prompt has no user message item (yet), and where it goes. */
  private promptWithoutItem: { line: number; at: number; entryId: string; item: RolloutItem } | null = null;
  private userItemSinceOutput = false;
  private readonly promptsWithoutItem: number[] = [];

  constructor(entries: readonly SessionEntry[]) {
    this.source = turnSource(entries);
    this.compactionResponses = new Set(compactionResponseIds(entries));
    this.meta = firstMeta(entries);
    const contextWindow = this.meta && isObject(this.meta.context_window) ? this.meta.context_window.window_id : null;
    this.history = [];
    this.historyEntryIds = [];
    this.windows = [this.history];
    this.windowEntryIds = [this.historyEntryIds];
    this.windowIds = [typeof contextWindow === "string" ? contextWindow : null];
    for (const entry of entries) this.push(entry);
  }

  /** True when `appended` lines leave the reading of the lines pushed so far as it is. */
  extendsWith(appended: readonly SessionEntry[]): boolean {
    const source = turnSource(appended);
    if (source === "usage-records" && this.source !== "usage-records") return false;
    if (source === "token-counts" && this.source === "structure") return false;
    if (this.meta === null && firstMeta(appended) !== null) return false;
    const ids = compactionResponseIds(appended);
    if (ids.length === 0) return true;
    if (this.turns.some((turn) => turn.responseId !== null && ids.includes(turn.responseId))) return false;
    for (const id of ids) this.compactionResponses.add(id);
    return true;
  }

  /** The index of the lines pushed so far: the pass's lists copied where the end of the file changes them. */
  index(): CodexRolloutIndex {
    const turns = this.turns.slice();
    // The last response: without usage records it simply ends the file; with them, a response
    // without its record was cut short (interrupted, or the file was copied while it ran).
    if (this.responseStart !== null) turns.push(this.turnOf(turns.length, this.lastOutput ?? this.answer!, null, null, this.source !== "structure", this.responseStart));
    const windows = this.windows.slice();
    const windowEntryIds = this.windowEntryIds.slice();
    const last = windows.length - 1;
    windows[last] = this.history.slice();
    windowEntryIds[last] = this.historyEntryIds.slice();
    const prompts = this.promptsWithoutItem.slice();
    if (this.promptWithoutItem !== null) {
      windows[last]!.splice(this.promptWithoutItem.at, 0, this.promptWithoutItem.item);
      windowEntryIds[last]!.splice(this.promptWithoutItem.at, 0, this.promptWithoutItem.entryId);
      prompts.push(this.promptWithoutItem.line);
    }
    const warnings = this.warnings.slice();
    if (prompts.length > 0) {
      const lines = prompts.join(", ");
      warnings.push({
        line: prompts[0]!,
        reason: `${prompts.length} user_message event(s) without the user message item Codex records with them (lines ${lines}; a trimmed file?): those prompts are rebuilt from the events' text, and the environment context Codex sends with them is not recorded`,
      });
    }
    return { meta: this.meta, source: this.source, windows, windowEntryIds, windowIds: this.windowIds.slice(), turns, compactions: this.compactions.slice(), warnings };
  }

  private turnOf(count: number, closer: SessionEntry, usage: Record<string, unknown> | null, responseId: string | null, interrupted: boolean, historyLength: number): CodexTurn {
    return {
      turn: count + 1,
      window: this.windows.length - 1,
      historyLength,
      closer,
      answer: this.answer,
      turnContext: this.turnContext,
      task: this.task,
      taskIndex: Math.max(this.taskIndex, 0),
      usage,
      responseId,
      interrupted,
    };
  }

  /** The prompt of a user_message event without its item, put where the event was. */
  private insertPromptFromEvent(): void {
    if (this.promptWithoutItem === null) return;
    this.history.splice(this.promptWithoutItem.at, 0, this.promptWithoutItem.item);
    this.historyEntryIds.splice(this.promptWithoutItem.at, 0, this.promptWithoutItem.entryId);
    this.promptsWithoutItem.push(this.promptWithoutItem.line);
    this.promptWithoutItem = null;
  }

  private close(closer: SessionEntry, usage: Record<string, unknown> | null, responseId: string | null, interrupted = false): void {
    const historyLength = this.responseStart ?? this.history.length;
    if (responseId !== null && this.compactionResponses.has(responseId)) {
      this.pendingSummariser = { historyLength, usage };
    } else {
      this.turns.push(this.turnOf(this.turns.length, closer, usage, responseId, interrupted, historyLength));
    }
    this.responseStart = null;
    this.answer = null;
    this.lastOutput = null;
    this.inputSinceOutput = false;
  }

  /** Closes the open response with what the rollout holds of it: its output, no usage. */
  private closeOpen(interrupted: boolean): void {
    if (this.responseStart !== null) this.close(this.lastOutput ?? this.answer!, null, null, interrupted);
  }

  push(entry: SessionEntry): void {
    this.consumed += 1;
    const payload = linePayload(entry);
    if (!payload) return;
    switch (entry.type) {
      case "turn_context":
        this.turnContext = payload;
        break;
      case "response_item": {
        const item = sentItem(payload);
        if (!isSentItem(item)) break;
        if (isOutputItem(item)) {
          // Output after an input belongs to the next response: the open one had no closer
          // (every response of a rollout without usage records; elsewhere a lost usage line).
          if (this.responseStart !== null && this.inputSinceOutput) this.closeOpen(false);
          // The prompt belongs to the request of this response: in its history before it starts.
          this.insertPromptFromEvent();
          if (this.responseStart === null) {
            this.responseStart = this.history.length;
            this.answer = entry;
          }
          this.lastOutput = entry;
          this.userItemSinceOutput = false;
        } else {
          if (this.responseStart !== null) this.inputSinceOutput = true;
          if (item.type === "message" && item.role === "user") {
            this.userItemSinceOutput = true;
            this.promptWithoutItem = null;
          }
        }
        this.history.push(item);
        this.historyEntryIds.push(entry.id);
        break;
      }
      case "token_usage_record":
        this.close(entry, isObject(payload.usage) ? payload.usage : null, typeof payload.response_id === "string" ? payload.response_id : null);
        break;
      case "event_msg":
        if (payload.type === "task_started") {
          this.task = payload;
          this.taskIndex += 1;
        } else if (payload.type === "user_message") {
          // The prompt starts a new response even where its message item is missing.
          if (this.responseStart !== null) this.inputSinceOutput = true;
          if (!this.userItemSinceOutput) this.promptWithoutItem = { line: entry.line, at: this.history.length, entryId: entry.id, item: promptItemFromEvent(payload) };
        } else if (payload.type === "turn_aborted") {
          // The task was interrupted: the response still open is cut short, but it was sent.
          this.closeOpen(true);
        } else if (this.source === "token-counts" && payload.type === "token_count" && this.responseStart !== null) {
          // Older rollouts have no token_usage_record: a token_count after output closes it. [INF]
          const info = isObject(payload.info) ? payload.info : null;
          this.close(entry, info && isObject(info.last_token_usage) ? info.last_token_usage : null, null);
        }
        break;
      case "compacted": {
        // Without usage records nothing marks a summariser response: the open one is a turn.
        if (this.source === "structure") this.closeOpen(false);
        const replacement = Array.isArray(payload.replacement_history) ? payload.replacement_history : null;
        const summariser: { historyLength: number; usage: Record<string, unknown> | null } = this.pendingSummariser ?? {
          historyLength: this.responseStart ?? this.history.length,
          usage: null,
        };
        this.compactions.push({
          entry,
          fromWindow: this.windows.length - 1,
          historyLength: summariser.historyLength,
          turnsBefore: this.turns.length,
          usage: summariser.usage,
          approximated: replacement === null,
        });
        this.pendingSummariser = null;
        let next: RolloutItem[];
        if (replacement) next = replacement.filter(isObject).map(sentItem);
        else {
          this.warnings.push({ line: entry.line, reason: "compacted line without replacement_history: later history approximated as the summary alone" });
          const message = typeof payload.message === "string" ? payload.message : "";
          next = [{ type: "message", role: "user", content: [{ type: "input_text", text: message }] }];
        }
        this.windows.push(next);
        this.historyEntryIds = next.map(() => entry.id);
        this.windowEntryIds.push(this.historyEntryIds);
        const windowId = payload.window_id;
        this.windowIds.push(typeof windowId === "string" ? windowId : null);
        this.history = next;
        this.responseStart = null;
        this.answer = null;
        this.lastOutput = null;
        this.inputSinceOutput = false;
        break;
      }
      default:
        break;
    }
  }
}

/** Prompt items rebuilt from a user_message event, for their provenance (see promptItemFromEvent). */
const promptsFromEvents = new WeakSet<RolloutItem>();

/** Whether `item` is a prompt rebuilt from a user_message event rather than a recorded item. */
export function isPromptFromEvent(item: RolloutItem): boolean {
  return promptsFromEvents.has(item);
}

/**
 * The user message item Codex records with a user_message event, rebuilt from the event: its
 * text, then the images it names (data URLs), as Codex builds the item from the same input.
 */
function promptItemFromEvent(payload: Record<string, unknown>): RolloutItem {
  const content: Record<string, unknown>[] = [];
  if (typeof payload.message === "string") content.push({ type: "input_text", text: payload.message });
  if (Array.isArray(payload.images)) {
    for (const image of payload.images) if (typeof image === "string") content.push({ type: "input_image", image_url: image });
  }
  const item: RolloutItem = { type: "message", role: "user", content };
  promptsFromEvents.add(item);
  return item;
}
