// Structures real Claude Code transcripts hold that the recordings lack, each reproduced by a small
// hand-written transcript: opening lines that name no session, progress lines in the uuid chain,
// session events, one compaction event per boundary, images, and sub-agent threads.
import { describe, expect, it } from "vitest";
import type { PipelineOptions, Session } from "../../../../src/core/model";
import { analyzeSession, buildTurnContext, buildTurnRequest } from "../../../../src/core/session/pipeline";
import { linkSessions, threadSessionOf } from "../../../../src/core/session/threads";
import { detectFormat, readSessionText, UnsupportedFormatError } from "../../../../src/core/session/index";
import { assistant, boundary, readClaude, SESSION_ID, toText, user } from "./helpers";

const OPTIONS: PipelineOptions = { profile: "pi" };

const snapshot = (messageId: string) => ({
  type: "file-history-snapshot",
  messageId,
  snapshot: { messageId, trackedFileBackups: {}, timestamp: "2026-01-01T00:00:00.000Z" },
  isSnapshotUpdate: false,
});

function progress(uuid: string, parentUuid: string | null, data: Record<string, unknown>, parentToolUseID = "toolu_x") {
  return {
    parentUuid,
    isSidechain: false,
    type: "progress",
    data,
    toolUseID: `${String(data.type)}-0`,
    parentToolUseID,
    uuid,
    timestamp: "2026-01-01T00:00:00.700Z",
    sessionId: SESSION_ID,
    version: "2.1.17",
    cwd: "/p",
  };
}

function system(uuid: string, parentUuid: string, subtype: string, extra: Record<string, unknown> = {}) {
  return { parentUuid, isSidechain: false, type: "system", subtype, uuid, timestamp: "2026-01-01T00:00:03.000Z", sessionId: SESSION_ID, ...extra };
}

function everyWarning(session: Session): string[] {
  const analysis = analyzeSession(session, OPTIONS);
  return [...session.warnings, ...analysis.warnings].map((warning) => `${warning.line}: ${warning.reason}`);
}

describe("Claude Code detection past lines that name no session", () => {
  it("recognises files opening with file-history-snapshot, summary or queue-operation lines", () => {
    const user1 = JSON.stringify(user("u1", null, "hi"));
    expect(detectFormat([JSON.stringify(snapshot("m1")), user1], "s.jsonl")?.id).toBe("claude-code");
    expect(detectFormat([JSON.stringify({ type: "summary", summary: "x", leafUuid: "u9" }), user1], "s.jsonl")?.id).toBe("claude-code");
    // Twenty snapshot lines and nothing else in the detection window: still Claude Code's.
    expect(detectFormat(Array.from({ length: 20 }, (_, i) => JSON.stringify(snapshot(`m${i}`))), "s.jsonl")?.id).toBe("claude-code");
    // A progress line as the very first line (2.1.x: SessionStart hook progress).
    expect(detectFormat([JSON.stringify(progress("p1", null, { type: "hook_progress", hookEvent: "SessionStart" }))], "s.jsonl")?.id).toBe(
      "claude-code",
    );
    // Bad lines at the top do not hide the transcript below.
    expect(detectFormat(["{not json", "", JSON.stringify(snapshot("m1")), user1], "s.jsonl")?.id).toBe("claude-code");
  });

  it("a file of no agent still gets the 'expected' message naming Claude Code", () => {
    const foreign = toText(Array.from({ length: 25 }, (_, i) => ({ type: "note", n: i, sessionIdentifier: "x" })));
    expect(() => readSessionText(foreign, "notes.jsonl")).toThrow(UnsupportedFormatError);
    expect(() => readSessionText(foreign, "notes.jsonl")).toThrow(/not a Claude Code session: expected a Claude Code transcript/);
    // Other agents' first lines are not taken for Claude Code.
    expect(detectFormat([JSON.stringify({ timestamp: "t", type: "session_meta", payload: { id: "x" } })], "r.jsonl")?.id).not.toBe("claude-code");
  });
});

