import { describe, expect, it } from "vitest";
import { claudeReader, detectClaude } from "../../../../src/core/agents/claude-code/reader";
import { detectFormat, readSessionText, UnsupportedFormatError } from "../../../../src/core/session/index";
import { assistant, readClaude, SESSION_ID, toText, user } from "./helpers";

const QUEUE = { type: "queue-operation", operation: "enqueue", timestamp: "2026-01-01T00:00:00.000Z", sessionId: SESSION_ID, content: "hi" };

describe("Claude Code detection", () => {
  it("recognises transcripts opening with a queue operation, a user entry or an old summary line", () => {
    expect(detectClaude([JSON.stringify(QUEUE)])).toBe(true);
    expect(detectClaude([JSON.stringify(user("u1", null, "hi"))])).toBe(true);
    expect(detectClaude([JSON.stringify({ type: "summary", summary: "x", leafUuid: "u1" })])).toBe(true);
    expect(detectFormat([JSON.stringify(QUEUE)], "a.jsonl")?.id).toBe("claude-code");
  });

  it("rejects pi sessions, Codex rollouts and objects without a session id", () => {
    expect(detectClaude([JSON.stringify({ type: "session", version: 3, id: "x", cwd: "/" })])).toBe(false);
    expect(detectClaude([JSON.stringify({ timestamp: "t", type: "session_meta", payload: { id: "x" } })])).toBe(false);
    expect(detectClaude([JSON.stringify({ type: "user", message: { role: "user", content: "x" } })])).toBe(false);
  });

  it("an unknown file gets a message naming Claude Code among the expected formats", () => {
    expect(() => readSessionText('{"hello":1}\n{"world":2}', "notes.jsonl")).toThrow(UnsupportedFormatError);
    expect(() => readSessionText('{"hello":1}', "notes.jsonl")).toThrow(/not a Claude Code session: expected a Claude Code transcript/);
  });
});

describe("Claude Code reader", () => {
  it("keeps conversation entries in the tree and bookkeeping records outside it", () => {
    const session = readClaude([
      QUEUE,
      user("u1", null, "hi"),
      assistant("a1", "u1", "msg_1", [{ type: "text", text: "hello" }]),
      { type: "last-prompt", lastPrompt: "hi", leafUuid: "a1", sessionId: SESSION_ID },
    ]);
    expect(session.formatId).toBe("claude-code");
    expect(session.entries.map((entry) => [entry.id, entry.parentId, entry.type])).toEqual([
      ["queue-operation@1", null, "queue-operation"],
      ["u1", null, "user"],
      ["a1", "u1", "assistant"],
      ["last-prompt@4", null, "last-prompt"],
    ]);
    expect(session.header).toMatchObject({ agent: "claude-code", sessionId: SESSION_ID, version: "2.1.0", cwd: "/p" });
    expect(session.warnings).toEqual([]);
  });

  it("reports malformed, non-object, untyped and duplicate lines with their line numbers and keeps the rest", () => {
    const text = toText([user("u1", null, "hi"), "{not json", "[1,2]", { uuid: "x" }, user("u1", null, "again"), user("u2", "u1", "next")]);
    const session = readSessionText(text, "s.jsonl", "claude-code");
    expect(session.entries.map((entry) => entry.id)).toEqual(["u1", "u2"]);
    expect(session.warnings.map((warning) => warning.line)).toEqual([2, 3, 4, 5]);
    expect(session.warnings[0]!.reason).toMatch(/not valid JSON/);
    expect(session.warnings[3]!.reason).toMatch(/duplicate uuid u1/);
  });

  it("skips a uuid already given, whether a conversation entry's or a bookkeeping record's id", () => {
    const session = readClaude([QUEUE, user("u1", null, "hi"), user("queue-operation@1", "u1", "same id as the record"), user("u1", null, "other"), user("u2", "u1", "next")]);
    expect(session.entries.map((entry) => entry.id)).toEqual(["queue-operation@1", "u1", "u2"]);
    expect(session.warnings.map((warning) => [warning.line, warning.reason])).toEqual([
      [3, "duplicate uuid queue-operation@1 with other content: later copy skipped"],
      [4, "duplicate uuid u1 with other content: later copy skipped"],
    ]);
  });

  it("reports a truncated last line as such", () => {
    const full = JSON.stringify(assistant("a1", "u1", "m", [{ type: "text", text: "cut here" }]));
    const session = readSessionText(toText([user("u1", null, "hi")]) + "\n" + full.slice(0, 40), "s.jsonl", "claude-code");
    expect(session.entries).toHaveLength(1);
    expect(session.warnings).toEqual([{ line: 2, reason: expect.stringMatching(/^truncated last line skipped/) }]);
  });

  it("forced on foreign input, keeps reading and says no conversation entries were found", () => {
    const reader = claudeReader.createLineReader("x.jsonl");
    reader.pushLine(JSON.stringify({ type: "session", version: 3, id: "p", cwd: "/" }), 1);
    const session = reader.finish();
    expect(session.warnings.at(-1)?.reason).toMatch(/no conversation entries found/);
  });

  it("keeps a user entry without uuid outside the tree with a warning", () => {
    const { uuid: _dropped, ...noUuid } = user("u9", null, "x");
    const session = readClaude([noUuid]);
    expect(session.entries[0]!.id).toBe("user@1");
    expect(session.warnings[0]!.reason).toMatch(/without a uuid/);
  });
});
