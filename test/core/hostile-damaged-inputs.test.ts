// Hostile inputs that threw or lost whole files: JSON nested tens of thousands of levels deep in a
// hermes session (snapshot and state.db row, as a tool call's arguments text and as a value), a
// senpi entry whose `message` is no object, a Codex rollout without its session_meta line, a pi
// file with a damaged header, and a hermes snapshot with a raw CR or NUL inside a string. Each is
// read with a warning naming the place, keeps every good line and builds every request.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { API_IDS, type PipelineOptions, type Session } from "../../src/core/model";
import { analyzeSession, buildTurnRequest } from "../../src/core/session/pipeline";
import { ownedSideFile, readSessionText, readSideFiles } from "../../src/core/session/index";
import { escapeControlCharsInStrings } from "../../src/core/readers/control-chars";
import { DEEP_VALUE_MARKER } from "../../src/core/util/json-depth";
import { fixtureCase, fixturePath } from "../support/fixtures";
import { readDb, withDb } from "./agents/hermes/storage/helpers";

const DEPTH = 50_000;
const deepArray = (depth = DEPTH): string => "[".repeat(depth) + "]".repeat(depth);

/** Analyses the session and builds every turn's request in every provider shape; returns the turn count. */
function everyRequest(session: Session, options: PipelineOptions = {}): number {
  const turns = analyzeSession(session, options).turns.length;
  for (const api of API_IDS) {
    for (let turn = 1; turn <= turns; turn++) expect(() => buildTurnRequest(session, { ...options, api }, turn), `${api} turn ${turn}`).not.toThrow();
  }
  return turns;
}

function readSnapshot(name: string, text: string): Session {
  const file = ownedSideFile({ name, text }, "session-store");
  expect(file, `${name} is taken as a hermes side file`).not.toBeNull();
  return readSideFiles([file!], null, 1)!;
}

const SNAPSHOT_NAME = "session_20260103_100000_cc0016.json";
const snapshot = (): Record<string, unknown> & { messages: Record<string, unknown>[] } =>
  JSON.parse(readFileSync(fixturePath(`hermes/storage/sessions/${SNAPSHOT_NAME}`), "utf8")) as Record<string, unknown> & { messages: Record<string, unknown>[] };

/** The fixture snapshot with a tool call (arguments `args`) and its result after the first answer. */
function snapshotWithToolCall(args: unknown): string {
  const value = snapshot();
  value.messages[1] = { ...value.messages[1], tool_calls: [{ id: "c1", type: "function", function: { name: "vision", arguments: args } }] };
  value.messages.splice(2, 0, { role: "tool", tool_call_id: "c1", content: "ok" });
  value.messages.push({ role: "assistant", content: "blue" });
  return JSON.stringify(value);
}

describe("deep nesting in hermes sessions", () => {
  it("a snapshot whose tool-call arguments text nests 50,000 levels deep is read, cut with a warning, and builds every request", () => {
    const session = readSnapshot(SNAPSHOT_NAME, snapshotWithToolCall(`{"a":${deepArray()}}`));
    expect(session.warnings.map((w) => w.reason)).toEqual(expect.arrayContaining([expect.stringMatching(/message \[1\]: tool_calls\[0\]\.function\.arguments: 1 value nested more than 128 levels deep left out/)]));
    expect(everyRequest(session)).toBe(2);
    expect(JSON.stringify(buildTurnRequest(session, {}, 2).body)).toContain("nested more than 128 levels deep");
  });

  it("a snapshot holding a 50,000-deep value in a message is read, cut with a warning naming the field", () => {
    const text = snapshotWithToolCall("{}").replace('"content":"ok"', `"content":"ok","extra":${deepArray()}`);
    const session = readSnapshot(SNAPSHOT_NAME, text);
    expect(session.warnings.map((w) => w.reason)).toEqual(expect.arrayContaining([expect.stringMatching(/message \[2\]: extra: 1 value nested more than 128 levels deep left out/)]));
    expect(everyRequest(session)).toBe(2);
  });

  it("a state.db row with 50,000-deep JSON columns is read with warnings; every other row and session stays", async () => {
    const bytes = readFileSync(fixturePath("hermes/storage/v30-state.db"));
    const before = await readDb(bytes);
    const turnsBefore = analyzeSession(before, {}).turns.length;
    const damaged = await withDb(bytes, null, (_query, db) => {
      const row = db.exec("SELECT session_id, timestamp FROM messages ORDER BY id DESC LIMIT 1")[0]!.values[0]!;
      db.run("INSERT INTO messages (session_id, role, content, tool_calls, reasoning_details, timestamp) VALUES (?, 'assistant', 'calling', ?, ?, ?)", [
        row[0] as string,
        JSON.stringify([{ id: "c9", type: "function", function: { name: "x", arguments: `{"a":${deepArray()}}` } }]),
        deepArray(),
        (row[1] as number) + 1,
      ]);
      return db.export();
    });
    const session = await readDb(damaged);
    const reasons = session.warnings.map((w) => w.reason);
    expect(reasons).toEqual(expect.arrayContaining([expect.stringMatching(/reasoning_details: 1 value nested more than 128 levels deep/), expect.stringMatching(/tool_calls\[0\]\.function\.arguments: 1 value nested/)]));
    expect(session.entries.length).toBe(before.entries.length + 1);
    expect(everyRequest(session)).toBe(turnsBefore + 1);
    expect(DEEP_VALUE_MARKER).toContain("128");
  });
});