describe("progress lines are links of the uuid chain, not turns", () => {
  const lines = [
    snapshot("u1"),
    progress("p0", null, { type: "hook_progress", hookEvent: "SessionStart", hookName: "SessionStart:startup" }),
    user("u1", "p0", "run ls"),
    assistant("a1", "u1", "msg_1", [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "ls" } }]),
    progress("p1", "a1", { type: "bash_progress", output: "", fullOutput: "", elapsedTimeSeconds: 2, totalLines: 0 }, "t1"),
    progress("p2", "p1", { type: "hook_progress", hookEvent: "PostToolUse" }, "t1"),
    user("r1", "p2", [{ type: "tool_result", tool_use_id: "t1", content: "a b" }], { toolUseResult: { stdout: "a b" } }),
    progress("p3", "r1", { type: "query_update", query: "x" }, "t9"),
    progress("p4", "p3", { type: "search_results_received", resultCount: 1, query: "x" }, "t9"),
    assistant("a2", "p4", "msg_2", [{ type: "text", text: "done" }]),
    system("d1", "a2", "turn_duration", { durationMs: 1000 }),
    system("h1", "d1", "stop_hook_summary", { hookCount: 1, hookInfos: [], hookErrors: [], preventedContinuation: false }),
    system("l1", "h1", "local_command", { content: "<command-name>/cost</command-name>" }),
    { type: "queue-operation", operation: "enqueue", timestamp: "2026-01-01T00:00:04.000Z", sessionId: SESSION_ID, content: "later" },
    { type: "pr-link", sessionId: SESSION_ID, prNumber: 7, prUrl: "https://example.invalid/pr/7", timestamp: "2026-01-01T00:00:05.000Z" },
    { type: "summary", summary: "Listing files", leafUuid: "a2" },
  ];
  const session = readClaude(lines);

  it("counts one turn per API call, with one branch and no warning", () => {
    const analysis = analyzeSession(session, OPTIONS);
    expect(analysis.turns.map((turn) => turn.entryId)).toEqual(["a1", "a2"]);
    expect(analysis.branches).toHaveLength(1);
    expect(everyWarning(session)).toEqual([]);
  });

  it("keeps every line as an entry and leaves progress out of the context", () => {
    expect(session.entries).toHaveLength(lines.length);
    const context = buildTurnContext(session, OPTIONS, 2);
    expect(context.pathEntryIds).toEqual(["u1", "a1", "r1"]);
    const body = buildTurnRequest(session, OPTIONS, 2).body as { messages: { role: string; content: unknown }[] };
    expect(body.messages.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
    expect(JSON.stringify(body.messages[2]!.content)).toContain('"tool_use_id":"t1"');
    expect(JSON.stringify(body)).not.toContain("bash_progress");
  });
});

describe("a compaction is one event: the boundary with its summary message", () => {
  const session = readClaude([
    user("u1", null, "first"),
    assistant("a1", "u1", "msg_1", [{ type: "text", text: "one" }]),
    progress("p1", "a1", { type: "hook_progress", hookEvent: "PreCompact" }),
    // logicalParentUuid names the progress line: the boundary still hangs under the conversation.
    { ...boundary("b1", "p1"), compactMetadata: { trigger: "auto", preTokens: 156611 } },
    user("s1", "b1", "This session is being continued from a previous conversation that ran out of context. Summary: …", {
      isCompactSummary: true,
      isVisibleInTranscriptOnly: true,
    }),
    user("u2", "s1", "go on"),
    assistant("a2", "u2", "msg_2", [{ type: "text", text: "two" }]),
  ]);

  it("lists one compaction between the two turns, with the recorded trigger size and summary", () => {
    const analysis = analyzeSession(session, OPTIONS);
    expect(analysis.timeline.map((item) => item.kind)).toEqual(["turn", "compaction", "turn"]);
    const event = analysis.timeline[1]!;
    expect(event).toMatchObject({ kind: "compaction", entryId: "b1", beforeTurn: 2, tokensBefore: 156611 });
    expect(event.kind === "compaction" && event.summaryChars).toBeGreaterThan(50);
    expect(analysis.turns[1]!.afterCompaction).toBe(true);
    expect(everyWarning(session)).toEqual([]);
  });
});

