// A Qwen Code chat's calls resend the history of the call before with a few contents added: each
// call's messages are carried from the one before (request.ts MessageCarry), so a message two
// calls share is the same object, and the copies the reminders go into are kept while the
// reminder is. Every request must still be the one built on its own, in any order of turns.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generateAgentSession } from "../../../../bench/generate-agent-session";
import type { PipelineOptions, RequestHeader, Session } from "../../../../src/core/model";
import { readSessionText } from "../../../../src/core/session/index";
import { analyzeSession, buildTurnRequest, countTurns } from "../../../../src/core/session/pipeline";
import { learnQwenCodeCapture, QWEN_STARTUP_REMINDERS } from "../../../../src/core/agents/qwen-code/capture";
import { repoPath, sharedFixtures } from "../../../support/fixtures";

const chats = (): { name: string; text: string }[] => {
  const generated = generateAgentSession("qwen-code", { minBytes: 200 * 1024, seed: 5, callsPerCompaction: 10 });
  return [
    { name: path.basename(generated.file), text: readFileSync(generated.file, "utf8") },
    ...["compressed-fallback.jsonl", "compressed-bad-line.jsonl"].map((name) => ({ name, text: readFileSync(repoPath("test/fixtures/qwen-code", name), "utf8") })),
  ];
};

const bodyOf = (session: Session, turn: number) => JSON.stringify(buildTurnRequest(session, {}, turn).body);

describe("Qwen Code messages carried from call to call", () => {
  it("builds every turn as it is built alone, walked forwards, backwards and jumping", () => {
    for (const chat of chats()) {
      const open = () => readSessionText(chat.text, chat.name)!;
      const turns = countTurns(open(), {});
      expect(turns, chat.name).toBeGreaterThan(1);
      const alone = Array.from({ length: turns }, (_, i) => bodyOf(open(), i + 1));
      const forwards = open();
      const backwards = open();
      const jumping = open();
      for (let turn = 1; turn <= turns; turn++) expect(bodyOf(forwards, turn), `${chat.name} turn ${turn}`).toBe(alone[turn - 1]);
      for (let turn = turns; turn >= 1; turn--) expect(bodyOf(backwards, turn), `${chat.name} turn ${turn}`).toBe(alone[turn - 1]);
      for (let i = 0; i < turns; i++) {
        const turn = ((i * 7) % turns) + 1;
        expect(bodyOf(jumping, turn), `${chat.name} turn ${turn}`).toBe(alone[turn - 1]);
      }
    }
  });

  it("sends a message two calls share as the same object, the reminders' copies included", () => {
    chats().forEach((chat, which) => {
      const session = readSessionText(chat.text, chat.name)!;
      const turns = countTurns(session, {});
      let previous: unknown[] = [];
      let shared = 0;
      for (let turn = 1; turn <= turns; turn++) {
        // The system message (index 0) is the capture's or a marker: only the conversation counts.
        const messages = (buildTurnRequest(session, {}, turn).body.messages as unknown[]).slice(1);
        // Along the history both calls send (a compression replaces it with other contents).
        for (let i = 0; i < messages.length && i < previous.length; i++) {
          if (JSON.stringify(previous[i]) !== JSON.stringify(messages[i])) break;
          expect(messages[i], `${chat.name} turn ${turn} message ${i + 1}`).toBe(previous[i]);
          shared += 1;
        }
        previous = messages;
      }
      // The generated chat's calls share most of their history.
      if (which === 0) expect(shared, chat.name).toBeGreaterThan(5 * turns);
    });
  });

  it("sends the same system message and tool list from call to call, recorded or not", () => {
    const chat = chats()[0]!;
    const session = readSessionText(chat.text, chat.name)!;
    const turns = countTurns(session, {});
    const header: RequestHeader = {
      api: "openai-completions",
      systemPrompt: "You are Qwen Code.",
      tools: [{ name: "read_file", description: "Reads a file.", parameters: { type: "object" } }],
      extraSettings: {},
      source: "test",
    };
    for (const options of [{}, { header }] as PipelineOptions[]) {
      const first = buildTurnRequest(session, options, 1).body;
      for (let turn = 2; turn <= turns; turn++) {
        const body = buildTurnRequest(session, options, turn).body;
        // The same objects let the segmenter take every message after them from the call before.
        expect((body.messages as unknown[])[0], `turn ${turn}`).toBe((first.messages as unknown[])[0]);
        expect(body.tools, `turn ${turn}`).toBe(first.tools);
      }
    }
    // Another header: its own system message.
    const other = buildTurnRequest(session, { header: { ...header, systemPrompt: "Other." } }, 2).body;
    expect((other.messages as { content: unknown }[])[0]!.content).toBe("Other.");
  });

  // The recording's first request teaches the reminders (needs ../shared/fixtures).
  const shared = sharedFixtures();
  it.skipIf(shared === null)("sizes every call with the captured reminders as its body measures, the reminders' copies from their messages", () => {
    const folder = path.join(shared!.dir, "qwen-code/p-continue-autocompress");
    const chatsFolder = path.join(folder, "session/projects");
    const project = readdirSync(chatsFolder)[0]!;
    const file = readdirSync(path.join(chatsFolder, project, "chats"))[0]!;
    const text = readFileSync(path.join(chatsFolder, project, "chats", file), "utf8");
    const facts = learnQwenCodeCapture(JSON.parse(readFileSync(path.join(folder, "requests/001.json"), "utf8")) as Record<string, unknown>, "001.json");
    expect(facts.some((fact) => fact.key === QWEN_STARTUP_REMINDERS)).toBe(true);
    const options: PipelineOptions = { header: { api: "openai-completions", extraSettings: {}, source: "001.json", facts } };
    const session = readSessionText(text, file)!;
    const turns = analyzeSession(session, options).turns;
    let startupChanged = false;
    let lastFirstUser: unknown = null;
    for (const summary of turns) {
      const body = buildTurnRequest(readSessionText(text, file)!, options, summary.turn).body;
      const tools = Array.isArray(body.tools) ? JSON.stringify(body.tools).length : 0;
      expect(summary.chars, `turn ${summary.turn}`).toBe(JSON.stringify(body.messages).length + tools);
      const firstUser = JSON.stringify((body.messages as { role: string }[]).find((message) => message.role === "user"));
      if (lastFirstUser !== null && firstUser !== lastFirstUser) startupChanged = true;
      lastFirstUser = firstUser;
    }
    // The chat writes files: later processes list them in their startup reminders.
    expect(startupChanged).toBe(true);
  });

  it("sizes every call and views its messages as each call built alone does, the history's figures carried", () => {
    for (const chat of chats()) {
      const session = readSessionText(chat.text, chat.name)!;
      const turns = analyzeSession(session, {}).turns;
      expect(turns.length, chat.name).toBeGreaterThan(1);
      for (const summary of turns) {
        const alone = readSessionText(chat.text, chat.name)!;
        const body = buildTurnRequest(alone, {}, summary.turn).body;
        const tools = Array.isArray(body.tools) ? JSON.stringify(body.tools).length : 0;
        expect(summary.chars, `${chat.name} turn ${summary.turn}`).toBe(JSON.stringify(body.messages).length + tools);
      }
      // Walked backwards: the carried views are those of the call's own messages.
      for (let turn = turns.length; turn >= 1; turn--) {
        const messages = buildTurnRequest(session, {}, turn).messages;
        const alone = buildTurnRequest(readSessionText(chat.text, chat.name)!, {}, turn).messages;
        expect(JSON.stringify(messages), `${chat.name} turn ${turn}`).toBe(JSON.stringify(alone));
      }
    }
  });
});
