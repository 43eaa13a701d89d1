// senpi reply-language notes wired into the pi/senpi pipeline (spec
// reply-language.md rows #27 … #31, SP-C5, SP-P5): on fixture pi/print-openai-autocompact with the
// senpi profile, notes on name the user's (requested) language after each compaction, notes off
// equal the recorded requests byte for byte; over generated sessions, the analysis agrees with the
// per-turn pipeline, notes never make two user messages adjacent and requests stay prefix-stable.
import { isText, textString } from "../../src/core/text/text";
import { readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ContextMessage, LlmMessage, PipelineOptions, Session } from "../../src/core/model";
import { analyzeSession, buildTurnContext, buildTurnRequest, carriesNote } from "../../src/core/session/pipeline";
import { NOTES_DEFAULT } from "../../src/core/agents/pi/notesSetup";
import { extractRequestHeader } from "../../src/core/providers";
import { readSessionBytes } from "../../src/core/session/index";
import { llmMessageChars } from "../../src/core/agents/pi/convert";
import { getPiSessionCache } from "../../src/core/agents/pi/sessionCache";
import { assistant, compaction, sessionOf, toolResult, user, type EntryInput } from "./agents/pi/sessionBuilder";
import { describeShared, fixtureCase, type FixtureCase } from "../support/fixtures";
import { stringifyWithTexts } from "../../src/core/text/text";

const NOTE_RULE = "note:reply-language";
const ENGLISH_REQUESTED = "Reply language: English (the user asked for it)";
const CARRIER_END = "\n</summary>\n\n" + ENGLISH_REQUESTED;

const textOf = (message: LlmMessage): string =>
  isText(message.content)
    ? textString(message.content)
    : message.content.map((block) => (block.type === "text" ? textString(block.text) : "")).join("");
const isNote = (item: ContextMessage) => item.provenance.rule === NOTE_RULE;
const senpi = (extra: Partial<PipelineOptions> = {}): PipelineOptions => ({ profile: "senpi", ...extra });

// ---------------------------------------------------------------------------------------------
// Fixture: the copy in test/fixtures, and the original in <repo>/../shared/fixtures when present.

const CASE = "pi/print-openai-autocompact";

function loadFixture(fixture: FixtureCase): { session: Session; requests: { name: string; text: string }[] } {
  const file = fixture.sessionPath;
  const decoder = new TextDecoder();
  const session = readSessionBytes(readFileSync(file), path.basename(file), (bytes) => decoder.decode(bytes));
  const requests = fixture.requests("main").map((request) => ({ name: request.id, text: request.text }));
  return { session, requests };
}

type WireMessage = { role: string; content?: unknown };
const wireText = (message: WireMessage): string =>
  typeof message.content === "string"
    ? message.content
    : Array.isArray(message.content)
      ? (message.content as { text?: string }[]).map((part) => part.text ?? "").join("")
      : "";