describe("one turn per API call: an assistant message split over lines by content block", () => {
  it("groups the lines of one message.id into one turn whose request holds every block once", () => {
    const session = readClaude([
      user("u1", null, "think then call"),
      assistant("a1", "u1", "msg_1", [{ type: "thinking", thinking: "hmm", signature: "sig" }], undefined, { requestId: "req_1" }),
      assistant("a2", "a1", "msg_1", [{ type: "text", text: "calling" }], undefined, { requestId: "req_1" }),
      assistant("a3", "a2", "msg_1", [{ type: "tool_use", id: "t1", name: "Read", input: { file_path: "x" } }], undefined, { requestId: "req_1" }),
      user("r1", "a3", [{ type: "tool_result", tool_use_id: "t1", content: "x" }]),
      assistant("a4", "r1", "msg_2", [{ type: "text", text: "ok" }], undefined, { requestId: "req_2" }),
    ]);
    const analysis = analyzeSession(session, OPTIONS);
    expect(analysis.turns).toHaveLength(2);
    const body = buildTurnRequest(session, OPTIONS, 2).body as { messages: { role: string; content: { type: string }[] }[] };
    expect(body.messages[1]!.content.map((block) => block.type)).toEqual(["thinking", "text", "tool_use"]);
  });
});

describe("images pasted by the user and returned by a tool", () => {
  const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
  const image = { type: "image", source: { type: "base64", media_type: "image/png", data: png } };
  const session = readClaude([
    user("u1", null, [{ type: "text", text: "what is this?" }, image]),
    assistant("a1", "u1", "msg_1", [{ type: "tool_use", id: "t1", name: "Read", input: { file_path: "shot.png" } }]),
    user("r1", "a1", [{ type: "tool_result", tool_use_id: "t1", content: [image] }]),
    assistant("a2", "r1", "msg_2", [{ type: "text", text: "a pixel" }]),
  ]);

  it("sends them as image blocks in the request body", () => {
    const body = buildTurnRequest(session, OPTIONS, 2).body as { messages: { content: Record<string, unknown>[] }[] };
    expect(body.messages[0]!.content[1]).toMatchObject({ type: "image", source: { media_type: "image/png", data: png } });
    const result = body.messages[2]!.content[0] as { content: Record<string, unknown>[] };
    expect(result.content[0]).toMatchObject({ type: "image", source: { media_type: "image/png" } });
  });

  it("shows them in the message views as a label with type and size, never the base64 text", () => {
    const messages = buildTurnContext(session, OPTIONS, 2).messages;
    const text = JSON.stringify(messages.map((message) => message.message));
    expect(text).toContain("[image image/png, 70 B]");
    expect(text).not.toContain(png.slice(0, 20));
  });
});

