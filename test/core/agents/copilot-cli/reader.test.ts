// The GitHub Copilot CLI reader and fold on hand-written event logs (test/fixtures/copilot-cli/,
// written from the session-events schema of @github/copilot 1.0.102): detection by shape and by no
// other agent, the bad line and the unknown event named by their line numbers, one turn per model
// call of the main thread (a sub-agent's call is not one) with the usage its session.usage_record
// holds (input counted without its cache reads and writes), the compaction replacing the
// conversation, the approximated request said in words, the session totals of a log without usage
// per call, and a followed log growing.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FORMAT_READERS, getFormatReader, readSessionText } from "../../../../src/core/session/index";
import { analyzeSession, buildTurnRequest, countTurns } from "../../../../src/core/session/pipeline";
import { recordReport } from "../../../../src/core/session/recordReport";
import { sessionUsageTotals } from "../../../../src/core/session/storage";
import { fileLineage } from "../../../../src/core/session/threads";

const STATE = path.join(__dirname, "../../../fixtures/copilot-cli/session-state");
const NEW_LOG = path.join(STATE, "5e1f0c2a-7b3d-4c11-9a42-0d6f8e2b1c01/events.jsonl");
const OLD_LOG = path.join(STATE, "9c2d4e6f-1a3b-4d5e-8f70-112233445566/events.jsonl");
const read = (file: string) => readSessionText(readFileSync(file, "utf8"), "events.jsonl")!;
const body = (file: string, turn: number) => buildTurnRequest(read(file), {}, turn).body as { model: unknown; messages: Record<string, unknown>[]; tools: unknown };

