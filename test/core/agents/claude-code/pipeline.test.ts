import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { messageHash } from "../../../../src/core/agents/claude-code/request-records";
import { normaliseSingleTextContent, setCacheControlAt, assembleClaudeBody, CLAUDE_BODY_KEY_ORDER } from "../../../../src/core/agents/claude-code/wire";
import type { PipelineOptions } from "../../../../src/core/model";
import { analyzeSession, buildTurnContext, buildTurnRequest, countTurns } from "../../../../src/core/session/pipeline";
import { readSessionText } from "../../../../src/core/session/index";
import { fixtureCase } from "../../../support/fixtures";
import { assistant, attachment, boundary, readClaude, SESSION_ID, user } from "./helpers";

const OPTIONS: PipelineOptions = { profile: "pi" };

describe("Claude Code turns without api-request records (FM-CC-24)", () => {
  const lines = [
    user("u1", null, "list files"),
    attachment("at1", "u1", { type: "date", date: "2026-01-01" }, ["<system-reminder>\nToday's date is 2026-01-01.\n</system-reminder>"], "system"),
    // One API message stored as two entries (FM-CC-4), each repeating the same usage.
    assistant("a1", "at1", "msg_1", [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "ls" } }], {
      input_tokens: 100,
      cache_creation_input_tokens: 20,
      cache_read_input_tokens: 30,
      output_tokens: 1,
    }),
    assistant("a2", "a1", "msg_1", [{ type: "tool_use", id: "t2", name: "Read", input: { file_path: "x" } }], {
      input_tokens: 100,
      cache_creation_input_tokens: 20,
      cache_read_input_tokens: 30,
      output_tokens: 40,
    }),
    user("r2", "a2", [{ type: "tool_result", tool_use_id: "t2", content: "file x" }]),
    user("r1", "a1", [{ type: "tool_result", tool_use_id: "t1", content: "x y" }]),
    assistant("a3", "r1", "msg_2", [{ type: "text", text: "done" }]),
    boundary("b1", "a3"),
    user("s1", "b1", "This session is being continued from a previous conversation that ran out of context. Summary: ...", {
      isCompactSummary: true,
      isVisibleInTranscriptOnly: true,
    }),
    user("u2", "s1", "next question"),
    assistant("a4", "u2", "msg_3", [{ type: "text", text: "answer" }]),
  ];
  const session = readClaude(lines);

  it("counts one turn per API message and de-duplicates usage per message.id", () => {
    const analysis = analyzeSession(session, OPTIONS);
    expect(analysis.turns).toHaveLength(3);
    // The last entry of the message wins (streamed output stub on earlier entries).
    expect(analysis.turns[0]!.usage).toEqual({ input: 100, output: 40, cacheRead: 30, cacheWrite: 20, totalTokens: 190 });
    expect(analysis.turns.map((turn) => turn.api)).toEqual(["anthropic-messages", "anthropic-messages", "anthropic-messages"]);
    expect(analysis.turns[2]!.afterCompaction).toBe(true);
  });

  it("shows the compaction boundary as a timeline event with its metadata", () => {
    const analysis = analyzeSession(session, OPTIONS);
    expect(analysis.timeline).toEqual([
      { kind: "turn", turn: 1 },
      { kind: "turn", turn: 2 },
      expect.objectContaining({ kind: "compaction", entryId: "b1", beforeTurn: 3, tokensBefore: 1234, firstKeptEntryId: "h" }),
      { kind: "turn", turn: 3 },
    ]);
  });

  it("merges the message's blocks and all its tool results, and renders system attachments as system messages", () => {
    const built = buildTurnRequest(session, OPTIONS, 2);
    const messages = built.body.messages as Record<string, unknown>[];
    expect(messages.map((message) => message.role)).toEqual(["user", "system", "assistant", "user"]);
    expect(messages[1]!.content).toBe("Today's date is 2026-01-01.");
    expect((messages[2]!.content as unknown[]).length).toBe(2);
    // Tool results of both blocks, in file order.
    expect((messages[3]!.content as { tool_use_id: string }[]).map((block) => block.tool_use_id)).toEqual(["t2", "t1"]);
    expect(built.notRecorded.some((label) => label.startsWith("approximate"))).toBe(true);
  });

  it("starts after the compaction boundary: the summary opens the request", () => {
    const context = buildTurnContext(session, OPTIONS, 3);
    expect(context.messages[0]!.provenance.rule).toBe("summary:compaction");
    expect(context.compactionId).toBe("b1");
    const built = buildTurnRequest(session, OPTIONS, 3);
    expect((built.body.messages as unknown[]).length).toBe(1);
  });

  it("throws a RangeError for a turn that does not exist", () => {
    expect(() => buildTurnRequest(session, OPTIONS, 4)).toThrow(RangeError);
  });
});

