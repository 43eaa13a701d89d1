// `scan` in-process (one thread, no worker entry): a folder holding a Claude Code session with its
// sub-agent file in `<id>/subagents/`, a Codex rollout, a pi session and a file that is not a
// session. One line per session with the documented keys in order; the sub-agent file is joined
// to its parent (not a line of its own); the pi fixture's two compactions are its two breaks;
// the other file is named as skipped; a missing input is an error. Databases (opencode.db with
// its -wal, a hermes-agent home) are found once each.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCliCaptured } from "./cli-helpers";
import { makeScanFolder, SCAN_KEYS } from "./scan-helpers";
import { discoverSessions } from "../../src/cli/scan/discover";
import { describeShared } from "../support/fixtures";

const OPENCODE_DB = "test/fixtures/opencode/run-autocompact/session/opencode-db";

describe("scan", () => {
  let folder: ReturnType<typeof makeScanFolder>;
  beforeAll(() => {
    folder = makeScanFolder();
  });
  afterAll(() => rmSync(folder.root, { recursive: true, force: true }));

  it("prints one line per session, sub-agent files joined to their parent, and names what it skipped", async () => {
    const run = await runCliCaptured(["scan", folder.root, "--tokenizer", "estimate"]);
    expect(run.code).toBe(0);
    expect(run.lines).toHaveLength(3);
    for (const line of run.lines) expect(Object.keys(line)).toEqual(SCAN_KEYS);
    const byFile = new Map(run.lines.map((line) => [line.file, line]));
    expect([...byFile.keys()].sort()).toEqual([folder.claudeMain, folder.codex, folder.pi].sort());

    const claude = byFile.get(folder.claudeMain)!;
    expect(claude).toMatchObject({ turns: 2, with: [folder.claudeSub], error: null });
    expect(claude.threads).toBeGreaterThanOrEqual(1);
    expect(claude.recordedCachedTokens).toBe(0);

    const pi = byFile.get(folder.pi)!;
    expect(pi).toMatchObject({ turns: 15, compactions: 2, breaks: 2, breaksByCause: { "history-rewritten": 2 }, threads: 0, with: [], tokenizer: "chars/4" });
    expect(pi.predictedCachedTokens).toBeGreaterThan(0);

    const codex = byFile.get(folder.codex)!;
    expect(codex.turns).toBeGreaterThan(0);
    expect(codex.error).toBeNull();

    expect(run.stderr).toContain(`skipped: ${folder.other}: not a session file of a supported agent`);
  });

  it("takes files as well as folders, and counts exact tokens by default", async () => {
    const run = await runCliCaptured(["scan", folder.pi]);
    expect(run.code).toBe(0);
    expect(run.lines).toHaveLength(1);
    expect(run.lines[0]).toMatchObject({ file: folder.pi, tokenizer: "o200k" });
    const prefix = await runCliCaptured(["prefix", folder.pi]);
    const sum = prefix.lines.reduce((total, line) => total + (line.tokens as number), 0);
    expect(run.lines[0]!.requestTokens).toBe(sum);
  });

  it("prices a session as prefix prices its turns: the recorded, predicted and break totals", async () => {
    // A sample with a priced model, and two prefix breaks.
    const sample = "public/samples/pi-english-compaction.jsonl";
    const run = await runCliCaptured(["scan", sample]);
    const prefix = await runCliCaptured(["prefix", sample]);
    type Priced = { status: string; dollars: number | null };
    const costs = prefix.lines.map((line) => line.cost as { recorded: Priced; predicted: Priced; break: Priced | null });
    const sum = (items: Priced[]) => items.reduce((total, item) => total + (item.dollars ?? 0), 0);
    const cost = run.lines[0]!.cost as { recorded: Priced; predicted: Priced; breaks: Priced };
    expect(costs.every((c) => c.recorded.status === "priced")).toBe(true);
    expect(cost.recorded.status).toBe("priced");
    expect(cost.recorded.dollars).toBeGreaterThan(0);
    expect(cost.recorded.dollars).toBeCloseTo(sum(costs.map((c) => c.recorded)), 12);
    expect(cost.predicted.dollars).toBeCloseTo(sum(costs.map((c) => c.predicted)), 12);
    const breaks = costs.flatMap((c) => (c.break ? [c.break] : []));
    expect(breaks.length).toBeGreaterThan(0);
    expect(cost.breaks.dollars).toBeCloseTo(sum(breaks), 12);
  });

  it("a session whose model has no price is not priced, never $0", async () => {
    const run = await runCliCaptured(["scan", folder.pi]);
    const cost = run.lines[0]!.cost as Record<string, { status: string; dollars: number | null }>;
    expect(cost.recorded).toEqual({ status: "not priced", dollars: null });
    expect(cost.predicted).toEqual({ status: "not priced", dollars: null });
  });

  it("takes several folders and files at once", async () => {
    const run = await runCliCaptured(["scan", path.dirname(folder.claudeMain), folder.pi, "--tokenizer", "estimate"]);
    expect(run.code).toBe(0);
    expect(run.lines.map((line) => line.file).sort()).toEqual([folder.claudeMain, folder.pi].sort());
  });

  it("is an error when an input does not exist or holds no session", async () => {
    const missing = await runCliCaptured(["scan", path.join(folder.root, "nope")]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/scan: .*nope: no such file or folder/);
    const none = await runCliCaptured(["scan", folder.other]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("no session files");
    const nothing = await runCliCaptured(["scan"]);
    expect(nothing.code).toBe(1);
  });
});

describe("scan of databases", () => {
  let root = "";
  beforeAll(() => {
    root = mkdtempSync(path.join(tmpdir(), "contextscope-scan-db-"));
    // A hermes-agent home: state.db with its sessions/ side files, read together as one session.
    const home = path.join(root, "hermes-home");
    mkdirSync(path.join(home, "sessions"), { recursive: true });
    copyFileSync("test/fixtures/hermes/storage/v30-state.db", path.join(home, "state.db"));
    for (const name of readdirSync("test/fixtures/hermes/storage/sessions")) {
      copyFileSync(path.join("test/fixtures/hermes/storage/sessions", name), path.join(home, "sessions", name));
    }
    // An opencode database with its write-ahead log beside it.
    const opencode = path.join(root, "opencode");
    mkdirSync(opencode);
    for (const name of readdirSync(OPENCODE_DB)) copyFileSync(path.join(OPENCODE_DB, name), path.join(opencode, name));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("finds each database once, its -wal and a hermes home's sessions/ read with it, not on their own", () => {
    const found = discoverSessions([root]);
    expect(found.jobs.map((job) => path.relative(root, job.file)).sort()).toEqual([path.join("hermes-home", "state.db"), path.join("opencode", "opencode.db")]);
    expect(found.skipped).toEqual([]);
  });

  it("prints a line per database with its agent", async () => {
    const run = await runCliCaptured(["scan", root, "--tokenizer", "estimate"]);
    expect(run.code).toBe(0);
    const agents = run.lines.map((line) => [path.basename(line.file as string), line.error]).sort();
    expect(agents).toEqual([
      ["opencode.db", null],
      ["state.db", null],
    ]);
    for (const line of run.lines) expect(line.turns as number).toBeGreaterThan(0);
  });
});

describeShared("scan of a Gemini CLI home", (shared) => {
  const CASE = "gemini-cli/p-resume-autocompress/session";
  const CHAT = "tmp/lighthouse-notes/chats/session-2026-12-03T09-09-04c32c61.jsonl";
  let root = "";
  beforeAll(() => {
    root = mkdtempSync(path.join(tmpdir(), "contextscope-scan-gemini-"));
    mkdirSync(path.join(root, path.dirname(CHAT)), { recursive: true });
    copyFileSync(shared.path(`${CASE}/${CHAT}`), path.join(root, CHAT));
    copyFileSync(shared.path(`${CASE}/projects.json`), path.join(root, "projects.json"));
    // A prompt log of another project's chats only, beside no session: named, not dropped.
    mkdirSync(path.join(root, "tmp", "other"), { recursive: true });
    writeFileSync(path.join(root, "tmp", "other", "logs.json"), JSON.stringify([{ sessionId: "elsewhere", messageId: 0, type: "user", message: "hi", timestamp: "2026-12-03T09:00:00.000Z" }]));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("reads projects.json with the chat below it (its project folder) and names a side file with no chat", async () => {
    const found = discoverSessions([root]);
    expect(found.jobs.map((job) => [path.relative(root, job.file), job.sideFiles.map((file) => path.relative(root, file))])).toEqual([[CHAT, ["projects.json"]]]);
    expect(found.skipped.map((skip) => [path.relative(root, skip.file), skip.reason])).toEqual([[path.join("tmp", "other", "logs.json"), "an agent's side file with no session of it in this folder or below"]]);
    const run = await runCliCaptured(["scan", root, "--tokenizer", "estimate"]);
    expect(run.code).toBe(0);
    expect(run.lines).toHaveLength(1);
    expect(run.lines[0]!.project).toBe("/home/dev/gemini-cli-p-resume-autocompress/lighthouse-notes");
    expect(run.lines[0]!.sideFiles).toEqual([path.join(root, "projects.json")]);
  });
});

describe("scan threads' shared job counter", () => {
  it("hands out every job index once, in order, then null", async () => {
    const { takeJob } = await import("../../src/cli/threads/scanWorker");
    const next = new Int32Array(new SharedArrayBuffer(4));
    const taken: (number | null)[] = [];
    for (let i = 0; i < 5; i++) taken.push(takeJob(next, 3));
    expect(taken).toEqual([0, 1, 2, null, null]);
  });
});
