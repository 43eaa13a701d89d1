// The Gemini CLI reader and fold on hand-written chat files: every structure the CLI writes (the
// metadata line written again on resume, message records replaced by id, $set updates, $set.messages
// replacing the list, $rewindTo, info records, the older single JSON object) and bad lines with
// their line numbers.
import { describe, expect, it } from "vitest";
import { readSessionText } from "../../../../src/core/session/index";
import { buildTurnRequest, countTurns } from "../../../../src/core/session/pipeline";

const META = { sessionId: "s-1", projectHash: "abc", startTime: "2026-01-01T00:00:00.000Z", lastUpdated: "2026-01-01T00:00:00.000Z", kind: "main" };
const jsonl = (...lines: unknown[]) => lines.map((line) => (typeof line === "string" ? line : JSON.stringify(line))).join("\n");
const user = (id: string, text: string) => ({ id, timestamp: "t", type: "user", content: [{ text }] });
const gemini = (id: string, content: string, extra: Record<string, unknown> = {}) => ({ id, timestamp: "t", type: "gemini", content, model: "gemini-2.5-flash", tokens: { input: 10, output: 2, cached: 4, thoughts: 1, tool: 0, total: 13 }, ...extra });
const call = { id: "ls__ls_1_0", name: "ls", args: { path: "." }, result: [{ functionResponse: { id: "ls__ls_1_0", name: "ls", response: { output: "a b" } } }] };
const read = (text: string, name = "session-2026-01-01T00-00-s1.jsonl") => readSessionText(text, name)!;
const contents = (text: string, turn: number) => buildTurnRequest(read(text), {}, turn).body.contents;

describe("Gemini CLI chat files", () => {
  it("detects the JSONL form and reads every line as an entry, with the usage in the common shape", () => {
    const session = read(jsonl(META, { $set: { lastUpdated: "x" } }, user("u1", "hi"), gemini("g1", "hello")));
    expect(session.formatId).toBe("gemini-cli");
    expect(session.entries.map((e) => e.type)).toEqual(["metadata", "set", "message", "message"]);
    expect(session.header).toMatchObject({ sessionId: "s-1" });
    expect(countTurns(session, {})).toBe(1);
    expect(buildTurnRequest(session, {}, 1).model.id).toBe("gemini-2.5-flash");
  });

  it("names each bad line by its number and keeps every good one", () => {
    const session = read(jsonl(META, "{not json", { something: 1 }, user("u1", "hi"), gemini("g1", "ok"), '{"id":"g2"'));
    expect(session.warnings.map((w) => w.line)).toEqual([2, 3, 6]);
    expect(session.warnings[2]!.reason).toMatch(/truncated last line/);
    expect(countTurns(session, {})).toBe(1);
  });

  it("replaces a message written again in place (an answer getting its tool calls), not as a new request", () => {
    const text = jsonl(META, user("u1", "list"), gemini("g1", ""), gemini("g1", "", { toolCalls: [call] }), { id: "r1", timestamp: "t", type: "user", content: call.result }, gemini("g2", "done"));
    expect(countTurns(read(text), {})).toBe(2);
    expect(contents(text, 2)).toEqual([
      { parts: [{ text: "list" }], role: "user" },
      { parts: [{ functionCall: { id: "ls_1_0", args: { path: "." }, name: "ls" }, thoughtSignature: "skip_thought_signature_validator" }], role: "model" },
      { parts: [{ functionResponse: { name: "ls", response: { output: "a b" }, id: "ls_1_0" } }], role: "user" },
    ]);
  });

  it("merges consecutive user messages into one content and never sends info records", () => {
    const text = jsonl(META, { $set: { messages: [user("ctx", "<session_context>x</session_context>")] } }, user("u1", "hi"), { id: "i1", timestamp: "t", type: "info", content: "note" }, user("u2", "again"), gemini("g1", "ok"));
    expect(contents(text, 1)).toEqual([{ parts: [{ text: "<session_context>x</session_context>" }, { text: "hi" }, { text: "again" }], role: "user" }]);
  });

  it("takes $set.messages as the whole list and $rewindTo as a cut", () => {
    const text = jsonl(META, user("u1", "one"), gemini("g1", "A"), user("u2", "two"), { $rewindTo: "u2" }, user("u3", "three"), gemini("g2", "B"), { $set: { messages: [user("u9", "fresh")] } }, user("u4", "four"), gemini("g3", "C"));
    expect(contents(text, 2)).toEqual([
      { parts: [{ text: "one" }], role: "user" },
      { parts: [{ text: "A" }], role: "model" },
      { parts: [{ text: "three" }], role: "user" },
    ]);
    expect(contents(text, 3)).toEqual([{ parts: [{ text: "fresh" }, { text: "four" }], role: "user" }]);
  });

  it("drops thought parts of a model content and signs its first call", () => {
    const answer = { ...gemini("g1", ""), content: [{ text: "thinking", thought: true }, { functionCall: { name: "ls", args: {}, id: "ls__ls_2_0" } }] };
    const text = jsonl(META, user("u1", "go"), answer, { id: "r1", timestamp: "t", type: "user", content: [{ functionResponse: { id: "ls__ls_2_0", name: "ls", response: { output: "" } } }] }, user("u2", "next"), gemini("g2", "ok"));
    expect(contents(text, 2)).toEqual([
      { parts: [{ text: "go" }], role: "user" },
      { parts: [{ functionCall: { id: "ls_2_0", args: {}, name: "ls" }, thoughtSignature: "skip_thought_signature_validator" }], role: "model" },
      { parts: [{ functionResponse: { name: "ls", response: { output: "" }, id: "ls_2_0" } }, { text: "next" }], role: "user" },
    ]);
  });

  it("reads the older single JSON object and rebuilds tool results from the answers' toolCalls", () => {
    const document = JSON.stringify({ ...META, messages: [user("u1", "list"), gemini("g1", "", { toolCalls: [call] }), gemini("g2", "done")] }, null, 2);
    const session = read(document, "session-2025-01-01T00-00-s1.json");
    expect(session.formatId).toBe("gemini-cli");
    expect(session.formatLabel).toMatch(/single JSON object/);
    expect(countTurns(session, {})).toBe(2);
    expect(buildTurnRequest(session, {}, 2).body.contents).toEqual([
      { parts: [{ text: "list" }], role: "user" },
      { parts: [{ functionCall: { id: "ls_1_0", args: { path: "." }, name: "ls" }, thoughtSignature: "skip_thought_signature_validator" }], role: "model" },
      { parts: [{ functionResponse: { name: "ls", response: { output: "a b" }, id: "ls_1_0" } }], role: "user" },
    ]);
  });

  it("names a broken older document instead of throwing", () => {
    const session = read('{\n  "sessionId": "s",\n  "projectHash": "p",\n  "messages": [', "session-x.json");
    expect(session.formatId).toBe("gemini-cli");
    expect(session.warnings[0]!.reason).toMatch(/not valid JSON/);
    expect(countTurns(session, {})).toBe(0);
  });
});
