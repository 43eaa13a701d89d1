// The Qwen Code reader and fold on a hand-written chat file (test/fixtures/qwen-code/): detection
// before Claude Code, a bad line named by its number, one call per assistant record with usage,
// the chat compression replacing the history (the prompt written before it sent by the compressing
// process only), the record report, and the Chat Completions shape of the requests.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readSessionText } from "../../../../src/core/session/index";
import { analyzeSession, buildTurnRequest, countTurns } from "../../../../src/core/session/pipeline";
import { recordReport } from "../../../../src/core/session/recordReport";
import { detectClaude } from "../../../../src/core/agents/claude-code/reader";

const FIXTURE = path.join(__dirname, "../../../fixtures/qwen-code/compressed-bad-line.jsonl");
const read = () => readSessionText(readFileSync(FIXTURE, "utf8"), "chat.jsonl")!;
const messages = (turn: number) => buildTurnRequest(read(), {}, turn).body.messages as Record<string, unknown>[];
// The system message is not stored: without a capture it is a marker, named "system" here.
const roles = (list: Record<string, unknown>[]) => list.map((m) => m.role ?? (m.$notRecorded === "system prompt" ? "system" : "?"));
const texts = (message: Record<string, unknown>) => (message.content as Record<string, unknown>[]).map((part) => part.text ?? `[${String(part.$notRecorded)}]`);

describe("Qwen Code chat files", () => {
  it("opens as Qwen Code, never as Claude Code, and names the bad line by its number", () => {
    const session = read();
    expect(session.formatId).toBe("qwen-code");
    expect(session.header).toMatchObject({ sessionId: "s-1", version: "0.24.4" });
    expect(session.warnings.map((w) => w.line)).toEqual([5]);
    expect(session.entries).toHaveLength(10);
    // Claude Code's own detection does not claim the lines either (their uuid chain is the same).
    expect(detectClaude(readFileSync(FIXTURE, "utf8").split("\n"))).toBe(false);
    expect(detectClaude([JSON.stringify({ uuid: "a", parentUuid: null, sessionId: "s", type: "user", message: { role: "user", content: "hi" } })])).toBe(true);
  });

  it("finds one call per assistant record with usage, and the compression before the third", () => {
    const session = read();
    expect(countTurns(session, {})).toBe(4);
    const analysis = analyzeSession(session, {});
    expect(analysis.timeline.map((item) => item.kind)).toEqual(["turn", "turn", "compaction", "turn", "turn"]);
    expect(analysis.timeline[2]).toMatchObject({ kind: "compaction", entryId: "u8", beforeTurn: 3, tokensBefore: 170000, summaryChars: 34 });
    expect(analysis.turns[0]!.usage).toEqual({ input: 60, output: 5, cacheRead: 40, cacheWrite: 0, totalTokens: 105 });
    expect(analysis.turns[2]!.afterCompaction).toBe(true);
  });

  it("sends Gemini contents as Chat Completions messages: tool calls, tool messages, texts", () => {
    const turn2 = messages(2);
    expect(roles(turn2)).toEqual(["system", "user", "assistant", "tool"]);
    expect(turn2[2]).toEqual({ role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "run_shell_command", arguments: '{"command":"ls"}' } }] });
    expect(turn2[3]).toEqual({ role: "tool", tool_call_id: "c1", content: [{ type: "text", text: "a.md" }] });
    // Without a capture, the parts added on send are marked where they go.
    expect(texts(turn2[1]!)).toEqual(["[startup reminders (skills, startup context, deferred tools)]", "[date reminder]", "list files"]);
    expect(buildTurnRequest(read(), {}, 2).notRecorded).toEqual(["system prompt", "tools", "max_tokens"]);
  });

  it("replaces the history at the compression; the prompt before it is sent by that process only", () => {
    // Right after the automatic compression: no startup reminders, the dropped prompt merged in last.
    const turn3 = messages(3);
    expect(roles(turn3)).toEqual(["system", "user", "assistant", "user"]);
    expect(texts(turn3[1]!)).toEqual(["<state_snapshot>S</state_snapshot>"]);
    expect(texts(turn3[3]!)).toEqual(["[date reminder]", "summarise it"]);
    // The next prompt's process rebuilt the history from the file: the prompt is gone.
    const turn4 = messages(4);
    expect(roles(turn4)).toEqual(["system", "user", "assistant", "assistant", "user"]);
    expect(texts(turn4[1]!)[1]).toBe("<state_snapshot>S</state_snapshot>");
    expect(turn4[3]).toEqual({ role: "assistant", content: "Summary." });
    expect(texts(turn4[4]!)).toEqual(["[date reminder]", "thanks"]);
  });

  it("reports the record types read and skipped", () => {
    const report = recordReport(read())!;
    expect(report.agent).toBe("Qwen Code");
    expect(report.read.map((r) => r.type)).toEqual(["user", "assistant", "tool_result", "system/chat_compression"]);
    expect(report.skipped.map((r) => r.type)).toEqual(["system/ui_telemetry"]);
    expect(report.unknown).toEqual([]);
    expect(report.versions).toEqual(["0.24.4"]);
  });
});

describe("Qwen Code's fallback compression (no <state_snapshot> in the summary)", () => {
  const FALLBACK = path.join(__dirname, "../../../fixtures/qwen-code/compressed-fallback.jsonl");
  const fallback = () => readSessionText(readFileSync(FALLBACK, "utf8"), "chat.jsonl")!;
  it("sends the prompt once, as the compressed history recorded it, in this process and the next", () => {
    const after = buildTurnRequest(fallback(), {}, 3).body.messages as Record<string, unknown>[];
    expect(roles(after)).toEqual(["system", "user", "assistant", "user"]);
    expect(texts(after[3]!)).toEqual(["<system-reminder>\nThe current date is: Thursday, January 1, 2026.\n</system-reminder>", "summarise it"]);
    const next = buildTurnRequest(fallback(), {}, 4).body.messages as Record<string, unknown>[];
    expect(roles(next)).toEqual(["system", "user", "assistant", "user", "assistant", "user"]);
    expect(texts(next[3]!)).toEqual(["<system-reminder>\nThe current date is: Thursday, January 1, 2026.\n</system-reminder>", "summarise it"]);
  });
});
