// `watch` as a real process on a file the test appends to: the turns already there are not
// printed, each turn appended afterwards is printed once, as JSON or as text, and an interrupt
// ends it with status 0. A folder is followed too, a session that appears in it included, and a
// session's sub-agent files are followed with it (their turns printed under the session's file).
import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/fixtures";
import { assistant, toText, user } from "../core/agents/claude-code/helpers";
import { makeScanFolder } from "./scan-helpers";
import { killWatches, lines, sessionLines, startWatch } from "./watch-helpers";

afterEach(killWatches);

describe("contextscope watch", () => {
  it("prints one JSON line per turn appended to the file, then stops on an interrupt", async () => {
    const all = sessionLines("pi/print-openai-autocompact");
    const dir = mkdtempSync(path.join(tmpdir(), "cs-watch-"));
    const file = path.join(dir, "session.jsonl");
    writeFileSync(file, all.slice(0, 22).join(""));
    const watch = startWatch([file]);
    await watch.waitFor(() => watch.stderr().includes("watching"), "the start");
    const before = Number(/: (\d+) turns? so far/.exec(watch.stderr())?.[1]);
    expect(before).toBeGreaterThan(0);
    expect(lines(watch.stdout())).toEqual([]);
    // The rest, as an agent writes it: a line in two writes, then the others.
    const next = all[22]!;
    appendFileSync(file, next.slice(0, 40));
    await new Promise((resolve) => setTimeout(resolve, 400));
    appendFileSync(file, next.slice(40) + all.slice(23).join(""));
    await watch.waitFor(() => lines(watch.stdout()).some((line) => line.turn === 15), "turn 15");
    const printed = lines(watch.stdout());
    expect(printed.map((line) => line.turn)).toEqual(Array.from({ length: 15 - before }, (_, index) => before + 1 + index));
    for (const line of printed) {
      expect(Object.keys(line)).toEqual(["turn", "timestamp", "model", "tokens", "cachedTokens", "break", "afterCompaction", "cost"]);
      expect(line.tokens).toBeGreaterThan(0);
    }
    // The session compacts in the part appended: the turn after it says so, and breaks the prefix.
    const afterCompaction = printed.find((line) => line.afterCompaction === true);
    expect(afterCompaction?.break).toMatchObject({ cause: expect.any(String) });
    watch.child.kill("SIGINT");
    expect(await watch.exit()).toBe(0);
  }, 120_000);

  it("follows a folder of sessions of several agents in text, a new session included", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "cs-watch-dir-"));
    mkdirSync(path.join(dir, "claude"));
    const claude = sessionLines("claude/print-autocompact-manualcompact");
    const claudeFile = path.join(dir, "claude", "s.jsonl");
    writeFileSync(claudeFile, claude.slice(0, Math.ceil(claude.length / 2)).join(""));
    const watch = startWatch([dir, "--format", "text"]);
    await watch.waitFor(() => watch.stderr().includes("watching"), "the start");
    expect(watch.stderr()).toContain("(1 session)");
    appendFileSync(claudeFile, claude.slice(Math.ceil(claude.length / 2)).join(""));
    const codex = sessionLines("codex/exec-autocompact");
    writeFileSync(path.join(dir, "rollout.jsonl"), codex.join(""));
    await watch.waitFor(() => watch.stdout().includes("rollout.jsonl  turn 1 "), "the new Codex session");
    await watch.waitFor(() => watch.stdout().includes(`${claudeFile}  turn`), "the Claude Code turns");
    expect(watch.stderr()).toContain(`new session: ${path.join(dir, "rollout.jsonl")}`);
    expect(watch.stdout()).toMatch(/turn \d+ {2}[\d,]+ tokens {2}(predicted )?cached [\d,?]+ {2}(\$\d|not priced)/);
    watch.child.kill("SIGINT");
    expect(await watch.exit()).toBe(0);
  }, 120_000);

  it("prints a sub-agent file's new turns under its session's file with the thread's label, never as a session of its own", async () => {
    const folder = makeScanFolder();
    const watch = startWatch([folder.root]);
    await watch.waitFor(() => watch.stderr().includes("watching"), "the start");
    // The Claude Code session, the pi session and the Codex rollout; the sub-agent file goes with its session.
    expect(watch.stderr()).toContain("(3 sessions, with 1 sub-agent file)");
    const sidechain = { isSidechain: true, agentId: "agent2" };
    // (the helper's text ends without a newline: the agent's next line starts with one)
    appendFileSync(folder.claudeSub, "\n" + toText([user("f3", "f2", "and the lint?", sidechain), assistant("f4", "f3", "msg_f2", [{ type: "text", text: "lint passes" }], undefined, sidechain)]));
    await watch.waitFor(() => lines(watch.stdout()).length > 0, "the sub-agent's new turn");
    const [line] = lines(watch.stdout());
    expect(line).toMatchObject({ file: folder.claudeMain, thread: expect.stringContaining("Check tests"), turn: 2 });
    expect(Object.keys(line!).slice(0, 3)).toEqual(["file", "thread", "turn"]);
    // A sub-agent file written later joins its session too.
    const third = path.join(path.dirname(folder.claudeSub), "agent-agent3.jsonl");
    const other = { isSidechain: true, agentId: "agent3" };
    writeFileSync(third, `${toText([user("g1", null, "write docs", other), assistant("g2", "g1", "msg_g1", [{ type: "text", text: "done" }], undefined, other)])}\n`);
    await watch.waitFor(() => watch.stderr().includes("new sub-agent file"), "the new sub-agent file");
    expect(watch.stderr()).toContain(`new sub-agent file: ${third} (of ${folder.claudeMain})`);
    expect(watch.stderr()).not.toContain(`new session: ${third}`);
    await watch.waitFor(() => lines(watch.stdout()).length > 1, "the new sub-agent file's turn");
    expect(lines(watch.stdout())[1]).toMatchObject({ file: folder.claudeMain, thread: expect.any(String), turn: 1 });
    watch.child.kill("SIGINT");
    expect(await watch.exit()).toBe(0);
  }, 120_000);

  it("watching a database also reads its -wal: rows written to the -wal are turns", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "cs-watch-db-"));
    // A generated database whose newest rows are only in its -wal (test/fixtures/opencode/wal-synthetic/make.py).
    const source = path.join(REPO_ROOT, "test/fixtures/opencode/wal-synthetic");
    const db = path.join(dir, "opencode.db");
    // The database alone first (its newest rows are in the -wal), then the -wal appears, as when opencode writes.
    copyFileSync(path.join(source, "opencode.db"), db);
    const watch = startWatch([db]);
    await watch.waitFor(() => watch.stderr().includes("watching"), "the start");
    const before = Number(/: (\d+) turns? so far/.exec(watch.stderr())?.[1]);
    copyFileSync(path.join(source, "opencode.db-wal"), `${db}-wal`);
    await watch.waitFor(() => lines(watch.stdout()).length > 0, "the turns in the -wal");
    // The session followed stays the one watching started on (the -wal also holds a newer session).
    const printed = lines(watch.stdout());
    expect(before).toBe(1);
    expect(printed.map((line) => line.turn)).toEqual([2]);
    watch.child.kill("SIGINT");
    expect(await watch.exit()).toBe(0);
  }, 120_000);
});
