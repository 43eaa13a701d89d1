// A Gemini CLI chat that is not one as the CLI writes it is named, never read as an empty success:
// the older single-object chat wrapped in a JSON array (its messages read, with a warning), and a
// key written twice in one object (JSON keeps the last value: a second, empty "messages" list
// would hide every message). Reproducers: test/fixtures/hostile/gemini-chat-*.json.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readSessionText } from "../../../../src/core/session/index";

const fixture = (name: string): string => readFileSync(`test/fixtures/hostile/${name}`, "utf8");

describe("a Gemini CLI chat that is not one", () => {
  it("a chat wrapped in a JSON array: named, and its messages read", () => {
    const session = readSessionText(fixture("gemini-chat-in-array.json"), "gemini-chat-in-array.json");
    expect(session.formatId).toBe("gemini-cli");
    expect(session.warnings.map((w) => w.reason).join("\n")).toMatch(/whole Gemini CLI chat .*messages list of 2.*JSON array around the chat/);
    expect(session.entries.filter((entry) => entry.type === "message")).toHaveLength(2);
  });

  it("a messages key written twice: named with its line", () => {
    const session = readSessionText(fixture("gemini-chat-duplicate-keys.json"), "gemini-chat-duplicate-keys.json");
    const warning = session.warnings.find((w) => w.reason.includes("written twice"));
    expect(warning?.reason).toContain('"messages" (line 33)');
    expect(warning?.line).toBe(33);
  });

  it("a repeated key inside one JSONL record is named at its line", () => {
    const lines = [
      JSON.stringify({ sessionId: "s", projectHash: "p", startTime: "2026-01-01T00:00:00.000Z" }),
      '{"id":"m1","timestamp":"2026-01-01T00:00:01.000Z","type":"user","content":"secret plan","content":"hi"}',
    ].join("\n");
    const session = readSessionText(lines, "session-2026-01-01T00-00-abcd1234.jsonl");
    expect(session.warnings).toContainEqual({ line: 2, reason: expect.stringContaining('"content" (line 2)') });
  });

  it("a well-formed chat has no such warning", () => {
    const session = readSessionText(fixture("gemini-chat-in-array.json").trim().slice(1, -1), "chat.json");
    expect(session.warnings.filter((w) => /written twice|whole Gemini CLI chat/.test(w.reason))).toEqual([]);
  });
});