/** The suite over one copy of the fixture (senpi profile, notes on and off). */
function notesOnFixture(fixture: FixtureCase): void {
  const { session, requests } = loadFixture(fixture);
  const header = extractRequestHeader(JSON.parse(requests[0]!.text), "requests/001.json");
  const turns = requests.map((_, index) => index + 1);
  const bodyText = (turn: number, extra: Partial<PipelineOptions>) => stringifyWithTexts(buildTurnRequest(session, senpi({ header, ...extra }), turn).body);
  const wireMessages = (turn: number, extra: Partial<PipelineOptions>) =>
    (JSON.parse(bodyText(turn, extra)) as { messages: WireMessage[] }).messages;

  it("notes are off by default; notes off equal the plain senpi requests and the recorded bodies (15/15)", () => {
    expect(NOTES_DEFAULT).toBe(false);
    expect(requests).toHaveLength(15);
    for (const turn of turns) {
      const off = bodyText(turn, { notes: false });
      expect(off, `turn ${turn}`).toBe(bodyText(turn, {}));
      expect(off, `turn ${turn}`).toBe(requests[turn - 1]!.text);
    }
  });

  it("after each compaction the summary names the requested language (English, asked for in prompt 2)", () => {
    // Turns 9-12 = requests 010-013 (after compaction 1), 13-15 = 015-017 (after compaction 2).
    for (const turn of [9, 10, 11, 12, 13, 14, 15]) {
      const messages = wireMessages(turn, { notes: true });
      const summary = messages[1] as WireMessage;
      expect(summary.role).toBe("user");
      expect(wireText(summary).endsWith(CARRIER_END), `turn ${turn}`).toBe(true);
      expect(wireText(messages[2] as WireMessage).startsWith("Reply language:")).toBe(false); // RL-23: no separate note
      const context = buildTurnContext(session, senpi({ notes: true }), turn);
      const carrier = context.messages[0] as ContextMessage;
      expect(carrier.provenance.rule).toBe("wrap:compaction-summary");
      expect(carrier.provenance.entryId).toBe(turn <= 12 ? "d031100d" : "2ca2e615");
      expect(carrier.provenance.note).toMatchObject({ language: "English", source: "explicit-request", fromEntryId: "90765bf3" });
      expect(carrier.provenance.explanation).toMatch(/English/);
    }
    // Before any compaction, the summary-less requests hold no carrier.
    for (const turn of [1, 2, 3, 4, 5]) expect(bodyText(turn, { notes: true })).toBe(requests[turn - 1]!.text);
  });

  it("rows #28 … #30: one requested-English note after the architecture result in 006-008 and 010-013, none later", () => {
    for (const turn of turns) {
      const context = buildTurnContext(session, senpi({ notes: true }), turn);
      const notes = context.messages.flatMap((item, index) =>
        isNote(item) ? [{ after: context.messages[index - 1]?.provenance.entryId, text: textOf(item.message), note: item.provenance.note }] : [],
      );
      const expected = turn >= 6 && turn <= 12 ? [["3e8bbdad", ENGLISH_REQUESTED]] : [];
      expect(notes.map((n) => [n.after, n.text]), `turn ${turn}`).toEqual(expected);
      for (const n of notes) {
        // The explanation: language, the request it came from (removed by compaction 1 from 9 on), built-up chars.
        expect(n.note).toMatchObject({ language: "English", source: "explicit-request", fromEntryId: "90765bf3", builtUpChars: 5022 });
      }
    }
  });

  it("notes only add: removing notes and the carrier gives the recorded conversation", () => {
    for (const turn of turns) {
      const recorded = (JSON.parse(requests[turn - 1]!.text) as { messages: WireMessage[] }).messages;
      const carried = "\n\n" + ENGLISH_REQUESTED;
      const withNotes = wireMessages(turn, { notes: true })
        .filter((m) => !(m.role === "user" && wireText(m).startsWith("Reply language: ")))
        .map((m) =>
          m.role === "user" && wireText(m).endsWith(CARRIER_END)
            ? { ...m, content: (m.content as { type: string; text: string }[]).map((part) => ({ ...part, text: part.text.slice(0, -carried.length) })) }
            : m,
        );
      expect(withNotes, `turn ${turn}`).toEqual(recorded);
    }
  });

  it("row #27 through the pipeline: thresholdChars 3800 gives a Korean note after the README result from request 003 on", () => {
    const options = { notes: true, notesOptions: { thresholdChars: 3800 } };
    for (const turn of [3, 4, 5, 6, 7, 8]) {
      const context = buildTurnContext(session, senpi(options), turn);
      const korean = context.messages.filter((m, i) => isNote(m) && context.messages[i - 1]?.provenance.entryId === "ad57cdda");
      expect(korean.map((m) => textOf(m.message)), `turn ${turn}`).toEqual(["Reply language: Korean"]);
      expect(korean[0]?.provenance.note).toMatchObject({ language: "Korean", source: "written", fromEntryId: "89290492", builtUpChars: 3840 });
    }
    expect(buildTurnContext(session, senpi(options), 2).messages.some(isNote)).toBe(false);
  });

  it("RL-28: between compactions each request's messages are a prefix of the next one's, with notes on", () => {
    for (const notesOptions of [undefined, { thresholdChars: 3800 }]) {
      const analysis = analyzeSession(session, senpi({ notes: true, notesOptions }));
      for (let turn = 2; turn <= turns.length; turn++) {
        if (analysis.turns[turn - 1]?.afterCompaction) continue;
        const before = wireMessages(turn - 1, { notes: true, notesOptions }).map((m) => stringifyWithTexts(m));
        const after = wireMessages(turn, { notes: true, notesOptions }).map((m) => stringifyWithTexts(m));
        expect(after.slice(0, before.length), `turn ${turn - 1} → ${turn}`).toEqual(before);
      }
    }
  });

  it("analyzeSession: hasNote, message counts, chars and estimates agree with the per-turn pipeline", () => {
    const on = analyzeSession(session, senpi({ notes: true }));
    const off = analyzeSession(session, senpi({ notes: false }));
    expect(on.turns.map((t) => t.hasNote)).toEqual(turns.map((t) => t >= 6));
    expect(off.turns.every((t) => !t.hasNote)).toBe(true);
    for (const summary of on.turns) {
      const context = buildTurnContext(session, senpi({ notes: true }), summary.turn);
      const notes = context.messages.filter(isNote);
      expect(summary.hasNote, `turn ${summary.turn}`).toBe(context.messages.some(carriesNote));
      expect(summary.messageCount, `turn ${summary.turn}`).toBe(context.messages.length);
      expect(summary.chars).toBe(context.messages.reduce((sum, m) => sum + llmMessageChars(m.message), 0));
      const plain = off.turns[summary.turn - 1]!;
      expect(summary.estimatedTokens - plain.estimatedTokens).toBe(notes.reduce((sum, m) => sum + Math.ceil(textOf(m.message).length / 4), 0));
    }
  });

  it("every note follows a tool result and precedes an assistant message or the end; pi never inserts notes", () => {
    for (const turn of turns) {
      const messages = buildTurnContext(session, senpi({ notes: true }), turn).messages;
      messages.forEach((item, index) => {
        if (!isNote(item)) return;
        expect(messages[index - 1]?.message.role).toBe("toolResult");
        const next = messages[index + 1];
        if (next) expect(next.message.role).toBe("assistant");
      });
      const pi = buildTurnContext(session, { profile: "pi", notes: true }, turn).messages;
      expect(pi.some(carriesNote)).toBe(false);
    }
  });

  it("reads each user message once across all turns and the analysis (one reading cache per session)", () => {
    const fresh = loadFixture(fixture).session;
    analyzeSession(fresh, senpi({ notes: true }));
    for (const turn of turns) buildTurnContext(fresh, senpi({ notes: true }), turn);
    const setups = [...getPiSessionCache(fresh).notes.values()];
    expect(setups).toHaveLength(1);
    expect(setups[0]!.cache.stats.readings).toBe(9); // the nine user prompts
  });
}

