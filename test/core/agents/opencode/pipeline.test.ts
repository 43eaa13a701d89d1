// Record types → sent messages (FM-OC-9, FM-OC-13, FM-OC-14, CP-OC-26), the model scope
// (CP-OC-7 … CP-OC-9, before PR #11) and turn mapping (FM-OC-12) on small built sessions.
import { describe, expect, it } from "vitest";
import { isNotRecorded } from "../../../../src/core/model";
import {
  convertRecord,
  modelScope,
  summariserInput,
  type OpencodeMessageRecord,
} from "../../../../src/core/agents/opencode";
import { analyzeSession, buildTurnContext, buildTurnRequest, countTurns } from "../../../../src/core/session/pipeline";
import { readOpencodeExportText } from "../../../../src/core/agents/opencode/reader";
import { assistant, compaction, exportDocument, summary, toolPart, user } from "./helpers";

const options = { profile: "pi" as const };
const CONTINUE = "Continue if you have next steps, or stop and ask for clarification if you are unsure how to proceed.";

describe("convertRecord: each record and part type", () => {
  it("user text → a string; several parts → parts; ignored parts left out; files and subtasks", () => {
    expect(convertRecord(user("u1", "hi")).chat).toEqual([{ role: "user", content: "hi" }]);
    expect(convertRecord(user("u2", [{ type: "text", text: "a" }, { type: "text", text: "skip", ignored: true }])).chat).toEqual([
      { role: "user", content: "a" },
    ]);
    const many = convertRecord(
      user("u3", [
        { type: "text", text: "a" },
        { type: "file", mime: "image/png", url: "data:image/png;base64,AAA", filename: "x.png" },
        { type: "subtask" },
      ]),
    );
    expect(many.chat).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "a" },
          { type: "image_url", image_url: { url: "data:image/png;base64,AAA" } },
          { type: "text", text: "The following tool was executed by the user" },
        ],
      },
    ]);
    expect(many.inferred).toEqual(expect.arrayContaining(["OC-INF-FILE", "OC-INF-SUBTASK", "OC-INF-USER-PARTS"]));
    expect(convertRecord(user("u4", [{ type: "text", text: "x", ignored: true }])).skipped).toMatch(/without sendable parts/);
  });

  it("compaction part → `What did we do so far?`; continue message → sent, provenance synthetic", () => {
    const c = convertRecord(compaction("c1", "a1"));
    expect(c.chat).toEqual([{ role: "user", content: "What did we do so far?" }]);
    expect(c.context[0]?.provenance).toMatchObject({ rule: "synth:compaction-prompt", ruleId: "FM-OC-13", entryId: "c1" });
    const cont = convertRecord(user("k1", [{ type: "text", text: CONTINUE, synthetic: true, metadata: { compaction_continue: true } }]));
    expect(cont.chat).toEqual([{ role: "user", content: CONTINUE }]);
    expect(cont.context[0]?.provenance).toMatchObject({ rule: "synthetic:compaction-continue", ruleId: "FM-OC-14" });
  });

  it("assistant text, tool calls (completed, error, interrupted, pruned), step parts not sent", () => {
    expect(convertRecord(assistant("a1", "u1", "answer")).chat).toEqual([{ role: "assistant", content: "answer" }]);
    const tools = convertRecord(
      assistant("a2", "u1", [
        { type: "text", text: "let me look" },
        toolPart("c1", "bash", { command: "ls", n: 1 }, "out"),
        toolPart("c2", "read", { filePath: "/x" }, "", { status: "error", error: "boom" }),
        toolPart("c3", "grep", { pattern: "p" }, "", { status: "running" }),
        toolPart("c4", "bash", {}, "old output", { time: { start: 1, end: 2, compacted: 3 } }),
        { type: "step-finish", reason: "tool-calls" },
        { type: "reasoning", text: "thinking" },
      ]),
    );
    expect(tools.chat).toEqual([
      {
        role: "assistant",
        content: "let me look",
        tool_calls: [
          { id: "c1", type: "function", function: { name: "bash", arguments: '{"command":"ls","n":1}' } },
          { id: "c2", type: "function", function: { name: "read", arguments: '{"filePath":"/x"}' } },
          { id: "c3", type: "function", function: { name: "grep", arguments: '{"pattern":"p"}' } },
          { id: "c4", type: "function", function: { name: "bash", arguments: "{}" } },
        ],
      },
      { role: "tool", tool_call_id: "c1", content: "out" },
      { role: "tool", tool_call_id: "c2", content: "boom" },
      { role: "tool", tool_call_id: "c3", content: "[Tool execution was interrupted]" },
      { role: "tool", tool_call_id: "c4", content: "[Old tool result content cleared]" },
    ]);
    expect(tools.inferred).toEqual(expect.arrayContaining(["OC-INF-TOOL-ERROR", "OC-INF-INTERRUPTED", "OC-INF-REASONING"]));
    expect(tools.context.map((item) => item.message.role)).toEqual(["assistant", "toolResult", "toolResult", "toolResult", "toolResult"]);
    expect(tools.context[4]?.provenance.rule).toBe("prune:tool-output");
    expect(Object.keys(tools.chat[1] ?? {})).toEqual(["role", "tool_call_id", "content"]);
  });

  it("errored or empty assistant messages send nothing; an aborted one with content is sent", () => {
    expect(convertRecord(assistant("e1", "u", "partial", { error: { name: "APIError" } })).chat).toEqual([]);
    expect(convertRecord(assistant("e2", "u", "partial", { error: { name: "MessageAbortedError" } })).chat).toEqual([
      { role: "assistant", content: "partial" },
    ]);
    expect(convertRecord(assistant("e3", "u", [])).skipped).toMatch(/without text or tool calls/);
  });

  it("summary messages are sent as assistant text with compaction provenance", () => {
    const s = convertRecord(summary("s1", "c1", "## Goal"));
    expect(s.chat).toEqual([{ role: "assistant", content: "## Goal" }]);
    expect(s.context[0]?.provenance.rule).toBe("summary:compaction");
  });

  it("converts each record once", () => {
    const record = user("u9", "cached");
    expect(convertRecord(record)).toBe(convertRecord(record));
  });
});