describe("sub-agent threads", () => {
  const taskCall = (id: string, description: string, prompt: string) => ({
    type: "tool_use",
    id,
    name: "Task",
    input: { description, prompt, subagent_type: "general-purpose" },
  });
  const agentMessage = (agentId: string, message: Record<string, unknown>, uuid: string, parent: string) =>
    progress(`pp-${uuid}`, parent, { type: "agent_progress", agentId, prompt: "look around", message: { ...message, uuid, timestamp: "2026-01-01T00:00:01.000Z" } }, "t1");

  const main = [
    user("u1", null, "review this"),
    assistant("a1", "u1", "msg_1", [taskCall("t1", "Look around", "look around"), taskCall("t2", "Check tests", "check tests")]),
    // The synchronous sub-agent streams its messages inline (2.1.x agent_progress).
    agentMessage("agent1", { type: "user", message: { role: "user", content: [{ type: "text", text: "look around" }] } }, "s1", "a1"),
    agentMessage("agent1", { type: "assistant", requestId: "req_s1", message: { id: "msg_s1", role: "assistant", content: [{ type: "tool_use", id: "st1", name: "Bash", input: { command: "ls" } }] } }, "s2", "pp-s1"),
    agentMessage("agent1", { type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "st1", content: "a" }] } }, "s3", "pp-s2"),
    agentMessage("agent1", { type: "assistant", requestId: "req_s2", message: { id: "msg_s2", role: "assistant", content: [{ type: "text", text: "found a" }] } }, "s4", "pp-s3"),
    user("r1", "pp-s4", [{ type: "tool_result", tool_use_id: "t1", content: "found a" }], { toolUseResult: { status: "completed", agentId: "agent1" } }),
    // The asynchronous one only records its launch.
    user("r2", "r1", [{ type: "tool_result", tool_use_id: "t2", content: "launched" }], {
      toolUseResult: { isAsync: true, status: "async_launched", agentId: "agent2", description: "Check tests" },
    }),
    assistant("a2", "r2", "msg_2", [{ type: "text", text: "both started" }]),
  ];

  it("agent_progress messages become a thread linked to its Task call; a launched-only agent is listed without entries", () => {
    const session = readClaude(main);
    expect(analyzeSession(session, OPTIONS).turns).toHaveLength(2);
    expect(everyWarning(session)).toEqual([]);
    const threads = session.threads ?? [];
    expect(threads.map((thread) => [thread.id, thread.origin, thread.spawnedBy?.toolCallId, thread.label])).toEqual([
      ["agent1", "progress", "t1", "Task: Look around (agent1)"],
      ["agent2", "elsewhere", "t2", "Task: Check tests (agent2)"],
    ]);
    expect(threads[0]!.spawnedBy).toEqual({ entryId: "a1", toolCallId: "t1", toolName: "Task" });
    const sub = threadSessionOf(session, "agent1");
    const analysis = analyzeSession(sub, OPTIONS);
    expect(analysis.turns).toHaveLength(2);
    expect(everyWarning(sub)).toEqual([]);
    const body = buildTurnRequest(sub, OPTIONS, 2).body as { messages: { role: string }[] };
    expect(body.messages.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
    expect(threadSessionOf(session, "agent2").entries).toEqual([]);
    expect(() => threadSessionOf(session, "nope")).toThrow(/thread nope does not exist: the session has agent1, agent2/);
  });

  it("in-file sidechains (older versions) become threads linked by the prompt the call passed", () => {
    const session = readClaude([
      user("u1", null, "review this"),
      assistant("a1", "u1", "msg_1", [taskCall("t1", "Look around", "look around")]),
      user("c1", null, "look around", { isSidechain: true }),
      assistant("c2", "c1", "msg_c1", [{ type: "text", text: "found a" }], undefined, { isSidechain: true }),
      user("r1", "a1", [{ type: "tool_result", tool_use_id: "t1", content: "found a" }], { toolUseResult: { content: [], totalDurationMs: 5 } }),
      assistant("a2", "r1", "msg_2", [{ type: "text", text: "done" }]),
    ]);
    expect(analyzeSession(session, OPTIONS).turns).toHaveLength(2);
    const [thread] = session.threads ?? [];
    expect(thread).toMatchObject({ id: "c1", origin: "sidechain", spawnedBy: { toolCallId: "t1", toolName: "Task" }, label: "Task: Look around (c1)" });
    expect(analyzeSession(thread!.session, OPTIONS).turns).toHaveLength(1);
  });

  it("subagents/agent-<id>.jsonl opened with the session replaces what the main file held; another session's file is unlinked", () => {
    const sessionMain = readClaude(main);
    const subLines = [
      user("f1", null, "check tests", { isSidechain: true, agentId: "agent2" }),
      assistant("f2", "f1", "msg_f1", [{ type: "text", text: "tests pass" }], undefined, { isSidechain: true, agentId: "agent2" }),
    ];
    const sub = readSessionText(toText(subLines), "subagents/agent-agent2.jsonl");
    const stranger = readSessionText(toText([{ ...user("x1", null, "hi"), sessionId: "other-session" }]), "other.jsonl");
    // The order files are dropped in does not matter: the main transcript is found.
    const linked = linkSessions([sub, stranger, sessionMain]);
    expect(linked.session.fileName).toBe("s.jsonl");
    expect(linked.unlinked.map((session) => session.fileName)).toEqual(["other.jsonl"]);
    const thread = linked.session.threads?.find((item) => item.id === "agent2");
    expect(thread).toMatchObject({ origin: "file", spawnedBy: { toolCallId: "t2" }, label: "Task: Check tests (agent2)" });
    expect(analyzeSession(threadSessionOf(linked.session, "agent2"), OPTIONS).turns).toHaveLength(1);
    expect(linked.session.threads?.map((item) => item.id)).toEqual(["agent1", "agent2"]);
  });
});