describe(`fixture ${CASE} (copy), senpi profile with notes`, () => notesOnFixture(fixtureCase(CASE)));
describeShared(`fixture ${CASE} (shared original), senpi profile with notes`, (shared) => notesOnFixture(shared.case(CASE)));

// ---------------------------------------------------------------------------------------------
// Generated sessions

const PROMPTS = [
  "이 함수 좀 고쳐줘",
  "Please fix this function",
  "영어로 답해줘",
  "please reply in Korean from now on",
  "このバグを直してください",
  "Исправь эту ошибку",
  "```\ncode only\n```",
  "Reply language: Korean",
];

interface RoundSpec {
  results: number[];
  userWords: boolean;
  failed: boolean;
}
interface TurnSpec {
  prompt: number;
  before: "none" | "bash" | "notice" | "environment";
  rounds: RoundSpec[];
  compactAfter: "none" | "keep-prompt" | "keep-nothing";
}

const roundArb = fc.record({
  results: fc.array(fc.integer({ min: 0, max: 3000 }), { minLength: 1, maxLength: 3 }),
  userWords: fc.constantFrom(false, false, true),
  failed: fc.constantFrom(false, false, false, false, true),
});
const turnArb = fc.record({
  prompt: fc.integer({ min: 0, max: PROMPTS.length - 1 }),
  before: fc.constantFrom("none", "none", "bash", "notice", "environment"),
  rounds: fc.array(roundArb, { maxLength: 4 }),
  compactAfter: fc.constantFrom("none", "none", "none", "keep-prompt", "keep-nothing"),
}) as fc.Arbitrary<TurnSpec>;

