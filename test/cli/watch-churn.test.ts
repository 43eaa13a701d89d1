// `watch` when the watched file is not simply appended to: lines of the same session appended are
// its next turns; lines of another session appended (Claude Code's sessionId, a Codex session_meta
// id) are said on standard error and followed as that session, from its turn 1; another file moved
// over the watched one and a rewrite in place are told by the file's identity and first bytes,
// said, and followed as the new session; an interrupt ends watch within a second even while it works.
import { appendFileSync, closeSync, mkdtempSync, openSync, renameSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { assistant, SESSION_ID, toText, user } from "../core/agents/claude-code/helpers";
import { killWatches, lines, sessionLines, startWatch, type Watch } from "./watch-helpers";

afterEach(killWatches);

const OTHER_ID = "99999999-8888-7777-6666-555555555555";

/** A small Claude Code session of `turns` turns, its lines naming `sessionId`. */
function claudeSession(sessionId: string, turns: number, prefix = "b"): string {
  const extra = { sessionId };
  const records: Record<string, unknown>[] = [];
  let parent: string | null = null;
  for (let turn = 1; turn <= turns; turn++) {
    const question = `${prefix}${turn}q`;
    const answer = `${prefix}${turn}a`;
    records.push(user(question, parent, `question ${turn}`, extra));
    records.push(assistant(answer, question, `msg_${prefix}${turn}`, [{ type: "text", text: `answer ${turn}` }], undefined, extra));
    parent = answer;
  }
  return `${toText(records)}\n`;
}

function tempFile(name: string): string {
  return path.join(mkdtempSync(path.join(tmpdir(), "cs-watch-churn-")), name);
}

/** The first session_meta id of a Codex rollout's lines. */
function codexId(rollout: string[]): string {
  const meta = JSON.parse(rollout[0]!) as { payload: { id: string } };
  return meta.payload.id;
}

/** Writes `content` to `file`, starts watch on it (with `args` after it) and waits for its start line. */
async function watchFrom(file: string, content: string, args: string[] = []): Promise<Watch> {
  writeFileSync(file, content);
  const watch = startWatch([file, ...args]);
  await watch.waitFor(() => watch.stderr().includes("watching"), "the start");
  return watch;
}

/** The turns the start line says the file held. */
function turnsSoFar(watch: Watch): number {
  return Number(/: (\d+) turns? so far/.exec(watch.stderr())?.[1]);
}

/** The turn numbers of the JSON lines printed so far. */
function printedTurns(watch: Watch): unknown[] {
  return lines(watch.stdout()).map((line) => line.turn);
}

/**
 * An interrupt ends watch: with exit code 0 when it came between polls, or by the signal itself
 * when a poll was working (no handler is installed then; on a loaded machine even a poll of an
 * unchanged file can be under way when the signal comes).
 */
async function expectInterruptEndsIt(watch: Watch): Promise<void> {
  watch.child.kill("SIGINT");
  const { code, signal } = await watch.ended();
  expect(signal === "SIGINT" || code === 0).toBe(true);
  if (signal === null) expect(code).toBe(0);
}

describe("contextscope watch, when the file changes other than by appending its session", () => {
  it("prints the same session's appended lines as its next turns, and says nothing on standard error", async () => {
    const all = sessionLines("claude/print-autocompact-manualcompact");
    const file = tempFile("s.jsonl");
    const half = Math.ceil(all.length / 2);
    const watch = await watchFrom(file, all.slice(0, half).join(""));
    const before = turnsSoFar(watch);
    appendFileSync(file, all.slice(half).join(""));
    await watch.waitFor(() => lines(watch.stdout()).length > 0, "the appended turns");
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(lines(watch.stdout())[0]!.turn).toBe(before + 1);
    // Only the start line: no notice of another session or a rewrite.
    expect(watch.stderr().trim().split("\n")).toHaveLength(1);
    await expectInterruptEndsIt(watch);
  }, 120_000);

  it("says when the lines appended to a Claude Code file are another session's, and prints that session's turns from turn 1", async () => {
    const file = tempFile("s.jsonl");
    const watch = await watchFrom(file, claudeSession(SESSION_ID, 3, "a"));
    expect(watch.stderr()).toContain(": 3 turns so far");
    appendFileSync(file, claudeSession(OTHER_ID, 2, "b"));
    await watch.waitFor(() => lines(watch.stdout()).length >= 2, "the other session's turns");
    expect(watch.stderr()).toContain(`${file}: the lines appended belong to another session (${OTHER_ID}, not ${SESSION_ID}); followed as that session\n`);
    expect(watch.stderr()).not.toContain("rewritten");
    expect(printedTurns(watch)).toEqual([1, 2]);
    // Followed as that session: its next line is its turn 3.
    const next = [user("b3q", "b2a", "question 3", { sessionId: OTHER_ID }), assistant("b3a", "b3q", "msg_b3", [{ type: "text", text: "answer 3" }], undefined, { sessionId: OTHER_ID })];
    appendFileSync(file, `${toText(next)}\n`);
    await watch.waitFor(() => lines(watch.stdout()).length >= 3, "the other session's next turn");
    expect(printedTurns(watch)).toEqual([1, 2, 3]);
    expect(watch.stderr().match(/another session/g)).toHaveLength(1);
    await expectInterruptEndsIt(watch);
  }, 120_000);

  it("says when the lines appended to a Codex rollout are another session's, never printing them as the first session's turns", async () => {
    const first = sessionLines("codex/exec-autocompact");
    const firstId = codexId(first);
    const secondId = "0199aaaa-bbbb-7ccc-8ddd-eeeeeeeeeeee";
    const second = first.map((line) => line.split(firstId).join(secondId));
    const file = tempFile("rollout.jsonl");
    const watch = await watchFrom(file, first.join(""), ["--format", "text"]);
    const before = turnsSoFar(watch);
    expect(before).toBeGreaterThan(1);
    appendFileSync(file, second.join(""));
    await watch.waitFor(() => watch.stdout().includes(`turn ${before} `), "the other session's turns");
    expect(watch.stderr()).toContain(`${file}: the lines appended belong to another session (${secondId}, not ${firstId}); followed as that session\n`);
    // The second session's turns, from its first: as many as the first had, none numbered past them.
    const printed = [...watch.stdout().matchAll(/^turn (\d+) /gm)].map((match) => Number(match[1]));
    expect(printed).toEqual(Array.from({ length: before }, (_, index) => index + 1));
    await expectInterruptEndsIt(watch);
  }, 120_000);

  it("tells another file moved over the watched one, says so, and follows it as the new session", async () => {
    const file = tempFile("s.jsonl");
    const watch = await watchFrom(file, claudeSession(SESSION_ID, 3, "a"));
    // A shorter file of another session, then a longer one: both are new files in its place.
    const replacement = `${file}.new`;
    writeFileSync(replacement, claudeSession(OTHER_ID, 2, "b"));
    renameSync(replacement, file);
    await watch.waitFor(() => lines(watch.stdout()).length >= 2, "the new file's turns");
    expect(watch.stderr()).toContain(`${file}: replaced by another file; followed as a new session (${OTHER_ID})\n`);
    expect(printedTurns(watch)).toEqual([1, 2]);
    const third = "77777777-6666-5555-4444-333333333333";
    writeFileSync(replacement, claudeSession(third, 4, "c"));
    renameSync(replacement, file);
    await watch.waitFor(() => lines(watch.stdout()).length >= 6, "the third file's turns");
    expect(watch.stderr()).toContain(`${file}: replaced by another file; followed as a new session (${third})\n`);
    expect(printedTurns(watch)).toEqual([1, 2, 1, 2, 3, 4]);
    await expectInterruptEndsIt(watch);
  }, 120_000);

  it("tells a rewrite in place that is not shorter from an append, rather than printing a blend of the two sessions", async () => {
    const file = tempFile("s.jsonl");
    const original = claudeSession(SESSION_ID, 2, "a");
    const watch = await watchFrom(file, original);
    // Another session written over it from byte 0, longer: the same file, its first bytes changed.
    const rewrite = Buffer.from(claudeSession(OTHER_ID, 3, "b"));
    expect(rewrite.length).toBeGreaterThan(original.length);
    const fd = openSync(file, "r+");
    writeSync(fd, rewrite, 0, rewrite.length, 0);
    closeSync(fd);
    await watch.waitFor(() => lines(watch.stdout()).length >= 3, "the rewritten file's turns");
    expect(watch.stderr()).toContain(`${file}: rewritten in place (its first bytes changed); followed as a new session (${OTHER_ID})\n`);
    expect(printedTurns(watch)).toEqual([1, 2, 3]);
    await expectInterruptEndsIt(watch);
  }, 120_000);

  it("ends within a second of an interrupt while it is busy reading and analysing a large append", async () => {
    const file = tempFile("s.jsonl");
    const watch = await watchFrom(file, claudeSession(SESSION_ID, 1, "a"));
    // Many turns with long texts at once: more work than one poll does in a second.
    const long = "word ".repeat(10_000);
    const records: Record<string, unknown>[] = [];
    let parent = "a1a";
    for (let turn = 2; turn <= 1500; turn++) {
      records.push(user(`a${turn}q`, parent, `${long}${turn}`));
      records.push(assistant(`a${turn}a`, `a${turn}q`, `msg_a${turn}`, [{ type: "text", text: `answer ${turn}` }]));
      parent = `a${turn}a`;
    }
    appendFileSync(file, `${toText(records)}\n`);
    // Long enough for the next poll to start on the append (watch polls every 100 ms), well before
    // it has read 75 MB and printed the newest turns.
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Still working: the last appended turn is not printed yet.
    expect(lines(watch.stdout()).some((line) => line.turn === 1500)).toBe(false);
    const sent = Date.now();
    watch.child.kill("SIGINT");
    const { code, signal } = await watch.ended();
    expect(Date.now() - sent).toBeLessThan(1000);
    // Ended by the interrupt itself (no handler runs during work), or by watch when it was between polls.
    expect(signal === "SIGINT" || code === 0).toBe(true);
  }, 120_000);
});

describe("contextscope watch, when it cannot print every turn or every session", () => {
  it("prints the newest 200 of more new turns at once and says how many it skipped", async () => {
    const file = tempFile("s.jsonl");
    const watch = await watchFrom(file, claudeSession(SESSION_ID, 1, "a"));
    // 250 turns of another file at once (moved in whole, so one poll sees all of them).
    const replacement = `${file}.new`;
    writeFileSync(replacement, claudeSession(OTHER_ID, 250, "b"));
    renameSync(replacement, file);
    await watch.waitFor(() => printedTurns(watch).includes(250), "the newest turn");
    expect(watch.stderr()).toContain(`${file}: 50 new turns skipped to keep up with the writer; the newest 200 printed\n`);
    expect(printedTurns(watch)).toEqual(Array.from({ length: 200 }, (_, index) => 51 + index));
    await expectInterruptEndsIt(watch);
  }, 120_000);

  it("reads a folder's sessions only when they change, comparing the first new turn with the turns there at the start", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "cs-watch-lazy-"));
    const changed = path.join(dir, "a.jsonl");
    writeFileSync(changed, claudeSession(SESSION_ID, 3, "a"));
    writeFileSync(path.join(dir, "b.jsonl"), claudeSession(OTHER_ID, 2, "b"));
    const watch = startWatch([dir]);
    await watch.waitFor(() => watch.stderr().includes("watching"), "the start");
    expect(watch.stderr()).toContain("(2 sessions): each read when it changes; Ctrl-C stops\n");
    const next = [user("a4q", "a3a", "question 4", { sessionId: SESSION_ID }), assistant("a4a", "a4q", "msg_a4", [{ type: "text", text: "answer 4" }], undefined, { sessionId: SESSION_ID })];
    appendFileSync(changed, `${toText(next)}\n`);
    await watch.waitFor(() => lines(watch.stdout()).length > 0, "the appended turn");
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Turn 4 of that file, not its turns 1 to 4: the three there at the start were read first, unprinted.
    expect(lines(watch.stdout()).map((line) => [line.file, line.turn])).toEqual([[changed, 4]]);
    expect(lines(watch.stdout())[0]!.break).toBeNull();
    await expectInterruptEndsIt(watch);
  }, 120_000);

  it("a Gemini CLI .json chat in a folder, rewritten whole with one more turn, prints that turn only", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "cs-watch-json-"));
    const chat = path.join(dir, "session-2026-12-03T09-00-s1.json");
    const meta = { sessionId: "s1", projectHash: "p".repeat(64), startTime: "2026-12-03T09:00:00.000Z", lastUpdated: "2026-12-03T09:00:00.000Z" };
    const pair = (n: number) => [
      { id: `u${n}`, timestamp: `2026-12-03T09:00:0${n}.000Z`, type: "user", content: [{ text: `question ${n}` }] },
      { id: `g${n}`, timestamp: `2026-12-03T09:00:0${n}.500Z`, type: "gemini", content: `answer ${n}`, tokens: { input: 10 * n, output: 1, cached: 0, thoughts: 0, tool: 0, total: 10 * n + 1 }, model: "gemini-2.5-flash" },
    ];
    writeFileSync(chat, JSON.stringify({ ...meta, messages: [...pair(1), ...pair(2)] }, null, 2));
    writeFileSync(path.join(dir, "b.jsonl"), claudeSession(OTHER_ID, 2, "b"));
    const watch = startWatch([dir]);
    await watch.waitFor(() => watch.stderr().includes("watching"), "the start");
    // Gemini CLI writes the whole document again, in place, with the new messages.
    writeFileSync(chat, JSON.stringify({ ...meta, messages: [...pair(1), ...pair(2), ...pair(3)] }, null, 2));
    await watch.waitFor(() => lines(watch.stdout()).length > 0, "the new turn");
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Turn 3 alone: the two turns there at the start were read when watching started.
    expect(lines(watch.stdout()).map((line) => [line.file, line.turn])).toEqual([[chat, 3]]);
    await expectInterruptEndsIt(watch);
  }, 120_000);
});
