// Every rollout shape Codex has written, each reproduced by a small rollout built here: the
// pre-envelope file (untagged meta line, bare items, state lines), the tagged `record_type`
// lines, envelope rollouts closed by token_usage_record, by token_count, or by nothing (turns
// from the model responses), interrupted responses, `compacted` with replacement_history, and the
// originator/source variants of session_meta.
import { describe, expect, it } from "vitest";
import { getCodexIndex } from "../../../../src/core/agents/codex/rollout-index";
import { codexSessionSource } from "../../../../src/core/agents/codex/session-source";
import type { PipelineOptions } from "../../../../src/core/model";
import { analyzeSession, buildTurnContext, buildTurnRequest } from "../../../../src/core/session/pipeline";
import { readSessionText } from "../../../../src/core/session/index";

const OPTIONS: PipelineOptions = { profile: "pi" };
const T = "2025-09-10T18:58:38.331Z";
const env = (type: string, payload: Record<string, unknown>) => ({ timestamp: T, type, payload });
const user = (text: string) => ({ type: "message", role: "user", content: [{ type: "input_text", text }] });
const assistant = (text: string) => ({ type: "message", role: "assistant", content: [{ type: "output_text", text }] });
const reasoning = (id: string) => ({ type: "reasoning", id, summary: [], content: null, encrypted_content: "enc" });
const call = (id: string, name = "shell") => ({ type: "function_call", name, arguments: "{}", call_id: id });
const output = (id: string, text = "ok") => ({ type: "function_call_output", call_id: id, output: text });
const usage = (total: number) => ({ input_tokens: total - 10, cached_input_tokens: 0, output_tokens: 10, reasoning_output_tokens: 0, total_tokens: total });
const tokenCount = (total: number) => env("event_msg", { type: "token_count", info: { total_token_usage: usage(total), last_token_usage: usage(total) } });
const text = (lines: unknown[]) => lines.map((line) => JSON.stringify(line)).join("\n");
const read = (lines: unknown[]) => readSessionText(text(lines), "rollout.jsonl");

/** Turn numbers with the entry of their first output item's line, and whether they were interrupted. */
function turns(lines: unknown[]) {
  const session = read(lines);
  const analysis = analyzeSession(session, OPTIONS);
  return {
    session,
    analysis,
    list: getCodexIndex(session).turns.map((turn) => ({ line: turn.answer?.line ?? null, length: turn.historyLength, interrupted: turn.interrupted })),
  };
}

const META = env("session_meta", { id: "thread-1", cli_version: "0.50.0", originator: "codex_cli_rs", source: "cli", model_provider: "openai" });

describe("pre-envelope rollouts (2025: untagged meta line, bare items, state lines)", () => {
  const legacy = [
    { id: "cf4def41-0000-0000-0000-000000000000", timestamp: T, instructions: "# AGENTS.md\r\n\r\nBe brief.", git: { commit_hash: "abc", branch: "main" } },
    { record_type: "state" },
    user("<user_instructions>x</user_instructions>"),
    user("list files"),
    { record_type: "state" },
    reasoning("rs_1"),
    call("c1"),
    output("c1", "a b"),
    { record_type: "state" },
    reasoning("rs_2"),
    assistant("two files"),
    user("thanks"),
    assistant("you're welcome"),
  ];

  it("is detected as Codex and read without a warning, the meta line as header", () => {
    const { session, analysis, list } = turns(legacy);
    expect(session.formatId).toBe("codex");
    expect(session.header).toMatchObject({ agent: "codex", id: "cf4def41-0000-0000-0000-000000000000", git: { branch: "main" } });
    expect(session.entries.map((entry) => entry.type)).toEqual([
      "session_meta", "state", "response_item", "response_item", "state", "response_item", "response_item", "response_item", "state", "response_item", "response_item", "response_item", "response_item",
    ]);
    expect(session.warnings).toEqual([]);
    expect(analysis.warnings).toEqual([]);
    // Three model responses: reasoning + call; reasoning + answer after the tool output; the last answer.
    expect(list).toEqual([
      { line: 6, length: 2, interrupted: false },
      { line: 10, length: 5, interrupted: false },
      { line: 13, length: 8, interrupted: false },
    ]);
  });

  it("needs a Codex key or Codex lines after an id-and-time first line", () => {
    expect(() => readSessionText(text([{ id: "x", timestamp: T }, { other: 1 }]), "x.jsonl")).toThrow(/not a Codex session/);
    expect(read([{ id: "x", timestamp: T }, { record_type: "state" }, user("hi"), assistant("hello")]).formatId).toBe("codex");
  });

  it("rebuilds each request from the items before the response", () => {
    const session = read(legacy);
    const request = buildTurnRequest(session, OPTIONS, 2);
    const input = request.body.input as Record<string, unknown>[];
    expect(input.slice(1).map((item) => item.type)).toEqual(["message", "message", "reasoning", "function_call", "function_call_output"]);
  });
});