function generatedSession(spec: TurnSpec[], withFailures: boolean): Session {
  const entries: EntryInput[] = [{ id: "m0", type: "model_change", provider: "p", modelId: "m" }];
  let n = 0;
  const id = (prefix: string) => `${prefix}${++n}`;
  spec.forEach((turn) => {
    if (turn.before === "bash") {
      entries.push({ id: id("b"), type: "message", message: { role: "bashExecution", command: "cat log", output: "z".repeat(2500), exitCode: 0, cancelled: false, truncated: false, timestamp: 4 } });
    } else if (turn.before === "notice") {
      entries.push({ id: id("n"), type: "custom_message", customType: "notice", content: "q".repeat(1500), display: true });
    } else if (turn.before === "environment") {
      entries.push({ id: id("e"), type: "custom_message", customType: "environment-context", content: "<environment_context>\n  <cwd>/w</cwd>\n</environment_context>", display: false });
    }
    const promptId = id("u");
    entries.push(user(promptId, PROMPTS[turn.prompt] as string));
    for (const round of turn.rounds) {
      const failed = withFailures && round.failed;
      const calls = round.results.map(() => id("c"));
      entries.push(
        assistant(id("a"), "", {
          content: calls.map((callId) => ({ type: "toolCall", id: callId, name: "bash", arguments: { command: "ls" } })),
          stopReason: failed ? "error" : "toolUse",
          ...(failed ? { errorMessage: "boom" } : {}),
        }),
      );
      round.results.forEach((chars, index) => {
        const words = round.userWords && index === round.results.length - 1 ? { details: { userWords: [{ label: "answer", text: "yes" }] } } : {};
        entries.push(toolResult(id("r"), calls[index] as string, "x".repeat(chars), words));
      });
    }
    entries.push(assistant(id("a"), "done"));
    if (turn.compactAfter !== "none") entries.push(compaction(id("C"), turn.compactAfter === "keep-prompt" ? promptId : "nothing", "summary"));
  });
  return sessionOf(entries);
}

function adjacentUserPairs(messages: readonly ContextMessage[]): number {
  let pairs = 0;
  for (let i = 1; i < messages.length; i++) {
    if (messages[i]?.message.role === "user" && messages[i - 1]?.message.role === "user") pairs += 1;
  }
  return pairs;
}