describe("session events", () => {
  it("stop hooks, turn durations and local commands are events after their turn, not warnings", () => {
    const session = readClaude([
      user("u1", null, "hi"),
      assistant("a1", "u1", "msg_1", [{ type: "text", text: "hello" }]),
      system("d1", "a1", "turn_duration", { durationMs: 255467 }),
      system("h1", "d1", "stop_hook_summary", { hookCount: 2, hookInfos: [], hookErrors: ["boom"], preventedContinuation: false }),
      system("l1", "h1", "local_command", { content: "<command-name>/cost</command-name>\n<local-command-stdout>$0.10</local-command-stdout>" }),
      user("u2", "l1", "again"),
      assistant("a2", "u2", "msg_2", [{ type: "text", text: "hello again" }]),
    ]);
    const analysis = analyzeSession(session, OPTIONS);
    expect(analysis.turns).toHaveLength(2);
    expect(analysis.events?.map((event) => [event.kind, event.afterTurn, event.label])).toEqual([
      ["turn_duration", 1, "the turn took 255.5 s"],
      ["stop_hook_summary", 1, "stop hooks ran: 2, 1 failed"],
      ["local_command", 1, "local command: /cost $0.10"],
    ]);
    expect(everyWarning(session)).toEqual([]);
  });
});

describe("a parent Claude Code never wrote to the file", () => {
  // Claude Code can name as parent (or as a compact boundary's logical parent) an entry it did not
  // write, such as one in flight when it compacted; the turns before it are still the session's.
  const lines = [
    user("u1", null, "first question"),
    assistant("a1", "u1", "m1", [{ type: "text", text: "first answer" }]),
    user("u2", "a1", "second question"),
    assistant("a2", "u2", "m2", [{ type: "text", text: "second answer" }]),
    boundary("b1", "missing-entry"),
    user("u3", "b1", "third question"),
    assistant("a3", "u3", "m3", [{ type: "text", text: "third answer" }]),
  ];

  it("goes on from the entry written before it: every turn and the compaction stay, without a warning", () => {
    const session = readClaude(lines);
    const analysis = analyzeSession(session, OPTIONS);
    expect(analysis.turns).toHaveLength(3);
    expect(analysis.timeline.filter((item) => item.kind === "compaction")).toHaveLength(1);
    expect(analysis.warnings).toEqual([]);
  });

  it("a missing parent mid-session (no compaction): the entry joins the chain written before it, every turn stays", () => {
    const session = readClaude([
      user("u1", null, "first question"),
      assistant("a1", "u1", "m1", [{ type: "text", text: "first answer" }]),
      user("u2", "entry-never-written", "second question"),
      assistant("a2", "u2", "m2", [{ type: "text", text: "second answer" }]),
    ]);
    const analysis = analyzeSession(session, OPTIONS);
    expect(analysis.turns.map((turn) => turn.entryId)).toEqual(["a1", "a2"]);
    const context = buildTurnContext(session, OPTIONS, 2);
    expect(JSON.stringify(context.messages)).toContain("first answer");
  });

  it("starts its own chain only when nothing was written before it (a file that begins mid-session)", () => {
    const session = readClaude([user("u9", "not-in-file", "question"), assistant("a9", "u9", "m9", [{ type: "text", text: "answer" }])]);
    const analysis = analyzeSession(session, OPTIONS);
    expect(analysis.turns).toHaveLength(1);
    expect(analysis.warnings.map((warning) => warning.reason)).toEqual(["this file starts mid-session: the parent not-in-file of its first entry is not in it, so the earlier conversation is missing"]);
  });
});