describe("GitHub Copilot CLI event logs", () => {
  it("opens as Copilot CLI and no other agent, naming the bad line and the unknown event by their lines", () => {
    const lines = readFileSync(NEW_LOG, "utf8").split("\n");
    expect(FORMAT_READERS.filter((reader) => reader.detect(lines.slice(0, 20), "events.jsonl")).map((reader) => reader.id)).toEqual(["copilot-cli"]);
    const session = read(NEW_LOG);
    expect(session.formatId).toBe("copilot-cli");
    expect(session.header).toMatchObject({ sessionId: "5e1f0c2a-7b3d-4c11-9a42-0d6f8e2b1c01", cwd: "/home/dev/app", version: "1.0.102" });
    expect(session.warnings.map((w) => w.line)).toEqual([28, 29]);
    expect(session.warnings[0]!.reason).toContain('"session.future_event"');
    // The unknown event is kept as an entry (never sent), the cut line is not.
    expect(session.entries.map((e) => e.type)).toContain("session.future_event");
    expect(session.entries).toHaveLength(32);
    // The library names the session by the id its session.start gives.
    expect(fileLineage(session)).toEqual({ id: "5e1f0c2a-7b3d-4c11-9a42-0d6f8e2b1c01", parentId: null });
  });

  it("finds one turn per main model call with its usage, and the compaction before the fourth", () => {
    const session = read(NEW_LOG);
    expect(countTurns(session, {})).toBe(4);
    const analysis = analyzeSession(session, {});
    expect(analysis.timeline.map((item) => item.kind)).toEqual(["turn", "turn", "turn", "compaction", "turn"]);
    // 12,000 input tokens with 11,000 written to the cache: 1,000 uncached.
    expect(analysis.turns[0]!.usage).toEqual({ input: 1000, output: 25, cacheRead: 0, cacheWrite: 11000, totalTokens: 12025 });
    expect(analysis.turns[1]!.usage).toEqual({ input: 1010, output: 14, cacheRead: 11000, cacheWrite: 90, totalTokens: 12114 });
    expect(analysis.turns.map((t) => t.model)).toEqual([
      { provider: "anthropic", modelId: "claude-sonnet-4-5" },
      { provider: "anthropic", modelId: "claude-sonnet-4-5" },
      { provider: "openai", modelId: "gpt-5.1" },
      { provider: "openai", modelId: "gpt-5.1" },
    ]);
    expect(analysis.turns[2]!.modelSwitched).toBe(true);
    expect(analysis.turns[3]!.afterCompaction).toBe(true);
    expect(analysis.timeline[3]).toMatchObject({ kind: "compaction", beforeTurn: 4, tokensBefore: 9000, usage: { input: 9000, output: 300 }, model: { provider: "openai", modelId: "gpt-5.1" } });
    expect(analysis.events?.map((e) => e.kind)).toEqual(["session.info", "session.model_change", "session.truncation", "session.warning", "abort", "session.shutdown", "session.resume", "session.error"]);
  });

  it("rebuilds each request from the recorded system prompt and conversation, approximated, with the tools not recorded", () => {
    const first = body(NEW_LOG, 1);
    expect(first.model).toBe("claude-sonnet-4.5");
    expect(first.messages).toEqual([
      { role: "system", content: "You are a terminal assistant. Keep answers short." },
      { role: "user", content: "<current_datetime>2026-11-02T10:02:00Z</current_datetime>\n\nList the files" },
    ]);
    expect(first.tools).toEqual({ $notRecorded: "Copilot CLI's tool definitions" });
    expect(body(NEW_LOG, 2).messages.slice(2)).toEqual([
      { role: "assistant", content: "I'll list them.", refusal: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "bash", arguments: '{"command":"ls"}' } }] },
      { role: "tool", tool_call_id: "call_1", content: "README.md\nsrc\n" },
    ]);
    // After the compaction: its summary, then the two newest messages it kept (7 before, 5 removed).
    const fourth = body(NEW_LOG, 4).messages;
    expect(fourth.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool"]);
    expect(String(fourth[1]!.content)).toMatch(/^<summary>The user listed the files/);
    // The sub-agent's answer is not in the main conversation.
    expect(JSON.stringify(fourth)).not.toContain("s-1");
    const notRecorded = buildTurnRequest(read(NEW_LOG), {}, 1).notRecorded;
    expect(notRecorded[0]).toMatch(/^approximated: GitHub Copilot CLI's request builder is not public/);
    expect(notRecorded).toEqual([notRecorded[0], "tools", "request parameters (max_tokens, temperature, …)"]);
    // A log without a system.message marks the system prompt not recorded.
    expect(body(OLD_LOG, 1).messages[0]).toEqual({ role: "system", content: { $notRecorded: "Copilot CLI's system prompt" } });
    expect(buildTurnRequest(read(OLD_LOG), {}, 1).notRecorded).toContain("system prompt");
  });

  it("reports the event types read and skipped, and the CLI version", () => {
    const report = recordReport(read(NEW_LOG))!;
    expect(report.agent).toBe("GitHub Copilot CLI");
    expect(report.unknown.map((r) => r.type)).toEqual(["session.future_event"]);
    expect(report.skipped.map((r) => r.type).sort()).toEqual(["assistant.turn_end", "assistant.turn_start", "hook.start", "subagent.started"]);
    expect(report.versions).toEqual(["1.0.102"]);
  });

  it("prices a log without usage per call from its shutdown totals, per model", () => {
    const session = read(OLD_LOG);
    const analysis = analyzeSession(session, {});
    expect(analysis.turns.map((t) => t.usage)).toEqual([null, null]);
    expect(analysis.turns[0]!.model).toEqual({ provider: "anthropic", modelId: "claude-opus-4-6" });
    expect(body(OLD_LOG, 2).messages[3]).toEqual({ role: "tool", tool_call_id: "toolu_1", content: "1 test failed" });
    expect(sessionUsageTotals(session)).toEqual([
      {
        sessionId: "9c2d4e6f-1a3b-4d5e-8f70-112233445566",
        source: "session.shutdown",
        // 30,000 input tokens of which 20,000 cache reads.
        usage: { input: 10000, output: 500, cacheRead: 20000, cacheWrite: 0, totalTokens: 30500 },
        model: { provider: "anthropic", modelId: "claude-opus-4-6" },
        at: "2026-11-02T10:00:00.000Z",
      },
    ]);
    // The newer log's two shutdown models are totalled each on its own.
    expect(sessionUsageTotals(read(NEW_LOG)).map((t) => [t.model?.modelId, t.usage.input, t.usage.cacheRead])).toEqual([
      ["claude-sonnet-4-5", 2010, 11000],
      ["gpt-5.1", 17476, 1024],
    ]);
  });

  it("follows a growing log: a snapshot holds the calls so far", () => {
    const lines = readFileSync(NEW_LOG, "utf8").split("\n");
    const reader = getFormatReader("copilot-cli")!.createLineReader("events.jsonl");
    lines.slice(0, 10).forEach((line, i) => reader.pushLine(line, i + 1));
    expect(countTurns(reader.snapshot!(), {})).toBe(2);
    lines.slice(10).forEach((line, i) => reader.pushLine(line, i + 11));
    expect(countTurns(reader.finish(), {})).toBe(4);
  });
});
