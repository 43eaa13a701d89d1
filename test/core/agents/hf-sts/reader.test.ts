// The session-trace (STS) reader: the format page's own example reads as the conversation it
// shows (its tool call answered by its result, two model calls); usage a writer added is read in
// the shapes writers use; bad lines are warnings with their line numbers; detection takes STS files
// (whatever the header's key order) and no other agent's file, and no other reader takes an STS file.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildTurnRequest, analyzeSession } from "../../../../src/core/session/pipeline";
import { FORMAT_READERS, readSessionText } from "../../../../src/core/session/index";
import { stsReader } from "../../../../src/core/agents/hf-sts/reader";
import { sharedFixtures } from "../../../support/fixtures";

const FIXTURES = path.resolve(__dirname, "../../../fixtures");
const EXAMPLE = readFileSync(path.join(FIXTURES, "hf-sts/hub-docs-example/what-time-is-it.jsonl"), "utf8");
const read = (text: string) => readSessionText(text, "trace.jsonl");

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

const firstLines = (file: string) => readFileSync(file, "utf8").split("\n").slice(0, 20).map((line) => line.replace(/\r$/, ""));

describe("STS reader", () => {
  it("reads the format page's example as two calls, the tool call answered by its result", () => {
    const session = read(EXAMPLE);
    expect(session.formatId).toBe("hf-sts");
    expect(session.warnings).toEqual([]);
    expect(session.header).toMatchObject({ harness: "my-agent", id: "abc123", name: "what time is it" });
    const options = {};
    const analysis = analyzeSession(session, options);
    expect(analysis.turns.map((turn) => turn.messageCount)).toEqual([1, 3]);
    const second = buildTurnRequest(session, options, 2);
    expect(second.messages.map((m) => m.message.role)).toEqual(["user", "assistant", "toolResult"]);
    const call = second.messages[1]!.message;
    expect(call.role === "assistant" && call.content[0]).toEqual({ type: "toolCall", id: "t1", name: "get_time", arguments: {} });
    const result = second.messages[2]!.message;
    expect(result.role === "toolResult" && [result.toolCallId, result.toolName]).toEqual(["t1", "get_time"]);
    expect((second.body.messages as unknown[]).slice(1)).toEqual([
      { role: "user", content: "what time is it?" },
      { role: "assistant", content: null, tool_calls: [{ id: "t1", type: "function", function: { name: "get_time", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "t1", content: "2026-07-01T15:00:00Z" },
    ]);
    // Approximated, in words, first; the system prompt and tools marked not recorded.
    expect(second.notRecorded[0]).toMatch(/^approximated: a session trace records the conversation, not the requests/);
    expect(second.notRecorded).toContain("system prompt");
  });

  it("ends with a call whose answer the file does not hold when it ends on the user's turn", () => {
    const session = read(`${EXAMPLE}{"type":"message","message":{"role":"user","content":"and in Paris?"}}\n`);
    const turns = analyzeSession(session, {}).turns;
    expect(turns).toHaveLength(3);
    expect(buildTurnRequest(session, {}, 3).notRecorded).toContain("the answer: the trace ends before it");
  });

  it("takes assistant messages in a row as one call's answer, with the usage and model one of them records", () => {
    const lines = [
      { harness: "x", type: "session", id: "s" },
      { type: "message", message: { role: "user", content: "go" } },
      { type: "message", message: { role: "assistant", content: "", toolCalls: [{ id: "a", function: { name: "ls", arguments: "{}" } }], model: "openai/gpt-4.1", usage: { prompt_tokens: 100, completion_tokens: 7, prompt_tokens_details: { cached_tokens: 60 } } } },
      { type: "message", message: { role: "assistant", content: "", toolCalls: [{ id: "b", function: { name: "pwd", arguments: "{}" } }] } },
      { type: "message", message: { role: "tool", toolCallId: "a", content: "x" } },
      { type: "message", message: { role: "tool", toolCallId: "b", content: "/" } },
      { type: "message", message: { role: "assistant", content: "done", usage: { input_tokens: 5, output_tokens: 2, cache_read_input_tokens: 200, cache_creation_input_tokens: 10 } } },
    ];
    const session = read(lines.map((line) => JSON.stringify(line)).join("\n"));
    // The header's keys in another order (llama.cpp's web UI writes `harness` first) still make an STS file.
    expect(session.formatId).toBe("hf-sts");
    const turns = analyzeSession(session, {}).turns;
    expect(turns).toHaveLength(2);
    expect(turns[0]!.model).toEqual({ provider: "openai", modelId: "gpt-4.1" });
    expect(turns[0]!.usage).toEqual({ input: 40, output: 7, cacheRead: 60, cacheWrite: 0, totalTokens: 107 });
    expect(turns[1]!.usage).toEqual({ input: 5, output: 2, cacheRead: 200, cacheWrite: 10, totalTokens: 217 });
    expect(turns[1]!.messageCount).toBe(5);
  });

  it("reads system messages as instructions, and bad lines as warnings with their line numbers", () => {
    const text = [
      '{"type":"session","harness":"my-agent","id":"abc"}',
      '{"type":"message","message":{"role":"system","content":"Be brief."}}',
      "{not json",
      '{"type":"message","message":{"role":"narrator","content":"…"}}',
      '{"type":"event","name":"x"}',
      '{"type":"message","message":{"role":"user","content":[{"type":"text","text":"hi "},{"type":"text","text":"there"}]}}',
      '{"type":"message","message":{"role":"assistant","content":"hello"}}',
    ].join("\n");
    const session = read(text);
    expect(session.formatId).toBe("hf-sts");
    expect(session.warnings.map((w) => w.line)).toEqual([3, 4, 5]);
    const request = buildTurnRequest(session, {}, 1);
    expect((request.body.messages as unknown[]).slice(0, 2)).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "hi there" },
    ]);
    expect(request.notRecorded).not.toContain("system prompt");
  });

  it("is no other agent's file, and no other reader takes a session trace", () => {
    const files = filesUnder(FIXTURES).filter((file) => /\.jsonl?$/.test(file) && !file.includes(`${path.sep}hf-sts${path.sep}`) && !file.includes(`${path.sep}requests${path.sep}`));
    const shared = sharedFixtures();
    if (shared) files.push(...filesUnder(shared.dir).filter((file) => /\.jsonl?$/.test(file) && !file.includes(`${path.sep}requests${path.sep}`) && !file.includes(`${path.sep}responses${path.sep}`)));
    expect(files.length).toBeGreaterThan(20);
    for (const file of files) expect(stsReader.detect(firstLines(file), path.basename(file)), file).toBe(false);
    // Every other reader refuses the format page's example (the detection order is not what keeps them apart).
    const lines = EXAMPLE.split("\n");
    const others = FORMAT_READERS.filter((reader) => reader.id !== stsReader.id && reader.detect(lines, "trace.jsonl"));
    expect(others.map((reader) => reader.id)).toEqual(["pi"]);
  });

  it("is not pi's session with a harness named in its header, as the Hub's page allows", () => {
    const pi = '{"type":"session","version":3,"id":"p1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w","harness":"my-agent"}\n{"type":"message","id":"a1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":[{"type":"text","text":"hi"}]}}';
    expect(read(pi).formatId).toBe("pi");
  });
});