const ids = (records: OpencodeMessageRecord[], indexes: number[]) => indexes.map((i) => records[i]?.info.id);

describe("modelScope (CP-OC-7, before PR #11)", () => {
  it("without compaction: every message in order", () => {
    const records = [user("u1", "a"), assistant("a1", "u1", "b"), user("u2", "c")];
    expect(ids(records, modelScope(records, 3).indexes)).toEqual(["u1", "a1", "u2"]);
  });

  it("a completed compaction without tail stops the walk at its user message", () => {
    const records = [user("u1", "a"), assistant("a1", "u1", "b"), compaction("c1"), summary("s1", "c1", "sum"), user("u2", "c")];
    const scope = modelScope(records, 5);
    expect(ids(records, scope.indexes)).toEqual(["c1", "s1", "u2"]);
    expect(scope.compactionIndex).toBe(2);
  });

  it("with a tail: pair first, then the tail, then the messages after the summary (table row 8)", () => {
    const records = [
      user("u1", "a"),
      assistant("a1", "u1", "b"),
      user("u5", "c"),
      assistant("a5", "u5", "d"),
      compaction("c0", "u5"),
      summary("s0", "c0", "sum"),
      user("u6", "e"),
    ];
    expect(ids(records, modelScope(records, 7).indexes)).toEqual(["c0", "s0", "u5", "a5", "u6"]);
  });

  it("an errored summary does not stop the walk and stays in scope with its request (CP-OC-8, row 7 off)", () => {
    const records = [user("u1", "a"), assistant("a1", "u1", "b"), compaction("c1"), summary("s1", "c1", "", { error: { name: "APIError" } }), user("u2", "c")];
    expect(ids(records, modelScope(records, 5).indexes)).toEqual(["u1", "a1", "c1", "s1", "u2"]);
  });

  it("an older compaction pair inside the newest tail is re-sent as is (CP-OC-9)", () => {
    const records = [
      user("u1", "a"),
      assistant("a1", "u1", "b"),
      compaction("c1", "a1"),
      summary("s1", "c1", "sum1"),
      user("k1", "continue"),
      assistant("a2", "k1", "c"),
      compaction("c2", "a1"),
      summary("s2", "c2", "sum2"),
      user("u3", "d"),
    ];
    expect(ids(records, modelScope(records, 9).indexes)).toEqual(["c2", "s2", "a1", "c1", "s1", "k1", "a2", "u3"]);
  });
});

