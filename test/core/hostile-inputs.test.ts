// Regression tests for every kind of failure the hostile-input fuzz run found: each input gives a
// result or a clear message within a bound, with its valid entries kept. The three shared
// reproducers (../shared/fixtures/hostile) and a small inline reproducer per kind.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { API_IDS, type PipelineOptions, type Session } from "../../src/core/model";
import { analyzeSession, buildTurnRequest } from "../../src/core/session/pipeline";
import { iterateSessionPrefixes } from "../../src/core/session/sessionPrefixes";
import { iterateTurnRequests } from "../../src/core/session/turnRequests";
import { readSessionText } from "../../src/core/session/index";
import { replayRecordedCompactions, simulateCompaction } from "../../src/core/session/simulate/index";
import { DEEP_VALUE_MARKER } from "../../src/core/util/json-depth";
import { describeShared, sharedFixtures } from "../support/fixtures";

const BOUND_MS = 5_000;
const PI: PipelineOptions = { profile: "pi" };

/** Runs `run` and checks it answered within the bound. */
function bounded<T>(run: () => T): T {
  const started = Date.now();
  const value = run();
  expect(Date.now() - started).toBeLessThan(BOUND_MS);
  return value;
}

/** Every turn's request in every provider shape, the prefix walk and the turn-list agreement. */
function everyStage(session: Session, options: PipelineOptions = PI): number {
  const analysis = analyzeSession(session, options);
  const walked = [...iterateTurnRequests(session, options)].length;
  expect(walked).toBe(analysis.turns.length);
  for (let turn = 1; turn <= analysis.turns.length; turn++) {
    for (const api of API_IDS) JSON.stringify(buildTurnRequest(session, { ...options, api }, turn).body);
  }
  for (const report of iterateSessionPrefixes(session, options, { analysis, prefix: { tokenizer: "estimate" } })) void report;
  return analysis.turns.length;
}