describe("Claude Code sidechains (FM-CC-8)", () => {
  const session = readClaude([
    user("u1", null, "main prompt"),
    assistant("a1", "u1", "msg_1", [{ type: "text", text: "main answer" }]),
    user("s1", null, "sub-agent task", { isSidechain: true, agentId: "agent-7" }),
    assistant("s2", "s1", "msg_s", [{ type: "text", text: "sub answer" }], undefined, { isSidechain: true }),
    { type: "last-prompt", lastPrompt: "main prompt", leafUuid: "a1", sessionId: SESSION_ID },
  ]);

  it("lists the sidechain as its own labelled branch and keeps it out of the main thread", () => {
    const analysis = analyzeSession(session, OPTIONS);
    expect(analysis.leafId).toBe("a1");
    expect(analysis.turns).toHaveLength(1);
    const side = analysis.branches.find((branch) => branch.leafId === "s2");
    expect(side).toMatchObject({ turns: 1, isDefault: false });
    expect(side!.label).toMatch(/^sidechain .*sub-agent.*sub-agent task/);
    expect(analysis.branches.find((branch) => branch.leafId === "a1")).toMatchObject({ isDefault: true, label: null });
    // The app's branch picker lists sub-agent threads apart (BranchInfo.thread).
    expect(side!.thread).toBe("sub-agent");
    expect(analysis.branches.find((branch) => branch.leafId === "a1")!.thread).toBe("main");
  });

  it("builds the sidechain's own requests when that branch is picked", () => {
    const built = buildTurnRequest(session, { ...OPTIONS, leafId: "s2" }, 1);
    expect(built.body.messages).toEqual([{ role: "user", content: [{ type: "text", text: "sub-agent task", cache_control: { type: "ephemeral" } }] }]);
  });
});

describe("Claude Code api-request records (FM-CC-18, FM-CC-19)", () => {
  const first = { role: "user", content: "hello" };
  const blob = { role: "system", content: [{ type: "text", text: "env" }] };
  const blobHash = messageHash(blob);
  const lines = [
    user("u1", null, "hello"),
    { type: "api-request-shape", sessionId: SESSION_ID, shapeHash: "S", shape: { system: [{ type: "text", text: "sys" }], tools: [{ name: "Bash" }] } },
    { type: "api-request-blob", sessionId: SESSION_ID, hash: blobHash, message: blob },
    {
      type: "api-request",
      sessionId: SESSION_ID,
      id: "R1",
      version: "2.1.0",
      shapeHash: "S",
      params: { model: "claude-test", betas: ["b"], max_tokens: 10 },
      keep: 0,
      tail: [messageHash(first), blobHash, "f".repeat(64)],
      cacheControl: [{ path: ["system", 0], value: { type: "ephemeral" } }],
    },
    assistant("a1", "u1", "msg_1", [{ type: "text", text: "hi" }], undefined, { requestRef: "R1" }),
  ];
  const session = readClaude(lines);

  it("resolves transcript messages and blobs by hash, and marks an unknown hash as not recorded", () => {
    const built = buildTurnRequest(session, OPTIONS, 1);
    expect(built.body.messages).toEqual([
      { role: "user", content: "hello" },
      { role: "system", content: "env" },
      { role: "user", content: "[not recorded: message " + "f".repeat(64) + "]" },
    ]);
    expect(analyzeSession(session, OPTIONS).warnings.some((warning) => /matches no blob/.test(warning.reason))).toBe(true);
  });

  it("puts system, tools and params in Claude Code's key order, betas left out, billing block first", () => {
    const body = buildTurnRequest(session, OPTIONS, 1).body;
    expect(Object.keys(body)).toEqual(["model", "messages", "system", "tools", "metadata", "max_tokens", "stream"]);
    expect(body.system).toEqual([
      { type: "text", text: "x-anthropic-billing-header: cc_version=2.1.0.6af; cc_entrypoint=cli;" },
      { type: "text", text: "sys", cache_control: { type: "ephemeral" } },
    ]);
    expect(JSON.parse((body.metadata as { user_id: string }).user_id)).toMatchObject({ session_id: SESSION_ID });
  });
});

