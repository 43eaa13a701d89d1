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

/**
 * What closes a response, by what the rollout records (docs/formats/codex.md, "Turns"):
 * `token_usage_record` lines (recent versions), `token_count` events (older envelope versions), or
 * nothing (pre-envelope rollouts, rollouts whose publisher or client left the events out): then a
 * response is a run of output items between inputs.
 */
type CodexTurnSource = "usage-records" | "token-counts" | "structure";

function turnSource(session: Session): CodexTurnSource {
  let tokenCounts = false;
  for (const entry of session.entries) {
    if (entry.type === "token_usage_record") return "usage-records";
    if (entry.type === "event_msg") {
      const payload = linePayload(entry);
      if (payload?.type === "token_count" && isObject(payload.info)) tokenCounts = true;
    }
  }
  return tokenCounts ? "token-counts" : "structure";
}

export function getCodexIndex(session: Session): CodexRolloutIndex {
  const cached = indexes.get(session);
  if (cached) return cached;
  const warnings: ReaderWarning[] = [];
  const compactionResponses = new Set<string>();
  const source = turnSource(session);
  let meta: Record<string, unknown> | null = null;
  for (const entry of session.entries) {
    const payload = linePayload(entry);
    if (entry.type === "session_meta" && meta === null && payload) meta = payload;
    if (entry.type === "compacted" && payload) {
      const id = payload.compaction_response_id;
      if (typeof id === "string") compactionResponses.add(id);
    }
  }
  const contextWindow = meta && isObject(meta.context_window) ? meta.context_window.window_id : null;
  const index: CodexRolloutIndex = {
    meta,
    source,
    windows: [[]],
    windowEntryIds: [[]],
    windowIds: [typeof contextWindow === "string" ? contextWindow : null],
    turns: [],
    compactions: [],
    warnings,
  };
  let history = index.windows[0] as RolloutItem[];
  let historyEntryIds = index.windowEntryIds[0] as string[];
  /** History length before the open response's first output item; null when no response is open. */
  let responseStart: number | null = null;
  let answer: SessionEntry | null = null;
  let lastOutput: SessionEntry | null = null;
  /** An input (tool output, user message) came after the open response's output items. */
  let inputSinceOutput = false;
  let turnContext: Record<string, unknown> | null = null;
  let task: Record<string, unknown> | null = null;
  let taskIndex = -1;
  /** A compaction's response, closed before its `compacted` line arrives. */
  let pendingSummariser: { historyLength: number; usage: Record<string, unknown> | null } | null = null;
  /** A user_message event whose prompt has no user message item (yet), and where it goes. */
  let promptWithoutItem: { line: number; at: number; entryId: string; item: RolloutItem } | null = null;
  let userItemSinceOutput = false;
  const promptsWithoutItem: number[] = [];
  /** The prompt of a user_message event without its item, put where the event was. */
  const insertPromptFromEvent = () => {
    if (promptWithoutItem === null) return;
    history.splice(promptWithoutItem.at, 0, promptWithoutItem.item);
    historyEntryIds.splice(promptWithoutItem.at, 0, promptWithoutItem.entryId);
    promptsWithoutItem.push(promptWithoutItem.line);
    promptWithoutItem = null;
  };

  const close = (closer: SessionEntry, usage: Record<string, unknown> | null, responseId: string | null, interrupted = false) => {
    const historyLength = responseStart ?? history.length;
    if (responseId !== null && compactionResponses.has(responseId)) {
      pendingSummariser = { historyLength, usage };
    } else {
      index.turns.push({
        turn: index.turns.length + 1,
        window: index.windows.length - 1,
        historyLength,
        closer,
        answer,
        turnContext,
        task,
        taskIndex: Math.max(taskIndex, 0),
        usage,
        responseId,
        interrupted,
      });
    }
    responseStart = null;
    answer = null;
    lastOutput = null;
    inputSinceOutput = false;
  };
  /** Closes the open response with what the rollout holds of it: its output, no usage. */
  const closeOpen = (interrupted: boolean) => {
    if (responseStart !== null) close(lastOutput ?? answer!, null, null, interrupted);
  };

  for (const entry of session.entries) {
    const payload = linePayload(entry);
    if (!payload) continue;
    switch (entry.type) {
      case "turn_context":
        turnContext = payload;
        break;
      case "response_item": {
        const item = sentItem(payload);
        if (!isSentItem(item)) break;
        if (isOutputItem(item)) {
          // Output after an input belongs to the next response: the open one had no closer
          // (every response of a rollout without usage records; elsewhere a lost usage line).
          if (responseStart !== null && inputSinceOutput) closeOpen(false);
          // The prompt belongs to the request of this response: in its history before it starts.
          insertPromptFromEvent();
          if (responseStart === null) {
            responseStart = history.length;
            answer = entry;
          }
          lastOutput = entry;
          userItemSinceOutput = false;
        } else {
          if (responseStart !== null) inputSinceOutput = true;
          if (item.type === "message" && item.role === "user") {
            userItemSinceOutput = true;
            promptWithoutItem = null;
          }
        }
        history.push(item);
        historyEntryIds.push(entry.id);
        break;
      }
      case "token_usage_record":
        close(entry, isObject(payload.usage) ? payload.usage : null, typeof payload.response_id === "string" ? payload.response_id : null);
        break;
      case "event_msg":
        if (payload.type === "task_started") {
          task = payload;
          taskIndex += 1;
        } else if (payload.type === "user_message") {
          // The prompt starts a new response even where its message item is missing.
          if (responseStart !== null) inputSinceOutput = true;
          if (!userItemSinceOutput) promptWithoutItem = { line: entry.line, at: history.length, entryId: entry.id, item: promptItemFromEvent(payload) };
        } else if (payload.type === "turn_aborted") {
          // The task was interrupted: the response still open is cut short, but it was sent.
          closeOpen(true);
        } else if (source === "token-counts" && payload.type === "token_count" && responseStart !== null) {
          // Older rollouts have no token_usage_record: a token_count after output closes it. [INF]
          const info = isObject(payload.info) ? payload.info : null;
          close(entry, info && isObject(info.last_token_usage) ? info.last_token_usage : null, null);
        }
        break;
      case "compacted": {
        // Without usage records nothing marks a summariser response: the open one is a turn.
        if (source === "structure") closeOpen(false);
        const replacement = Array.isArray(payload.replacement_history) ? payload.replacement_history : null;
        const summariser: { historyLength: number; usage: Record<string, unknown> | null } = pendingSummariser ?? {
          historyLength: responseStart ?? history.length,
          usage: null,
        };
        index.compactions.push({
          entry,
          fromWindow: index.windows.length - 1,
          historyLength: summariser.historyLength,
          turnsBefore: index.turns.length,
          usage: summariser.usage,
          approximated: replacement === null,
        });
        pendingSummariser = null;
        let next: RolloutItem[];
        if (replacement) next = replacement.filter(isObject).map(sentItem);
        else {
          warnings.push({ line: entry.line, reason: "compacted line without replacement_history: later history approximated as the summary alone" });
          const message = typeof payload.message === "string" ? payload.message : "";
          next = [{ type: "message", role: "user", content: [{ type: "input_text", text: message }] }];
        }
        index.windows.push(next);
        historyEntryIds = next.map(() => entry.id);
        index.windowEntryIds.push(historyEntryIds);
        const windowId = payload.window_id;
        index.windowIds.push(typeof windowId === "string" ? windowId : null);
        history = next;
        responseStart = null;
        answer = null;
        lastOutput = null;
        inputSinceOutput = false;
        break;
      }
      default:
        break;
    }
  }
  // The last response: without usage records it simply ends the file; with them, a response
  // without its record was cut short (interrupted, or the file was copied while it ran).
  closeOpen(source !== "structure");
  insertPromptFromEvent();
  if (promptsWithoutItem.length > 0) {
    const lines = promptsWithoutItem.join(", ");
    warnings.push({
      line: promptsWithoutItem[0]!,
      reason: `${promptsWithoutItem.length} user_message event(s) without the user message item Codex records with them (lines ${lines}; a trimmed file?): those prompts are rebuilt from the events' text, and the environment context Codex sends with them is not recorded`,
    });
  }
  indexes.set(session, index);
  return index;
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

/** The history items sent with `turn` (without the base instructions item). */
export function turnHistory(index: CodexRolloutIndex, window: number, length: number): RolloutItem[] {
  return (index.windows[window] ?? []).slice(0, length);
}