describe("generated sessions, senpi profile with notes on", () => {
  const thresholdArb = fc.constantFrom(1000, 2500, 4000);

  it("analyzeSession's hasNote and message count agree with buildTurnContext on every turn", () => {
    fc.assert(
      fc.property(fc.array(turnArb, { minLength: 1, maxLength: 6 }), thresholdArb, fc.boolean(), (spec, thresholdChars, withFailures) => {
        const session = generatedSession(spec, withFailures);
        const options = senpi({ notes: true, notesOptions: { thresholdChars } });
        const analysis = analyzeSession(session, options);
        for (const summary of analysis.turns) {
          const context = buildTurnContext(session, options, summary.turn);
          expect(summary.hasNote, `turn ${summary.turn}`).toBe(context.messages.some(carriesNote));
          expect(summary.messageCount, `turn ${summary.turn}`).toBe(context.messages.length);
        }
      }),
      { numRuns: 120 },
    );
  });

  it("notes never make two user messages adjacent; each follows a tool result", () => {
    fc.assert(
      fc.property(fc.array(turnArb, { minLength: 1, maxLength: 6 }), thresholdArb, fc.boolean(), (spec, thresholdChars, withFailures) => {
        const session = generatedSession(spec, withFailures);
        const turns = analyzeSession(session, senpi()).turns.length;
        for (let turn = 1; turn <= turns; turn++) {
          const on = buildTurnContext(session, senpi({ notes: true, notesOptions: { thresholdChars } }), turn).messages;
          const off = buildTurnContext(session, senpi({ notes: false }), turn).messages;
          expect(adjacentUserPairs(on)).toBe(adjacentUserPairs(off));
          on.forEach((item, index) => {
            if (isNote(item)) expect(on[index - 1]?.message.role).toBe("toolResult");
          });
        }
      }),
      { numRuns: 80 },
    );
  });

  it("RL-28: for consecutive turns without compaction, the earlier messages are a prefix of the later ones", () => {
    fc.assert(
      fc.property(fc.array(turnArb, { minLength: 1, maxLength: 6 }), thresholdArb, (spec, thresholdChars) => {
        const session = generatedSession(spec, false);
        const options = senpi({ notes: true, notesOptions: { thresholdChars } });
        const analysis = analyzeSession(session, options);
        let previous: string[] | null = null;
        for (const summary of analysis.turns) {
          const current = buildTurnContext(session, options, summary.turn).messages.map((m) => stringifyWithTexts(m.message));
          if (previous && !summary.afterCompaction) expect(current.slice(0, previous.length)).toEqual(previous);
          previous = current;
        }
      }),
      { numRuns: 80 },
    );
  });

  it("SP-C2 image replacement (retroactive) keeps the analysis equal to the per-turn pipeline", () => {
    const image = { type: "image", data: "AAAA", mimeType: "image/png" };
    const session = sessionOf([
      user("u1", "이 스크린샷 좀 봐줘"),
      assistant("a1", "", { content: [{ type: "toolCall", id: "c1", name: "read", arguments: {} }], stopReason: "toolUse" }),
      toolResult("r1", "c1", "x".repeat(3990), { content: [{ type: "text", text: "x".repeat(3990) }, image] }),
      assistant("a2", "", { content: [{ type: "toolCall", id: "c2", name: "read", arguments: {} }], stopReason: "error", errorMessage: "image too large" }),
      assistant("a3", "", { content: [{ type: "toolCall", id: "c3", name: "read", arguments: {} }], stopReason: "toolUse" }),
      toolResult("r3", "c3", "y".repeat(10)),
      assistant("a4", "done"),
    ]);
    const options = senpi({ notes: true });
    const analysis = analyzeSession(session, options);
    expect(analysis.turns).toHaveLength(4);
    for (const summary of analysis.turns) {
      const context = buildTurnContext(session, options, summary.turn);
      expect(summary.hasNote, `turn ${summary.turn}`).toBe(context.messages.some(carriesNote));
      expect(summary.messageCount, `turn ${summary.turn}`).toBe(context.messages.length);
    }
    // The placeholder text replacing the image pushes the run over 4000 characters from turn 3 on.
    expect(analysis.turns.map((t) => t.hasNote)).toEqual([false, false, true, true]);
  });

  it("a custom notes hook still drives the analysis (whole pipeline per turn)", () => {
    const session = generatedSession(
      [{ prompt: 0, before: "none", rounds: [{ results: [100], userWords: false, failed: false }], compactAfter: "none" }],
      false,
    );
    const marker: ContextMessage = { message: { role: "user", content: [{ type: "text", text: "custom" }] }, provenance: { rule: NOTE_RULE, entryId: null } };
    const hooks = { notesStep: (messages: ContextMessage[]) => [...messages, marker] };
    const analysis = analyzeSession(session, senpi({ notes: true }), hooks);
    for (const summary of analysis.turns) {
      const context = buildTurnContext(session, senpi({ notes: true }), summary.turn, hooks);
      expect(summary.messageCount).toBe(context.messages.length);
      expect(summary.hasNote).toBe(true);
    }
  });
});