describe("turns and requests of a built session", () => {
  const records = [
    user("u1", "first"),
    assistant("a1", "u1", [toolPart("t1", "bash", { command: "ls" }, "files")], { finish: "tool-calls" }),
    assistant("a2", "u1", "answer one"),
    user("sh", [{ type: "text", text: "The following tool was executed by the user", synthetic: true }]),
    assistant("shell", "sh", [toolPart("t2", "bash", { command: "pwd" }, "/w")], { finish: undefined }),
    compaction("c1", "a2"),
    summary("s1", "c1", "the summary"),
    user("u2", "second"),
    assistant("a3", "u2", "answer two", { providerID: "q", modelID: "other" }),
  ];
  const session = readOpencodeExportText(exportDocument(records), "x.json");

  it("maps turns to finished non-summary assistant messages (FM-OC-12)", () => {
    expect(countTurns(session, options)).toBe(3);
    const analysis = analyzeSession(session, options);
    expect(analysis.turns.map((turn) => [turn.entryId, turn.stopReason, turn.afterCompaction, turn.modelSwitched])).toEqual([
      ["a1", "tool-calls", false, false],
      ["a2", "stop", false, false],
      ["a3", "stop", true, true],
    ]);
    expect(analysis.turns[2]?.model).toEqual({ provider: "q", modelId: "other" });
    expect(analysis.timeline.map((item) => (item.kind === "turn" ? item.turn : item.kind))).toEqual([1, 2, "compaction", 3]);
    const event = analysis.timeline[2];
    expect(event).toMatchObject({ kind: "compaction", entryId: "c1", beforeTurn: 3, firstKeptEntryId: "a2", summaryChars: 11, tokensBefore: 100 });
  });

  it("a shell command's messages are sent later (no finish: not a turn)", () => {
    const built = buildTurnRequest(session, options, 3);
    const messages = built.body.messages as Record<string, unknown>[];
    expect(messages.map((message) => [message.role, typeof message.content === "string" ? message.content : "?"])).toEqual([
      ["system", "?"],
      ["user", "What did we do so far?"],
      ["assistant", "the summary"],
      ["assistant", "answer one"],
      ["user", "The following tool was executed by the user"],
      ["assistant", ""],
      ["tool", "/w"],
      ["user", "second"],
    ]);
    expect(isNotRecorded(messages[0]?.content)).toBe(true);
    expect(built.body.model).toBe("other");
    expect(built.body.max_tokens).toBeGreaterThan(0);
    const context = buildTurnContext(session, options, 3);
    expect(context.compactionId).toBe("c1");
    expect(context.pathEntryIds).toEqual(["c1", "s1", "a2", "sh", "shell", "u2"]);
  });

  it("renders another wire shape through the generic serializers when asked", () => {
    const built = buildTurnRequest(session, { ...options, api: "anthropic-messages" }, 2);
    expect(built.api).toBe("anthropic-messages");
    expect(Array.isArray(built.body.messages)).toBe(true);
  });

  it("rejects a turn that does not exist", () => {
    expect(() => buildTurnRequest(session, options, 4)).toThrow(RangeError);
  });

  it("rebuilds the summariser input before the tail (CP-OC-16)", () => {
    const { records: list } = { records };
    const input = summariserInput(list, 5);
    expect(input.conversation).toBe(
      '[User]: first\n\n[Assistant tool call]: bash({"command":"ls"})\n[Tool result]: files',
    );
    expect(input.priorSummary).toBeNull();
  });

  it("caps tool output at 2000 characters in the summariser input", () => {
    const long = [user("u1", "x"), assistant("a1", "u1", [toolPart("t", "read", {}, "y".repeat(2500))]), assistant("a2", "u1", "z"), compaction("c", "a2")];
    expect(summariserInput(long, 3).conversation).toBe(`[User]: x\n\n[Assistant tool call]: read({})\n[Tool result]: ${"y".repeat(2000)}\n[truncated]`);
  });
});

describe("analysis sizes", () => {
  it("message counts and sizes equal those of each turn's own context", () => {
    const records = [
      user("u1", "first prompt"),
      assistant("a1", "u1", [toolPart("t1", "bash", { command: "ls" }, "files")], { finish: "tool-calls" }),
      assistant("a2", "u1", "answer one"),
      user("u2", "second"),
      assistant("a3", "u2", "answer two"),
      compaction("c1", "a3"),
      summary("s1", "c1", "the summary"),
      user("k1", [{ type: "text", text: CONTINUE, synthetic: true, metadata: { compaction_continue: true } }]),
      assistant("a4", "k1", "ok"),
      user("u3", "third"),
      assistant("a5", "u3", "answer three"),
    ];
    const session = readOpencodeExportText(exportDocument(records), "x.json");
    const analysis = analyzeSession(session, options);
    expect(analysis.turns).toHaveLength(5);
    for (const turn of analysis.turns) {
      const body = buildTurnRequest(session, options, turn.turn).body;
      const messages = (body.messages as Record<string, unknown>[]).slice(1);
      expect(turn.messageCount, `turn ${turn.turn}`).toBe(messages.length);
    }
    expect(analysis.turns.map((turn) => turn.afterCompaction)).toEqual([false, false, false, true, false]);
  });
});