const line = (value: unknown) => JSON.stringify(value);
const header = line({ type: "session", version: 3, id: "s", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" });
const user = (id: string, parentId: string | null, content: unknown) => line({ type: "message", id, parentId, timestamp: "2026-01-01T00:00:01.000Z", message: { role: "user", content, timestamp: 1 } });
const assistant = (id: string, parentId: string | null, content: unknown, extra: Record<string, unknown> = {}) =>
  line({
    type: "message",
    id,
    parentId,
    timestamp: "2026-01-01T00:00:02.000Z",
    message: { role: "assistant", content, api: "openai-completions", provider: "openai", model: "gpt-4o", stopReason: "stop", timestamp: 2, ...extra },
  });
const toolResult = (id: string, parentId: string, content: unknown, extra: Record<string, unknown> = {}) =>
  line({ type: "message", id, parentId, timestamp: "2026-01-01T00:00:03.000Z", message: { role: "toolResult", toolCallId: "c1", toolName: "bash", content, isError: false, timestamp: 3, ...extra } });
const call = { type: "toolCall", id: "c1", name: "bash", arguments: { command: "ls" } };
const text = (t: unknown) => ({ type: "text", text: t });

function pi(lines: string[]): Session {
  return readSessionText([header, ...lines].join("\n"), "hostile.jsonl");
}

describeShared("the shared hostile reproducers", (shared) => {
  const file = (name: string) => readFileSync(shared.path(`hostile/${name}`), "utf8");

  it("opencode export with a stray } after the first message: read, the message kept, the stray named", () => {
    const session = bounded(() => readSessionText(file("opencode-salvage-loop.json"), "opencode-salvage-loop.json"));
    expect(session.entries.length).toBeGreaterThanOrEqual(1);
    expect(session.warnings.map((w) => w.reason).join("\n")).toMatch(/stepped over 1 stray character/);
    bounded(() => everyStage(session));
  });

  it("pi file whose entry ids repeat: compact --replay-recorded answers, every compaction has a line", () => {
    const session = bounded(() => readSessionText(file("pi-dupid-hang.jsonl"), "pi-dupid-hang.jsonl"));
    expect(session.entries).toHaveLength(35);
    expect(analyzeSession(session, PI).warnings.some((w) => w.line === 33 && /used more than once/.test(w.reason))).toBe(true);
    const lines = bounded(() => replayRecordedCompactions(session, PI, "pi"));
    expect(lines).toHaveLength(2);
    for (const replayed of lines) expect(replayed.verdict === "failed" ? replayed.error : replayed.verdict).toBeTruthy();
    bounded(() => everyStage(session));
  });

  it("senpi file with one field of the wrong type: one warning on its line, every entry kept, every turn built", () => {
    const session = bounded(() => readSessionText(file("senpi-wrong-type-field.jsonl"), "senpi-wrong-type-field.jsonl"));
    expect(session.entries).toHaveLength(54);
    expect(session.warnings).toEqual([{ line: 19, reason: "entry 9157b865: message.content[0].text is null, expected a string; read as empty" }]);
    const turns = bounded(() => everyStage(session, { profile: "senpi" }));
    expect(turns).toBe(15);
  });
});

describe("inline reproducers, one per failure kind", () => {
  it("opencode salvage: stray characters between messages never stop the loop, later messages kept", () => {
    const doc = `{"info":{"id":"ses_x"},"messages":[{"info":{"id":"m1","role":"user"},"parts":[]} } , , : {"info":{"id":"m2","role":"user"},"parts":[]}]`;
    const session = bounded(() => readSessionText(doc, "export.json"));
    expect(session.entries.length).toBe(2);
  });

  it("content of the wrong type (null text, content an object, a part of unknown type, a missing tool call id): warnings, entries kept", () => {
    const session = pi([
      user("u1", null, [text(null)]),
      assistant("a1", "u1", [call]),
      toolResult("r1", "a1", { not: "an array" }),
      assistant("a2", "r1", [{ type: "mystery", text: 3 }, text("ok")]),
      line({ type: "message", id: "r2", parentId: "a2", message: { role: "toolResult", toolName: "bash", content: [text("x")] } }),
      assistant("a3", "r2", [text("done")], { usage: { input: "ten", output: null } }),
    ]);
    expect(session.entries).toHaveLength(6);
    const reasons = session.warnings.map((w) => `${w.line}: ${w.reason}`);
    expect(reasons).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^2: entry u1: message\.content\[0\]\.text is null/),
        expect.stringMatching(/^4: entry r1: message\.content is an object, expected an array; ignored/),
        expect.stringMatching(/^5: entry a2: message\.content\[0\] is an object, expected an object whose type is/),
        expect.stringMatching(/^6: entry r2: message\.toolCallId is missing; read as empty/),
        expect.stringMatching(/^7: entry a3: message\.usage\.input is a string/),
      ]),
    );
    expect(bounded(() => everyStage(session))).toBe(3);
  });

  it("a 1e308 time and an unknown api string do not stop the analysis", () => {
    const session = pi([user("u1", null, "hi"), assistant("a1", "u1", [text("ok")], { timestamp: 1e308, api: "no-such-api" })]);
    expect(session.warnings.some((w) => /timestamp is the number 1e\+308/.test(w.reason))).toBe(true);
    expect(bounded(() => everyStage(session))).toBe(1);
    // The simulator's summariser request too (it read the api of the last assistant message).
    bounded(() => simulateCompaction({ session, options: PI, turn: 1, policyId: "pi", followingTurns: 0, manual: true }));
    const opencode = readSessionText(
      JSON.stringify({ info: { id: "ses_t", time: { created: 1e308 } }, messages: [{ info: { id: "m1", role: "user", time: { created: 1e308 } }, parts: [{ id: "p1", type: "text", text: "hi" }] }] }),
      "export.json",
    );
    bounded(() => analyzeSession(opencode, PI));
  });

  it("10,000-deep content is cut at the reader with a warning; every stage answers", () => {
    const deep = `${"[".repeat(10_000)}"x"${"]".repeat(10_000)}`;
    const file = [header, user("u1", null, "hi"), assistant("a1", "u1", [call]).replace('"ls"', deep), toolResult("r1", "a1", [text("out")]), assistant("a2", "r1", [text("done")])].join("\n");
    const session = bounded(() => readSessionText(file, "deep.jsonl"));
    expect(session.entries).toHaveLength(4);
    expect(session.warnings.some((w) => w.line === 3 && /nested more than 128 levels deep left out/.test(w.reason))).toBe(true);
    expect(JSON.stringify(session.entries[1]!.raw)).toContain(DEEP_VALUE_MARKER);
    expect(bounded(() => everyStage(session))).toBe(2);
  });

  it("a compaction id reused by a later entry: its replay line says so, the replay goes on", () => {
    const session = pi([
      user("u1", null, "first"),
      assistant("a1", "u1", [text("one")]),
      line({ type: "compaction", id: "c1", parentId: "a1", timestamp: "2026-01-01T00:00:04.000Z", summary: "s", firstKeptEntryId: "u1", tokensBefore: 10 }),
      user("u2", "c1", "second"),
      assistant("c1", "u2", [text("reuses the compaction's id")]),
    ]);
    const lines = bounded(() => replayRecordedCompactions(session, PI, "pi"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ verdict: "failed", error: expect.stringMatching(/not a compaction entry/) });
  });

  it("a parent cycle and reused ids: the turn list and the request builder agree; simulator and replay answer", () => {
    const session = pi([
      user("u1", "a2", "first"),
      assistant("a1", "u1", [text("one")]),
      line({ type: "compaction", id: "c1", parentId: "a1", timestamp: "2026-01-01T00:00:04.000Z", summary: "s", firstKeptEntryId: "u1", tokensBefore: 10 }),
      user("u2", "c1", "second"),
      assistant("a2", "u2", [text("two")]),
      assistant("a1", "a2", [text("reused id")]),
    ]);
    const turns = bounded(() => everyStage(session));
    expect(turns).toBeGreaterThan(0);
    bounded(() => replayRecordedCompactions(session, PI, "pi"));
    for (let turn = 1; turn <= turns; turn++) bounded(() => simulateCompaction({ session, options: PI, turn, policyId: "pi", followingTurns: 1 }));
  });

  it("reordered and dangling entries: every turn the analysis lists can be built", () => {
    const session = pi([assistant("a2", "u2", [text("two")]), user("u2", "a1", "second"), assistant("a1", "u1", [text("one")]), user("u1", "gone", "first")]);
    expect(bounded(() => everyStage(session, { ...PI, leafId: "a2" }))).toBe(2);
    // The default leaf (the last line) hangs off a parent that is not in the file: no turns, and none built.
    expect(bounded(() => everyStage(session))).toBe(0);
  });

  it("a 20 MB field is read and built within the bound", () => {
    const session = pi([user("u1", null, "hi"), assistant("a1", "u1", [call]), toolResult("r1", "a1", [text("word ".repeat(4_000_000))]), assistant("a2", "r1", [text("done")])]);
    const started = Date.now();
    for (const api of API_IDS) buildTurnRequest(session, { ...PI, api }, 2);
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});

it("the shared fixture folder is found when present (so the block above ran)", () => {
  expect(sharedFixtures() === null || typeof sharedFixtures()!.path === "function").toBe(true);
});