describe("a pi or senpi entry whose message is not an object", () => {
  const text = readFileSync(fixtureCase("pi/print-openai-autocompact").sessionPath, "utf8");
  const lines = text.trimEnd().split("\n");
  const messageLines = lines.flatMap((line, index) => ((JSON.parse(line) as { type?: string }).type === "message" ? [index] : []));

  // Every message entry in turn, with every kind of non-object message, under both profiles.
  for (const wrong of [null, [], "x", [1, { role: "user" }], 5, true]) {
    it(`message ${JSON.stringify(wrong)} on any entry: a warning on its line, every request builds`, () => {
      for (const index of messageLines) {
        const changed = lines.map((line, i) => (i === index ? JSON.stringify({ ...(JSON.parse(line) as object), message: wrong }) : line));
        const session = readSessionText(changed.join("\n"), "s.jsonl");
        expect(session.warnings.some((w) => w.line === index + 1)).toBe(true);
        for (const profile of ["pi", "senpi"] as const) {
          const turns = analyzeSession(session, { profile }).turns.length;
          for (let turn = 1; turn <= turns; turn++) expect(() => buildTurnRequest(session, { profile }, turn), `${profile} line ${index + 1} turn ${turn}`).not.toThrow();
        }
      }
    });
  }
});

describe("a damaged first line", () => {
  const codexText = readFileSync(fixtureCase("codex/exec-autocompact").sessionPath, "utf8");
  const codexTurns = analyzeSession(readSessionText(codexText, "rollout.jsonl"), {}).turns.length;
  const codexLines = codexText.trimEnd().split("\n");

  it.each([
    ["without its session_meta line", codexLines.slice(1)],
    ["with its session_meta line cut", ['{"timestamp":"2026-11-29T19:25:29.273Z","type":"session_me', ...codexLines.slice(1)]],
    ["with a bit flipped in session_meta's type", [codexLines[0]!.replace('"session_meta"', '"session_mdta"'), ...codexLines.slice(1)]],
  ])("a Codex rollout %s opens with every other line and a warning", (_name, changed) => {
    const session = readSessionText(changed.join("\n"), "rollout.jsonl");
    expect(session.formatId).toBe("codex");
    expect(session.warnings.some((w) => /rollout does not start with session_meta/.test(w.reason))).toBe(true);
    expect(analyzeSession(session, {}).turns.length).toBe(codexTurns);
  });

  const piText = readFileSync(fixtureCase("pi/print-openai-autocompact").sessionPath, "utf8");
  const piTurns = analyzeSession(readSessionText(piText, "s.jsonl"), { profile: "pi" }).turns.length;
  const piLines = piText.trimEnd().split("\n");
  const header = JSON.parse(piLines[0]!) as Record<string, unknown>;

  it.each([
    ["type null", JSON.stringify({ ...header, type: null })],
    ["type []", JSON.stringify({ ...header, type: [] })],
    ["type 5", JSON.stringify({ ...header, type: 5 })],
    ["a flipped bit in its type", piLines[0]!.replace('"session"', '"sessioN"')],
    ["cut", piLines[0]!.slice(0, 20)],
    ["binary", "\u0000\u0001garbage"],
  ])("a pi file whose header is %s opens with every entry and a warning on line 1", (_name, first) => {
    const session = readSessionText([first, ...piLines.slice(1)].join("\n"), "s.jsonl");
    expect(session.formatId).toBe("pi");
    expect(session.warnings[0]?.line).toBe(1);
    expect(session.entries.length).toBe(piLines.length - 1);
    expect(analyzeSession(session, { profile: "pi" }).turns.length).toBe(piTurns);
  });

  it("a Claude Code transcript is not taken for Codex or pi", () => {
    const claude = readSessionText(readFileSync(fixtureCase("claude/print-autocompact-manualcompact").sessionPath, "utf8"), "c.jsonl");
    expect(claude.formatId).toBe("claude-code");
  });
});

describe("raw control characters in a hermes snapshot", () => {
  it("a raw CR and NUL inside a string: the session is read with them, the warning names their byte offsets", () => {
    const text = readFileSync(fixturePath(`hermes/storage/sessions/${SNAPSHOT_NAME}`), "utf8").replace("Describe this", "Descr\u00e9\rbe th\u0000is");
    expect(() => JSON.parse(text)).toThrow();
    const session = readSnapshot(SNAPSHOT_NAME, text);
    const crAt = new TextEncoder().encode(text.slice(0, text.indexOf("\r"))).length;
    const nulAt = new TextEncoder().encode(text.slice(0, text.indexOf("\u0000"))).length;
    expect(session.warnings.map((w) => w.reason).join("\n")).toContain(`raw control characters inside a JSON string at byte offsets ${crAt}, ${nulAt}`);
    expect(JSON.stringify(session.entries.map((entry) => entry.raw))).toContain("Descr\u00e9\\rbe th\\u0000is");
    expect(everyRequest(session)).toBe(2);
  });

  it("the repair escapes only characters inside strings and keeps the rest byte for byte", () => {
    expect(escapeControlCharsInStrings('{"a":"x"}\n')).toBeNull();
    const repaired = escapeControlCharsInStrings('{"a":"x\ty\\"\r"}\n');
    expect(repaired?.text).toBe('{"a":"x\\u0009y\\"\\u000d"}\n');
    expect(repaired?.byteOffsets).toEqual([7, 11]);
    expect(JSON.parse(repaired!.text)).toEqual({ a: 'x\ty"\r' });
  });
});
