// The Codex descriptor's linkFiles: rollouts opened together become the parent thread with its
// spawned children as threads, each linked to the spawn_agent call that started it.
import { describe, expect, it } from "vitest";
import { codexAgent } from "../../../../src/core/agents/codex/agent";
import type { Session } from "../../../../src/core/model";
import { buildTurnRequest, countTurns } from "../../../../src/core/session/pipeline";
import { linkSessions, threadSessionOf } from "../../../../src/core/session/threads";
import { readSessionText } from "../../../../src/core/session/index";

const T = "2026-03-01T10:00:00.000Z";
const env = (type: string, payload: Record<string, unknown>) => JSON.stringify({ timestamp: T, type, payload });
const user = (text: string) => env("response_item", { type: "message", role: "user", content: [{ type: "input_text", text }] });
const assistant = (text: string) => env("response_item", { type: "message", role: "assistant", content: [{ type: "output_text", text }] });
const spawnCall = (callId: string) => env("response_item", { type: "function_call", name: "spawn_agent", arguments: '{"message":"look"}', call_id: callId });
const spawnOutput = (callId: string, result: Record<string, unknown>) => env("response_item", { type: "function_call_output", call_id: callId, output: JSON.stringify(result) });
const threadSpawn = (parent: string, extra: Record<string, unknown> = {}) => ({ subagent: { thread_spawn: { parent_thread_id: parent, depth: 1, ...extra } } });

function rollout(name: string, meta: Record<string, unknown>, lines: string[]): Session {
  return readSessionText([env("session_meta", meta), ...lines].join("\n"), name);
}

const parent = rollout("parent.jsonl", { id: "P", source: "cli" }, [
  user("split the work"),
  spawnCall("call-a"),
  spawnCall("call-b"),
  spawnOutput("call-a", { agent_id: "A", nickname: "Ada" }),
  spawnOutput("call-b", { task_name: "/root/reviewer", nickname: null }),
  spawnCall("call-c"),
  env("event_msg", { type: "collab_agent_spawn_end", call_id: "call-c", new_thread_id: "C" }),
  spawnOutput("call-c", { error: "no metadata" }),
  assistant("all spawned"),
]);
const childA = rollout("a.jsonl", { id: "A", source: threadSpawn("P", { agent_nickname: "Ada", agent_role: "explorer" }) }, [user("look"), assistant("found it")]);
const childB = rollout("b.jsonl", { id: "B", source: threadSpawn("P", { agent_path: "/root/reviewer" }) }, [user("review"), assistant("fine")]);
const childC = rollout("c.jsonl", { id: "C", parent_thread_id: "P", source: "exec" }, [user("c"), assistant("c done")]);
const grandchild = rollout("a1.jsonl", { id: "A1", source: threadSpawn("A") }, [user("deeper"), assistant("deepest")]);
const stranger = rollout("other.jsonl", { id: "X", source: "cli" }, [user("unrelated"), assistant("yes")]);

describe("Codex linkFiles", () => {
  it("attaches every descendant of the main rollout, linked to its spawn_agent call, whatever the file order", () => {
    const { session, unlinked } = codexAgent.linkFiles([grandchild, childB, stranger, childA, parent, childC]);
    expect(session.fileName).toBe("parent.jsonl");
    expect(session.threads?.map((thread) => [thread.id, thread.label, thread.parentThreadId, thread.spawnedBy?.toolCallId ?? null, thread.origin])).toEqual([
      ["B", "/root/reviewer", null, "call-b", "file"],
      ["A", "Ada (explorer)", null, "call-a", "file"],
      ["A1", "sub-agent A1", "A", null, "file"],
      ["C", "sub-agent C", null, "call-c", "file"],
    ]);
    expect(session.threads?.[1]?.spawnedBy).toEqual({ entryId: "L3", toolCallId: "call-a", toolName: "spawn_agent" });
    expect(unlinked.map((s) => s.fileName)).toEqual(["other.jsonl"]);
    // Each thread is a session of its own with its own turns.
    expect(session.threads?.map((thread) => countTurns(thread.session, { profile: "pi" }))).toEqual([1, 1, 1, 1]);
    // The inputs are not changed.
    expect(parent.threads).toBeUndefined();
  });

  it("the main rollout is the one, of those whose parent is not among the files, with most descendants", () => {
    const { session, unlinked } = codexAgent.linkFiles([childA, grandchild]);
    expect(session.fileName).toBe("a.jsonl");
    expect(session.threads?.map((thread) => [thread.id, thread.parentThreadId, thread.spawnedBy])).toEqual([["A1", null, null]]);
    expect(unlinked).toEqual([]);
  });

  it("one rollout, or rollouts of unrelated threads: the first is the main one, without threads", () => {
    expect(codexAgent.linkFiles([parent]).session).toBe(parent);
    const { session, unlinked } = codexAgent.linkFiles([stranger, parent]);
    expect(session).toBe(stranger);
    expect(unlinked).toEqual([parent]);
  });

  it("plugs into the generic linking the worker and the CLI use: a child's own requests are built", () => {
    const { session, unlinked } = linkSessions([childA, parent]);
    expect(session.fileName).toBe("parent.jsonl");
    expect(unlinked).toEqual([]);
    const child = threadSessionOf(session, "A");
    expect(child.fileName).toBe("a.jsonl");
    const request = buildTurnRequest(child, { profile: "pi" }, 1);
    expect(JSON.stringify(request.body)).toContain("look");
    expect(JSON.stringify(request.body)).not.toContain("split the work");
  });
});
