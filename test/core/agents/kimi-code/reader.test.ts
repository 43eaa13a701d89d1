// The Kimi Code reader and fold on a small hand-made wire file (test/fixtures/kimi-code/hand-made.jsonl,
// written by hand from the record shapes of Kimi Code's source, not recorded): detection by the
// metadata line or by records of its vocabulary, a bad line and an unknown record type named by
// their line, the loop-event fold (a message appended while a tool call waits goes after its
// result, an error with empty output rendered with Kimi Code's note, think parts as
// reasoning_content), max_tokens lowered by the measured context, a legacy compaction record
// (no kept-user count: the summary then the tail), and a request whose tool list or system prompt
// is not in the file.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readSessionText } from "../../../../src/core/session/index";
import { detectFormat } from "../../../../src/core/session/read";
import { analyzeSession, buildTurnRequest, countTurns } from "../../../../src/core/session/pipeline";
import { sessionIdOfPath } from "../../../../src/core/agents/kimi-code/reader";
import { sessionLines } from "../../../../src/core/share/session-lines";

const FIXTURE = path.join(__dirname, "../../../fixtures/kimi-code/hand-made.jsonl");
const read = () => readSessionText(readFileSync(FIXTURE, "utf8"), "wire.jsonl")!;
const body = (turn: number) => buildTurnRequest(read(), {}, turn).body as { messages: Record<string, unknown>[]; max_tokens: number; tools: unknown; model: string };

describe("Kimi Code wire files", () => {
  it("is detected by its metadata line, or by two records of its vocabulary without it", () => {
    const lines = readFileSync(FIXTURE, "utf8").split("\n");
    expect(detectFormat(lines, "wire.jsonl")?.id).toBe("kimi-code");
    expect(detectFormat(lines.slice(1), "wire.jsonl")?.id).toBe("kimi-code");
    expect(detectFormat([lines[1]!], "wire.jsonl")?.id).not.toBe("kimi-code");
  });

  it("names the bad line and the unknown record type by their line, and keeps reading", () => {
    const session = read();
    expect(session.formatId).toBe("kimi-code");
    expect(session.warnings.map((warning) => [warning.line, warning.reason.slice(0, 30)])).toEqual([
      [7, "not valid JSON, line skipped ("],
      [15, 'record type "future.record" is'],
    ]);
    expect(countTurns(session, {})).toBe(3);
  });

  it("folds loop events: the reminder waits behind the tool result, the error is rendered, thinking goes as reasoning_content", () => {
    const { messages, max_tokens } = body(2);
    expect(messages).toEqual([
      { role: "system", content: "You are Kimi." },
      { role: "user", content: "list files" },
      { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "Bash", arguments: '{"command":"ls"}' } }], reasoning_content: "look first" },
      { role: "tool", tool_call_id: "call_1", content: "<system>ERROR: Tool execution failed. Tool output is empty.</system>" },
      { role: "user", content: "<system-reminder>\nwaits behind the tool result\n</system-reminder>" },
    ]);
    // The cap of 1,000 lowered by the 160 tokens measured after the first step.
    expect(max_tokens).toBe(840);
    expect(body(1).max_tokens).toBe(1000);
  });

  it("a compaction record without a kept-user count puts the summary before the tail; a tool list not in the file is not recorded", () => {
    const session = read();
    const analysis = analyzeSession(session, {});
    expect(analysis.timeline.map((item) => item.kind)).toEqual(["turn", "turn", "compaction", "turn"]);
    const third = buildTurnRequest(session, {}, 3);
    expect(third.body.messages).toEqual([{ role: "system", content: "You are Kimi." }, { role: "user", content: "S" }, { role: "user", content: "next" }]);
    expect(third.notRecorded).toEqual(["tools", "prompt_cache_key"]);
    expect(analysis.turns[2]!.modelSwitched).toBe(true);
    expect(analysis.turns[0]!.usage).toEqual({ input: 100, output: 10, cacheRead: 50, cacheWrite: 0, totalTokens: 160 });
    expect(analysis.warnings.map((warning) => warning.line)).toEqual([22]);
  });

  it("a system prompt not in the file is named in words among the fields not recorded", () => {
    // The hand-made file without its profile.bind record, the only one that holds the system prompt.
    const lines = readFileSync(FIXTURE, "utf8").split("\n").filter((line) => !line.includes('"type":"profile.bind"'));
    const built = buildTurnRequest(readSessionText(lines.join("\n"), "wire.jsonl"), {}, 1);
    expect((built.body.messages as unknown[])[0]).toEqual({ $notRecorded: "system prompt" });
    expect(built.notRecorded).toEqual(["system prompt", "prompt_cache_key"]);
  });

  it("written back as lines (a share link), the file reads the same", () => {
    const session = read();
    const again = readSessionText(sessionLines(session).join("\n"), "wire.jsonl")!;
    expect(again.header).toEqual(session.header);
    expect(buildTurnRequest(again, {}, 2).body).toEqual(body(2));
  });

  it("takes the session id from a wire file's path", () => {
    expect(sessionIdOfPath("/h/.kimi-code/sessions/wd_x_1/session_ab-12/agents/main/wire.jsonl")).toBe("session_ab-12");
    expect(sessionIdOfPath("wire.jsonl")).toBeNull();
  });
});
