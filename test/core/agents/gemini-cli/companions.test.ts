// Gemini CLI's projects.json and logs.json opened with a chat (as the worker reads a drop): read
// into the chat (its project folder by the projectHash, the prompts typed in it), named in notes,
// never warnings and never captured requests; alone, each says what it is and what to open with it.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { readSession } from "../../../../src/features/open/readSession";
import { sniffSessions } from "../../../../src/features/open/sniffSessions";
import { libraryRowFacts } from "../../../../src/app/libraryRow";

const ROOT = "/home/dev/lighthouse-notes";
const META = { sessionId: "s-1", projectHash: createHash("sha256").update(ROOT).digest("hex"), startTime: "2026-01-01T00:00:00.000Z", lastUpdated: "2026-01-01T00:00:00.000Z", kind: "main" };
const chat = [
  META,
  { id: "u1", timestamp: "2026-01-01T00:00:01.000Z", type: "user", content: [{ text: "hi" }] },
  { id: "g1", timestamp: "2026-01-01T00:00:02.000Z", type: "gemini", content: "hello", model: "gemini-2.5-flash", tokens: { input: 10, output: 2, cached: 4, thoughts: 1, tool: 0, total: 13 } },
]
  .map((line) => JSON.stringify(line))
  .join("\n");
const projects = JSON.stringify({ projects: { "/home/dev/other": "other", [ROOT]: "lighthouse-notes" } }, null, 2);
const logEntry = (sessionId: string, messageId: number, message: string) => ({ sessionId, messageId, type: "user", message, timestamp: "2026-01-01T00:00:00.000Z" });
const logs = JSON.stringify([logEntry("s-1", 0, "hi"), logEntry("s-1", 1, "/compress"), logEntry("s-1", 2, "/stats model"), logEntry("s-0", 0, "older chat")], null, 2);
const control = { isCancelled: () => false, onProgress: () => undefined };
const file = (name: string, text: string) => new File([text], name);

describe("Gemini CLI's projects.json and logs.json", () => {
  it("are told from captured requests when dropped", async () => {
    expect(await sniffSessions([file("projects.json", projects), file("logs.json", logs), file("001.json", JSON.stringify({ contents: [] }))])).toEqual(["side file", "side file", null]);
    // A file of those names that is not the CLI's is left to the other checks.
    expect(await sniffSessions([file("projects.json", '{"name":"x"}')])).toEqual([null]);
  });

  it("opened with a chat: its project folder and the prompts typed in it, as notes, with no warning", async () => {
    const read = await readSession({ kind: "files", files: [file("session-2026-01-01T00-00-s1.jsonl", chat), file("projects.json", projects), file("logs.json", logs)] }, control);
    const session = read.session;
    expect(session.warnings).toEqual([]);
    expect(session.header?.project).toBe(ROOT);
    expect(session.header?.sessionId).toBe("s-1");
    expect(session.companionNotes?.map((note) => note.fileName)).toEqual(["projects.json", "logs.json"]);
    expect(session.companionNotes?.[0]?.note).toBe(`projects.json: this chat worked in ${ROOT} (the CLI's folder for it is ~/.gemini/tmp/lighthouse-notes/).`);
    expect(session.companionNotes?.[1]?.note).toMatch(/^logs\.json: 3 prompts typed in this chat, 2 slash commands among them \(\/compress, \/stats\) that the CLI ran itself/);
    expect(read.fileNames).toEqual(["session-2026-01-01T00-00-s1.jsonl", "projects.json", "logs.json"]);
    // The library's Project column takes it.
    expect(libraryRowFacts(session).project).toBe(ROOT);
  });

  it("of another project, or of other chats: named as not needed", async () => {
    const otherProjects = JSON.stringify({ projects: { "/home/dev/other": "other" } });
    const otherLogs = JSON.stringify([logEntry("s-0", 0, "older chat")]);
    const { session } = await readSession({ kind: "files", files: [file("session-2026-01-01T00-00-s1.jsonl", chat), file("projects.json", otherProjects), file("logs.json", otherLogs)] }, control);
    expect(session.warnings).toEqual([]);
    expect(session.header?.project).toBeUndefined();
    expect(session.companionNotes?.map((note) => note.note)).toEqual([
      "projects.json names 1 project folder, none of them this chat's (its projectHash matches none): not needed here.",
      "logs.json holds 1 typed prompt of other chats, none of this one: not needed here.",
    ]);
  });

  it("opened alone: what the file is and what to open with it, not an unsupported format", async () => {
    await expect(readSession({ kind: "file", file: file("projects.json", projects) }, control)).rejects.toThrow(/^projects\.json is Gemini CLI's list of project folders, not a chat\. Open a chat/);
    await expect(readSession({ kind: "files", files: [file("projects.json", projects), file("logs.json", logs)] }, control)).rejects.toThrow(/is Gemini CLI's/);
  });

  it("dropped with another agent's session: named as not needed for it", async () => {
    const pi = [
      { type: "session", version: 3, id: "p1", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/p" },
    ]
      .map((line) => JSON.stringify(line))
      .join("\n");
    const { session } = await readSession({ kind: "files", files: [file("pi.jsonl", pi), file("projects.json", projects)] }, control);
    expect(session.warnings).toEqual([]);
    expect(session.companionNotes?.[0]?.note).toBe("projects.json is a file Gemini CLI keeps beside its chats; pi.jsonl is not one of them, so it is not needed here.");
  });
});