describe("tagged rollouts ({timestamp, record_type, ...fields})", () => {
  it("reads meta, response, event and state lines", () => {
    const { session, list } = turns([
      { timestamp: T, record_type: "session_meta", id: "thread-t", cwd: "/p", originator: "codex_cli_rs", cli_version: "0.36.0", instructions: null },
      { timestamp: T, record_type: "response", ...user("hi") },
      { timestamp: T, record_type: "event", id: "0", msg: { type: "user_message", message: "hi" } },
      { timestamp: T, record_type: "response", ...assistant("hello") },
      { timestamp: T, record_type: "state" },
    ]);
    expect(session.warnings).toEqual([]);
    expect(session.header).toMatchObject({ id: "thread-t", cli_version: "0.36.0" });
    expect(session.entries.map((entry) => entry.type)).toEqual(["session_meta", "response_item", "event_msg", "response_item", "state"]);
    expect(list).toEqual([{ line: 4, length: 1, interrupted: false }]);
  });
});

describe("envelope rollouts without usage lines or turn_context (Codex Desktop)", () => {
  const desktop = [
    env("session_meta", { id: "thread-d", originator: "Codex Desktop", cli_version: "0.128.0-alpha.1", source: "vscode", dynamic_tools: [{ name: "t" }] }),
    env("response_item", user("<environment_context/>")),
    env("response_item", user("fix it")),
    env("event_msg", { type: "user_message", message: "fix it", images: [] }),
    env("response_item", reasoning("r1")),
    env("response_item", call("c1")),
    env("response_item", call("c2")),
    env("response_item", output("c1")),
    env("response_item", output("c2")),
    env("response_item", call("c3")),
    env("response_item", output("c3")),
    env("response_item", assistant("done")),
    env("response_item", user("again")),
    env("event_msg", { type: "user_message", message: "again" }),
    env("response_item", assistant("done again")),
  ];

  it("finds one turn per run of output items between inputs, with no warning", () => {
    const { analysis, list } = turns(desktop);
    expect(list.map((turn) => turn.line)).toEqual([5, 10, 12, 15]);
    expect(list.every((turn) => !turn.interrupted)).toBe(true);
    expect(analysis.warnings).toEqual([]);
    expect(analysis.turns.map((turn) => turn.stopReason)).toEqual([null, null, null, null]);
  });

  it("a user_message event starts a new response even without its message item, and that loss is named", () => {
    const trimmed = desktop.filter((line) => !(line.type === "response_item" && (line.payload as Record<string, unknown>).role === "user"));
    const { analysis, list } = turns(trimmed);
    expect(list).toHaveLength(4);
    expect(analysis.warnings).toEqual([{ line: 2, reason: expect.stringMatching(/^2 user_message event\(s\) without the user message item .*lines 2, 11; .*rebuilt from the events' text/) }]);
  });

  it("a prompt whose message item is missing is rebuilt from its user_message event, where the event was, marked inferred", () => {
    const trimmed = desktop.filter((line) => !(line.type === "response_item" && (line.payload as Record<string, unknown>).role === "user"));
    const { session } = turns(trimmed);
    type Item = { type?: string; role?: string; content?: { text?: string }[] };
    const first = (buildTurnRequest(session, OPTIONS, 1).body as { input: Item[] }).input;
    expect(first.filter((item) => item.role === "user").map((item) => item.content?.[0]?.text)).toEqual(["fix it"]);
    const third = (buildTurnRequest(session, OPTIONS, 4).body as { input: Item[] }).input;
    const again = third.findIndex((item) => item.role === "user" && item.content?.[0]?.text === "again");
    // Where the event was: after the first response's answer, as the last input of the request.
    expect(third[again - 1]?.content?.[0]?.text).toBe("done");
    expect(again).toBe(third.length - 1);
    const context = buildTurnContext(session, OPTIONS, 4).messages.find((message) => message.provenance.rule === "codex:prompt-from-event");
    expect(context?.provenance.inferred).toBe("FM-CX-11");
  });
});

describe("recorded items Codex does not send", () => {
  it("ghost snapshots (undo) and system messages stay out of the history and split no response", () => {
    const { session, list } = turns([
      META,
      env("response_item", user("go")),
      env("response_item", { type: "ghost_snapshot", ghost_commit: { id: "abc", parent: null } }),
      env("response_item", { type: "message", role: "system", content: [{ type: "input_text", text: "sys" }] }),
      env("response_item", reasoning("r")),
      env("response_item", { type: "ghost_snapshot", ghost_commit: { id: "def", parent: "abc" } }),
      env("response_item", call("c1")),
      env("response_item", output("c1")),
      env("response_item", assistant("done")),
    ]);
    expect(list).toEqual([
      { line: 5, length: 1, interrupted: false },
      { line: 9, length: 4, interrupted: false },
    ]);
    const input = buildTurnRequest(session, OPTIONS, 2).body.input as Record<string, unknown>[];
    expect(input.slice(1).map((item) => item.type)).toEqual(["message", "reasoning", "function_call", "function_call_output"]);
  });
});

describe("envelope rollouts closed by token_count events", () => {
  it("one turn per response; a last response without its token_count is a turn marked interrupted", () => {
    const { analysis, list } = turns([
      META,
      env("turn_context", { model: "gpt-5" }),
      env("response_item", user("go")),
      env("response_item", call("c1")),
      env("response_item", output("c1")),
      tokenCount(100),
      tokenCount(100),
      env("response_item", assistant("done")),
      tokenCount(200),
      env("response_item", user("more")),
      env("response_item", reasoning("r")),
      env("response_item", call("c2")),
    ]);
    expect(list).toEqual([
      { line: 4, length: 1, interrupted: false },
      { line: 8, length: 3, interrupted: false },
      { line: 11, length: 5, interrupted: true },
    ]);
    expect(analysis.turns.map((turn) => [turn.stopReason, turn.usage?.totalTokens ?? null])).toEqual([
      [null, 100],
      [null, 200],
      ["aborted", null],
    ]);
    expect(analysis.warnings).toEqual([]);
  });

  it("a turn_aborted event marks the response it cut short", () => {
    const { list } = turns([
      META,
      env("response_item", user("go")),
      env("response_item", call("c1")),
      env("event_msg", { type: "turn_aborted", reason: "interrupted" }),
      env("response_item", output("c1", "aborted")),
      env("response_item", user("other")),
      env("response_item", assistant("ok")),
      tokenCount(50),
    ]);
    expect(list).toEqual([
      { line: 3, length: 1, interrupted: true },
      { line: 7, length: 4, interrupted: false },
    ]);
  });
});

describe("envelope rollouts closed by token_usage_record (recent versions)", () => {
  it("a last response without its usage record is still a turn, marked interrupted", () => {
    const { analysis, list } = turns([
      META,
      env("response_item", user("go")),
      env("response_item", call("c1")),
      env("token_usage_record", { response_id: "r1", usage: usage(10) }),
      env("response_item", output("c1")),
      env("response_item", assistant("partial")),
    ]);
    expect(list).toEqual([
      { line: 3, length: 1, interrupted: false },
      { line: 6, length: 3, interrupted: true },
    ]);
    expect(analysis.warnings).toEqual([]);
  });
});

describe("compacted with replacement_history", () => {
  it("is one compaction event; later requests start from the replacement history", () => {
    const replacement = [user("go"), user("summary of the work")];
    const { session, analysis, list } = turns([
      META,
      env("response_item", user("go")),
      env("response_item", call("c1")),
      env("response_item", output("c1")),
      env("response_item", assistant("done")),
      env("compacted", { message: "summary of the work", replacement_history: replacement }),
      env("response_item", user("next")),
      env("response_item", assistant("ok")),
    ]);
    expect(list.map((turn) => turn.line)).toEqual([3, 5, 8]);
    expect(analysis.timeline.map((item) => item.kind)).toEqual(["turn", "turn", "compaction", "turn"]);
    expect(analysis.turns[2]!.afterCompaction).toBe(true);
    const input = buildTurnRequest(session, OPTIONS, 3).body.input as Record<string, unknown>[];
    expect(input.slice(1)).toEqual([...replacement, user("next")]);
    expect(analysis.warnings).toEqual([]);
  });
});

describe("session_meta originator and source variants", () => {
  const variants: [unknown, Partial<ReturnType<typeof codexSessionSource>>][] = [
    ["cli", { kind: "cli", subagent: null, spawn: null }],
    ["exec", { kind: "exec" }],
    ["vscode", { kind: "vscode" }],
    ["mcp", { kind: "mcp" }],
    [{ subagent: "review" }, { kind: "subagent", subagent: "review", spawn: null }],
    [{ subagent: { other: "guardian" } }, { kind: "subagent", subagent: "other" }],
    [
      { subagent: { thread_spawn: { parent_thread_id: "parent-1", depth: 1, agent_nickname: "Ada", agent_role: "explorer" } } },
      { kind: "subagent", subagent: "thread_spawn", spawn: { parentThreadId: "parent-1", depth: 1, agentPath: null, nickname: "Ada", role: "explorer" } },
    ],
  ];

  it.each(variants)("source %j is read", (source, expected) => {
    const meta = { id: "t", originator: "codex_exec", source };
    expect(codexSessionSource(meta)).toMatchObject({ threadId: "t", originator: "codex_exec", ...expected });
    const session = read([env("session_meta", meta), env("response_item", user("hi")), env("response_item", assistant("hello"))]);
    expect([...session.warnings, ...analyzeSession(session, OPTIONS).warnings]).toEqual([]);
  });

  it("a top-level parent_thread_id names the parent too", () => {
    expect(codexSessionSource({ id: "c", parent_thread_id: "p" }).spawn?.parentThreadId).toBe("p");
  });

  it("a forked rollout's copied session_meta of its source thread is not a warning; the first meta is the header", () => {
    const session = read([
      env("session_meta", { id: "fork", forked_from_id: "orig" }),
      env("session_meta", { id: "orig" }),
      env("response_item", user("hi")),
    ]);
    expect(session.header).toMatchObject({ id: "fork" });
    expect(session.warnings).toEqual([]);
  });
});
