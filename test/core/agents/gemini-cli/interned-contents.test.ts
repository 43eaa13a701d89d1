// A Gemini CLI chat's turns share their contents: turn N+1's request is made of turn N's content
// objects (so per-object caches downstream hit), and the request is the one built on its own. The
// older `.json` form places each message on the line of its id's first occurrence.
import { describe, expect, it } from "vitest";
import { readSessionText } from "../../../../src/core/session/index";
import { buildTurnRequest, countTurns } from "../../../../src/core/session/pipeline";

const meta = { sessionId: "s1", projectHash: "p".repeat(64), startTime: "2026-12-03T09:00:00.000Z", lastUpdated: "2026-12-03T09:00:00.000Z" };
const messages = [
  { id: "m1", timestamp: "2026-12-03T09:00:01.000Z", type: "user", content: [{ text: "hello" }] },
  { id: "m2", timestamp: "2026-12-03T09:00:02.000Z", type: "gemini", content: "hi", tokens: { input: 10, output: 1, cached: 0, thoughts: 0, tool: 0, total: 11 }, model: "gemini-2.5-flash" },
  { id: "m3", timestamp: "2026-12-03T09:00:03.000Z", type: "user", content: [{ text: "again" }] },
  { id: "m4", timestamp: "2026-12-03T09:00:04.000Z", type: "gemini", content: "ok", tokens: { input: 20, output: 1, cached: 0, thoughts: 0, tool: 0, total: 21 }, model: "gemini-2.5-flash" },
  { id: "m5", timestamp: "2026-12-03T09:00:05.000Z", type: "user", content: [{ text: "last" }] },
  { id: "m6", timestamp: "2026-12-03T09:00:06.000Z", type: "gemini", content: "bye", tokens: { input: 30, output: 1, cached: 0, thoughts: 0, tool: 0, total: 31 }, model: "gemini-2.5-flash" },
];
const jsonl = [JSON.stringify({ ...meta, kind: "main" }), ...messages.map((m) => JSON.stringify(m))].join("\n");

describe("Gemini CLI contents shared between turns", () => {
  it("makes turn N+1's contents of turn N's objects, equal to a request built alone", () => {
    const session = readSessionText(jsonl, "session-2026-12-03T09-00-s1.jsonl")!;
    expect(countTurns(session, {})).toBe(3);
    const contents = [1, 2, 3].map((turn) => buildTurnRequest(session, {}, turn).body.contents as object[]);
    expect(contents.map((c) => c.length)).toEqual([1, 3, 5]);
    expect(contents[1]![0]).toBe(contents[0]![0]);
    contents[1]!.forEach((content, i) => expect(contents[2]![i]).toBe(content));
    const alone = readSessionText(jsonl, "session-2026-12-03T09-00-s1.jsonl")!;
    expect(JSON.stringify(buildTurnRequest(alone, {}, 3).body)).toBe(JSON.stringify(buildTurnRequest(session, {}, 3).body));
  });

  it("places each message of the .json form on its id's first line", () => {
    const doc = JSON.stringify({ ...meta, messages: [...messages, { ...messages[0], id: "m2" }] }, null, 2);
    const session = readSessionText(doc, "session-2026-12-03T09-00-s1.json")!;
    const lines = doc.split("\n");
    const lineOf = (id: string) => lines.findIndex((line) => line.includes(`"id": "${id}"`)) + 1;
    const messageEntries = session.entries.filter((entry) => entry.type === "message");
    expect(messageEntries.map((entry) => entry.line)).toEqual([...messages.map((m) => lineOf(m.id)), lineOf("m2")]);
  });
});
