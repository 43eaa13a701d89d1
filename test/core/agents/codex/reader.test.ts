import { describe, expect, it } from "vitest";
import { codexReader, detectCodex } from "../../../../src/core/agents/codex/reader";
import { detectFormat, readSessionText } from "../../../../src/core/session/index";

const META = { timestamp: "2026-01-01T00:00:00.000Z", ordinal: 0, type: "session_meta", payload: { id: "thread-1", cli_version: "0.171.0", cwd: "/p" } };
const line = (value: unknown) => JSON.stringify(value);

describe("Codex detection", () => {
  it("recognises a rollout by its session_meta first line", () => {
    expect(detectCodex([line(META)])).toBe(true);
    expect(detectCodex(["", "garbage", line(META)])).toBe(true);
    expect(detectFormat([line(META)], "rollout.jsonl")?.id).toBe("codex");
  });

  it("rejects Claude Code transcripts, pi sessions and a session_meta without payload", () => {
    expect(detectCodex([line({ type: "queue-operation", sessionId: "s" })])).toBe(false);
    expect(detectCodex([line({ type: "session", version: 3, id: "x", cwd: "/" })])).toBe(false);
    expect(detectCodex([line({ type: "session_meta" })])).toBe(false);
  });

  it("an unknown file gets a message naming the Codex rollout among the expected formats", () => {
    expect(() => readSessionText('{"a":1}', "x.jsonl")).toThrow(/not a Codex session: expected a Codex CLI rollout/);
  });
});

describe("Codex reader", () => {
  it("keeps every rollout line as a linear chain with line-based ids and the meta as header", () => {
    const session = readSessionText(
      [line(META), line({ timestamp: "t", type: "turn_context", payload: { model: "m" } }), line({ timestamp: "t", type: "event_msg", payload: { type: "task_started" } })].join("\n"),
      "rollout.jsonl",
    );
    expect(session.formatId).toBe("codex");
    expect(session.entries.map((entry) => [entry.id, entry.parentId, entry.type])).toEqual([
      ["L1", null, "session_meta"],
      ["L2", "L1", "turn_context"],
      ["L3", "L2", "event_msg"],
    ]);
    expect(session.header).toMatchObject({ agent: "codex", id: "thread-1", cli_version: "0.171.0" });
    expect(session.warnings).toEqual([]);
  });

  it("reports malformed lines, lines without payload and a truncated last line, and keeps the rest", () => {
    const text = [line(META), "{oops", line({ type: "response_item" }), line({ timestamp: "t", type: "turn_context", payload: {} }), '{"timestamp":"t","type":"resp'].join("\n");
    const session = readSessionText(text, "rollout.jsonl", "codex");
    expect(session.entries.map((entry) => entry.line)).toEqual([1, 4]);
    expect(session.warnings.map((warning) => warning.line)).toEqual([2, 3, 5]);
    expect(session.warnings[2]!.reason).toMatch(/^truncated last line skipped/);
  });

  it("forced on foreign input, warns that session_meta is missing", () => {
    const reader = codexReader.createLineReader("x.jsonl");
    reader.pushLine(line({ timestamp: "t", type: "response_item", payload: { type: "message", role: "user", content: [] } }), 1);
    reader.pushLine(line({ type: "user", sessionId: "s" }), 2);
    const session = reader.finish();
    expect(session.header).toBeNull();
    expect(session.warnings.map((warning) => warning.reason)).toEqual([
      expect.stringMatching(/does not start with session_meta/),
      expect.stringMatching(/not a rollout line/),
    ]);
  });
});
