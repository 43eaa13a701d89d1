// The deepseek-harness event log as the reader keeps it: one SessionEntry per line, `raw` the event
// `{type, seq, time, data, surfaceOp?, sourceEventSeqs?, ignorable?}`, or a packed chunk row as
// written (`{type: "text-chunks", seq0, time0, data}`: one entry for its member events). These
// helpers read an entry's fields with their types checked, so the pipeline never trusts a shape
// it did not look at.
import type { SessionEntry } from "../../model";
import { isObject } from "../../util/is-object";

export const DEEPSEEK_HARNESS_FORMAT_ID = "deepseek-harness";

/** The event types of the harness build the spec was read at (known-event-types.ts, 48 types). */
export const KNOWN_EVENT_TYPES: ReadonlySet<string> = new Set([
  "agent-preset/selected",
  "agent/inbox/spliced",
  "approval/asked",
  "approval/decided",
  "approval/policy",
  "assistant/chunk",
  "assistant/message",
  "command/done",
  "command/run",
  "compaction/end",
  "compaction/prune",
  "compaction/start",
  "compaction/summary",
  "feedback/record",
  "goal/change",
  "hook/invoked",
  "hook/result",
  "llm/retry",
  "llm/retry-started",
  "permission/preset",
  "plan/mode",
  "request/context",
  "request/header",
  "sandbox/mode",
  "schedule/change",
  "session/end-seed",
  "session/title",
  "session/title-llm-request",
  "step/end",
  "step/start",
  "subagent/descriptor",
  "team/member",
  "team/message/delivered",
  "team/message/queued",
  "team/task",
  "todo/write",
  "tool-workflow/agent-end",
  "tool-workflow/agent-start",
  "tool-workflow/run-end",
  "tool-workflow/run-start",
  "tool/call",
  "tool/code-dispatch",
  "tool/code-dispatch-start",
  "tool/result",
  "turn/end",
  "turn/start",
  "user/message",
  "web/deepseek-search-llm-request",
  // Older logs (before 2026-07-14 and 2026-08-03): still read, never refused.
  "request/header-delta",
  "steering/message",
]);

/**
 * The packed chunk rows (DH-14): one line, and one entry, for a run of `assistant/chunk` deltas of
 * one block (`data: {turn, step, index, dt, texts | args, …}`, members `seq0 + k`).
 */
const PACKED_CHUNK_TYPES: ReadonlySet<string> = new Set(["text-chunks", "reasoning-chunks", "tool-call-chunks"]);

export function isPackedChunkType(type: string): boolean {
  return PACKED_CHUNK_TYPES.has(type);
}

/** The three event types that put a message on the model-visible surface. */
const SURFACE_TYPES: ReadonlySet<string> = new Set(["user/message", "assistant/message", "tool/result"]);

export function isSurfaceType(type: string): boolean {
  return SURFACE_TYPES.has(type);
}

/** The entry id of the event with this seq. */
export function entryIdOfSeq(seq: number): string {
  return `seq-${seq}`;
}

export function seqOf(entry: SessionEntry): number {
  return typeof entry.raw.seq === "number" ? entry.raw.seq : -1;
}

export function dataOf(entry: SessionEntry): Record<string, unknown> {
  return isObject(entry.raw.data) ? entry.raw.data : {};
}

export function str(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

export function num(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/** A surface replacement `{op: "replace", start, end}`, or null for an append (or none). */
export function replaceOp(entry: SessionEntry): { start: number; end: number } | null {
  const op = entry.raw.surfaceOp;
  if (!isObject(op) || op.op !== "replace") return null;
  const start = num(op.start);
  const end = num(op.end);
  return start === null || end === null ? null : { start, end };
}

/** The harness `Message` an event carries: `data` (user/message) or `data.message`. */
export function messageOf(entry: SessionEntry): Record<string, unknown> | null {
  const data = dataOf(entry);
  if (entry.type === "user/message" || entry.type === "steering/message") return data;
  return isObject(data.message) ? data.message : null;
}

/** The content blocks of a harness message (unknown blocks are kept; the wire rules skip them). */
export function contentOf(message: Record<string, unknown> | null): Record<string, unknown>[] {
  if (!message || !Array.isArray(message.content)) return [];
  return message.content.filter(isObject);
}

/** The `source` of a harness message, e.g. `{kind: "plugin", plugin: "compact", compactionId}`. */
export function sourceOf(message: Record<string, unknown> | null): Record<string, unknown> {
  return message && isObject(message.source) ? message.source : {};
}

export function timestampOf(raw: Record<string, unknown>): string | null {
  const time = num(raw.time);
  if (time === null) return null;
  const date = new Date(time);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}
