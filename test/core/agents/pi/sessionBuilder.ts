// Test helper: builds pi session JSONL text and Sessions from compact entry descriptions.
import { readSessionText } from "../../../../src/core/session/index";
import type { Session } from "../../../../src/core/model";

export const HEADER = { type: "session", version: 3, id: "sess-1", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" };

let clock = 0;
function ts(): string {
  clock += 1;
  return new Date(Date.UTC(2026, 0, 1, 0, 0, clock)).toISOString();
}

export type EntryInput = Record<string, unknown> & { id: string; type: string };

/** Entries chained linearly unless an explicit parentId is given. */
export function chain(entries: EntryInput[]): Record<string, unknown>[] {
  let previous: string | null = null;
  return entries.map((entry) => {
    const parentId = "parentId" in entry ? entry.parentId : previous;
    previous = entry.id;
    return { timestamp: ts(), ...entry, parentId };
  });
}

export function toJsonl(objects: Record<string, unknown>[], header: Record<string, unknown> | null = HEADER): string {
  return [...(header ? [header] : []), ...objects].map((o) => JSON.stringify(o)).join("\n") + "\n";
}

export function sessionOf(entries: EntryInput[]): Session {
  return readSessionText(toJsonl(chain(entries)), "test.jsonl");
}

export const user = (id: string, text: string, extra: Record<string, unknown> = {}): EntryInput => ({
  id,
  type: "message",
  message: { role: "user", content: [{ type: "text", text }], timestamp: 1, ...extra },
});

export const assistant = (id: string, text: string, extra: Record<string, unknown> = {}): EntryInput => ({
  id,
  type: "message",
  message: {
    role: "assistant",
    content: [{ type: "text", text }],
    api: "openai-completions",
    provider: "p",
    model: "m",
    usage: { input: 10, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: 12 },
    stopReason: "stop",
    timestamp: 2,
    ...extra,
  },
});

export const assistantCall = (id: string, callId: string, name = "bash", extra: Record<string, unknown> = {}): EntryInput =>
  assistant(id, "", { content: [{ type: "toolCall", id: callId, name, arguments: { command: "ls" } }], stopReason: "toolUse", ...extra });

export const toolResult = (id: string, callId: string, text: string, extra: Record<string, unknown> = {}): EntryInput => ({
  id,
  type: "message",
  message: { role: "toolResult", toolCallId: callId, toolName: "bash", content: [{ type: "text", text }], isError: false, timestamp: 3, ...extra },
});

export const compaction = (id: string, firstKeptEntryId: string, summary = "S"): EntryInput => ({
  id,
  type: "compaction",
  summary,
  firstKeptEntryId,
  tokensBefore: 100,
  details: { readFiles: [], modifiedFiles: [] },
  fromHook: false,
});