describe("wire helpers", () => {
  it("sends a single uncached text block of a user or system message as a string, not an assistant one", () => {
    expect(normaliseSingleTextContent({ role: "user", content: [{ type: "text", text: "a" }] })).toEqual({ role: "user", content: "a" });
    const cached = { role: "user", content: [{ type: "text", text: "a", cache_control: { type: "ephemeral" } }] };
    expect(normaliseSingleTextContent(cached)).toBe(cached);
    const answer = { role: "assistant", content: [{ type: "text", text: "a" }] };
    expect(normaliseSingleTextContent(answer)).toBe(answer);
  });

  it("sets a cache marker on a string content by turning it into a block, without touching the original", () => {
    const message = { role: "user", content: "text" };
    const root = { messages: [message] };
    expect(setCacheControlAt(root, ["messages", 0, "content", 0], { type: "ephemeral" })).toBe(true);
    expect(root.messages[0]).toEqual({ role: "user", content: [{ type: "text", text: "text", cache_control: { type: "ephemeral" } }] });
    expect(message.content).toBe("text");
    expect(setCacheControlAt(root, ["messages", 5, "content", 0], {})).toBe(false);
  });

  it("moves recorded cache markers: old ones removed, unknown params kept before stream", () => {
    const warnings: string[] = [];
    const body = assembleClaudeBody(
      {
        params: { model: "m", temperature: 0 },
        system: [{ type: "text", text: "s", cache_control: { type: "ephemeral" } }],
        tools: [],
        messages: [{ role: "assistant", content: [{ type: "text", text: "x", cache_control: { type: "ephemeral" } }] }],
        cacheControl: [{ path: ["messages", 9], value: {} }],
        billingBlock: null,
        metadata: {},
      },
      warnings,
    );
    expect(body.system).toEqual([{ type: "text", text: "s" }]);
    expect(body.messages).toEqual([{ role: "assistant", content: [{ type: "text", text: "x" }] }]);
    expect(Object.keys(body).at(-2)).toBe("temperature");
    expect(warnings).toHaveLength(1);
    expect(CLAUDE_BODY_KEY_ORDER.at(-1)).toBe("stream");
  });

  it("sets a marker on a copy of the message: the caller's list and messages stay as they were", () => {
    const shared = { role: "user", content: [{ type: "text", text: "hi" }] };
    const messages = [shared, { role: "assistant", content: [{ type: "text", text: "yo" }] }];
    const parts = {
      params: { model: "m" },
      system: [],
      tools: [],
      messages,
      cacheControl: [{ path: ["messages", 0, "content", 0], value: { type: "ephemeral" } }],
      billingBlock: null,
      metadata: {},
    };
    const first = assembleClaudeBody(parts, []);
    const second = assembleClaudeBody(parts, []);
    expect(first.messages).toEqual([{ role: "user", content: [{ type: "text", text: "hi", cache_control: { type: "ephemeral" } }] }, messages[1]]);
    expect(second.messages).toEqual(first.messages);
    expect(second.messages).not.toBe(first.messages);
    expect(messages[0]).toBe(shared);
    expect(shared.content[0]).toEqual({ type: "text", text: "hi" });
  });
});

describe("Claude Code fixture without api-request records", () => {
  it("still finds every main request and rebuilds its assistant messages exactly (approximate mode)", () => {
    const fixture = fixtureCase("claude/print-autocompact-manualcompact");
    const file = fixture.path(
      "session/projects/-home-dev-claude-print-autocompact-manualcompact-lighthouse-notes/ae06c21a-08ae-4c39-89e0-c4dcf08d14e8.jsonl",
    );
    const kept = fs
      .readFileSync(file, "utf8")
      .split("\n")
      .filter((line) => line !== "" && !/^\{"type":"api-request/.test(line));
    const session = readSessionText(kept.join("\n"), "old.jsonl");
    expect(countTurns(session, OPTIONS)).toBe(15);
    const mains = fixture.requests("main");
    mains.forEach((request, i) => {
      const recorded = request.body as { messages: { role: string }[] };
      const built = buildTurnRequest(session, OPTIONS, i + 1);
      const assistants = (messages: { role: string }[]) => messages.filter((message) => message.role === "assistant");
      expect(assistants(built.body.messages as { role: string }[])).toEqual(assistants(recorded.messages));
      expect(built.notRecorded.some((label) => label.startsWith("approximate"))).toBe(true);
    });
  });
});
