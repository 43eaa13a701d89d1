// One pass over a Codex rollout (formats.md §2.2–2.3) that replays the model-visible history and
// finds the sampling steps: `response_item` payloads (minus `internal_*` keys) are appended, a
// `compacted` line replaces the history by its `replacement_history` (FM-CX-8), and each
// `token_usage_record` closes one response whose request is the history just before that
// response's first output item (FM-CX-9). Responses of compactions (`compaction_response_id`)
// are summariser requests, not turns. History is kept per window and turns hold (window, length)
// so no turn copies the history (design.md §3). Cached per Session object.
import type { ReaderWarning, Session, SessionEntry } from "../../model";
import { isObject } from "../../util/is-object";

export type RolloutItem = Record<string, unknown>;

export interface CodexTurn {
  turn: number;
  /** History window (0 before the first compaction) and how many of its items were sent. */
  window: number;
  historyLength: number;
  /** The line that closed the response: a token_usage_record (or a token_count in old files). */
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
}

export interface CodexCompaction {
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

const strippedItems = new WeakMap<object, RolloutItem>();

/** The item as sent: keys starting with `internal_` are rollout-only (FM-CX-4). */
export function sentItem(item: RolloutItem): RolloutItem {
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

export function getCodexIndex(session: Session): CodexRolloutIndex {
  const cached = indexes.get(session);
  if (cached) return cached;
  const warnings: ReaderWarning[] = [];
  const compactionResponses = new Set<string>();
  let hasUsageRecords = false;
  let meta: Record<string, unknown> | null = null;
  for (const entry of session.entries) {
    if (entry.type === "session_meta" && meta === null && isObject(entry.raw.payload)) meta = entry.raw.payload;
    if (entry.type === "token_usage_record") hasUsageRecords = true;
    if (entry.type === "compacted" && isObject(entry.raw.payload)) {
      const id = entry.raw.payload.compaction_response_id;
      if (typeof id === "string") compactionResponses.add(id);
    }
  }
  const contextWindow = meta && isObject(meta.context_window) ? meta.context_window.window_id : null;
  const index: CodexRolloutIndex = {
    meta,
    windows: [[]],
    windowEntryIds: [[]],
    windowIds: [typeof contextWindow === "string" ? contextWindow : null],
    turns: [],
    compactions: [],
    warnings,
  };
  let history = index.windows[0] as RolloutItem[];
  let historyEntryIds = index.windowEntryIds[0] as string[];
  let responseStart: number | null = null;
  let answer: SessionEntry | null = null;
  let turnContext: Record<string, unknown> | null = null;
  let task: Record<string, unknown> | null = null;
  let taskIndex = -1;
  /** A compaction's response, closed before its `compacted` line arrives. */
  let pendingSummariser: { historyLength: number; usage: Record<string, unknown> | null } | null = null;

  const close = (closer: SessionEntry, usage: Record<string, unknown> | null, responseId: string | null) => {
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
      });
    }
    responseStart = null;
    answer = null;
  };

  for (const entry of session.entries) {
    const payload = isObject(entry.raw.payload) ? entry.raw.payload : null;
    if (!payload) continue;
    switch (entry.type) {
      case "turn_context":
        turnContext = payload;
        break;
      case "response_item": {
        const item = sentItem(payload);
        if (isOutputItem(item) && responseStart === null) {
          responseStart = history.length;
          answer = entry;
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
        } else if (!hasUsageRecords && payload.type === "token_count" && responseStart !== null) {
          // Older rollouts have no token_usage_record: a token_count after output closes it. [INF]
          const info = isObject(payload.info) ? payload.info : null;
          close(entry, info && isObject(info.last_token_usage) ? info.last_token_usage : null, null);
        }
        break;
      case "compacted": {
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
        break;
      }
      default:
        break;
    }
  }
  if (responseStart !== null) {
    warnings.push({ line: 0, reason: "the last response has output but no usage record (interrupted?): not counted as a turn" });
  }
  indexes.set(session, index);
  return index;
}

/** The history items sent with `turn` (without the base instructions item). */
export function turnHistory(index: CodexRolloutIndex, window: number, length: number): RolloutItem[] {
  return (index.windows[window] ?? []).slice(0, length);
}
