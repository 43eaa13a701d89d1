// `requests` on every agent format: Claude Code and Codex JSONL, the opencode export and
// the opencode SQLite database (async load, `<db>-wal` applied, `--session`), run in-process on the
// fixtures in test/fixtures. Each main request's conversation must equal the recorded request.
import { copyFileSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isNotRecorded } from "../../src/core/model";
import { runCliCaptured } from "./cli-helpers";
import { fixtureCase, fixturePath } from "../support/fixtures";

/** Recorded request bodies of a fixture, by kind (`main`, `summary`, `title`), in sequence order. */
function recorded(fixture: string, kind: string): Record<string, unknown>[] {
  return fixtureCase(fixture)
    .requests(kind)
    .map((request) => request.body);
}

const turnLines = (lines: Record<string, unknown>[]) => lines.filter((line) => "turn" in line);
const bodyOf = (line: Record<string, unknown>) => line.request as Record<string, unknown>;

const CLAUDE = fixtureCase("claude/print-autocompact-manualcompact").sessionPath;
const CODEX = fixtureCase("codex/exec-autocompact").sessionPath;
const OPENCODE = fixtureCase("opencode/run-autocompact");
const OPENCODE_EXPORT = OPENCODE.path("session/export.json");
const OPENCODE_DB = OPENCODE.path("session/opencode-db/opencode.db");

describe("requests on Claude Code", () => {
  it("prints 15 turns whose messages equal the recorded main requests, and both compactions", async () => {
    const run = await runCliCaptured(["requests", CLAUDE]);
    expect(run.code).toBe(0);
    const turns = turnLines(run.lines);
    const expected = recorded("claude/print-autocompact-manualcompact", "main");
    expect(turns).toHaveLength(15);
    expect(expected).toHaveLength(15);
    turns.forEach((line, i) => expect(bodyOf(line).messages, `turn ${i + 1}`).toEqual(expected[i]!.messages));
    const compactions = run.lines.filter((line) => line.kind === "compaction");
    expect(compactions.map((line) => line.beforeTurn)).toEqual([9, 14]);
    // Not pi: no attempt at pi's summariser rebuild, so no warning about it.
    expect(run.stderr).not.toMatch(/compaction entry/);
  });
});

describe("requests on Codex", () => {
  it("prints 15 turns whose input equals the recorded main requests (base item id aside)", async () => {
    const run = await runCliCaptured(["requests", CODEX]);
    expect(run.code).toBe(0);
    const turns = turnLines(run.lines);
    const expected = recorded("codex/exec-autocompact", "main");
    expect(turns).toHaveLength(15);
    turns.forEach((line, i) => {
      const input = bodyOf(line).input as Record<string, unknown>[];
      const want = expected[i]!.input as Record<string, unknown>[];
      expect(input.slice(1), `turn ${i + 1}`).toEqual(want.slice(1));
      expect({ ...input[0], id: null }).toEqual({ ...want[0], id: null });
    });
    expect(run.lines.filter((line) => line.kind === "compaction").map((line) => line.beforeTurn)).toEqual([9]);
    expect(run.stderr).not.toMatch(/compaction entry/);
  });
});

describe("requests on opencode", () => {
  function checkOpencodeRun(lines: Record<string, unknown>[]) {
    const turns = turnLines(lines);
    const expected = recorded("opencode/run-autocompact", "main");
    expect(turns).toHaveLength(17);
    turns.forEach((line, i) => {
      const messages = bodyOf(line).messages as Record<string, unknown>[];
      const want = expected[i]!.messages as Record<string, unknown>[];
      expect(isNotRecorded(messages[0]!.content), `turn ${i + 1} system`).toBe(true);
      expect(messages.slice(1), `turn ${i + 1}`).toEqual(want.slice(1));
    });
    // Auxiliary requests in timeline order: the title request before turn 1, a summariser request
    // after each compaction event.
    const kinds = lines.filter((line) => !("turn" in line)).map((line) => `${String(line.kind)}:${String(line.purpose ?? "")}:${String(line.beforeTurn)}`);
    expect(kinds).toEqual(["auxiliary:title:1", "compaction::9", "auxiliary:summary:9", "compaction::14", "auxiliary:summary:14"]);
    const firstLine = lines[0]!;
    expect(firstLine.kind).toBe("auxiliary");
    const title = recorded("opencode/run-autocompact", "title")[0]!;
    expect((bodyOf(firstLine).messages as unknown[]).slice(1)).toEqual((title.messages as unknown[]).slice(1));
    const summary = lines.find((line) => line.kind === "auxiliary" && line.purpose === "summary")!;
    expect((summary.summariser as { conversation: string }).conversation.length).toBeGreaterThan(100);
  }

  it("reads the export JSON", async () => {
    const run = await runCliCaptured(["requests", OPENCODE_EXPORT]);
    expect(run.code).toBe(0);
    checkOpencodeRun(run.lines);
  });

  it("reads the SQLite database with its -wal applied, the same requests as the export", async () => {
    const fromDb = await runCliCaptured(["requests", OPENCODE_DB]);
    expect(fromDb.code).toBe(0);
    expect(fromDb.stderr).not.toMatch(/without its -wal/);
    checkOpencodeRun(fromDb.lines);
    const fromExport = await runCliCaptured(["requests", OPENCODE_EXPORT]);
    expect(turnLines(fromDb.lines)).toEqual(turnLines(fromExport.lines));
  });

  it("reads opencode's data folder through the opencode.db it holds, and names what a folder should hold", async () => {
    const fromFolder = await runCliCaptured(["requests", path.dirname(OPENCODE_DB)]);
    expect(fromFolder.code).toBe(0);
    const fromDb = await runCliCaptured(["requests", OPENCODE_DB]);
    expect(turnLines(fromFolder.lines)).toEqual(turnLines(fromDb.lines));
    const empty = await runCliCaptured(["requests", mkdtempSync(path.join(tmpdir(), "contextscope-nodb-"))]);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toMatch(/is a directory \(a folder is read through the database it holds: .*opencode\.db \(opencode\).*state\.db \(hermes-agent\); this one holds none\)/);
  });

  it("picks a session with --session and refuses an unknown one", async () => {
    const exported = JSON.parse(readFileSync(OPENCODE_EXPORT, "utf8")) as { info: { id: string } };
    const chosen = await runCliCaptured(["requests", OPENCODE_DB, "--session", exported.info.id, "--turn", "2"]);
    expect(chosen.code).toBe(0);
    expect(turnLines(chosen.lines).map((line) => line.turn)).toEqual([2]);
    const unknown = await runCliCaptured(["requests", OPENCODE_DB, "--session", "ses_nope"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no session ses_nope/);
  });

  it("warns that rows may be missing when the database has no -wal next to it", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "contextscope-db-"));
    const alone = path.join(dir, "opencode.db");
    copyFileSync(OPENCODE_DB, alone);
    const run = await runCliCaptured(["requests", alone]);
    expect(run.stderr).toMatch(/opened without its -wal file/);
    // The fixture's main file already holds every row (checkpointed); what it holds is printed.
    expect(run.code).toBe(0);
    expect(turnLines(run.lines)).toHaveLength(17);
  });

  it("reads rows that exist only in the -wal file, and only the main file's rows without it", async () => {
    const synthetic = fixturePath("opencode/wal-synthetic/opencode.db");
    // ses_b (newest, the default) exists only in the WAL; ses_a gains its second turn there.
    const withWal = await runCliCaptured(["requests", synthetic]);
    expect(withWal.stderr).toMatch(/holds 2 sessions; showing the most recently updated one \(ses_b\)/);
    const sessionA = await runCliCaptured(["requests", synthetic, "--session", "ses_a"]);
    expect(turnLines(sessionA.lines)).toHaveLength(2);
    const dir = mkdtempSync(path.join(tmpdir(), "contextscope-db-"));
    copyFileSync(synthetic, path.join(dir, "opencode.db"));
    const mainOnly = await runCliCaptured(["requests", path.join(dir, "opencode.db")]);
    expect(mainOnly.stderr).toMatch(/opened without its -wal file/);
    expect(mainOnly.stderr).not.toMatch(/holds 2 sessions/);
    expect(turnLines(mainOnly.lines)).toHaveLength(1);
  });

  it("refuses a lone -wal file and --session on a text session, naming what was expected", async () => {
    const wal = await runCliCaptured(["requests", `${OPENCODE_DB}-wal`]);
    expect(wal.code).toBe(1);
    expect(wal.stderr).toMatch(/write-ahead log; give the database itself \(opencode\.db\)/);
    const text = await runCliCaptured(["requests", CLAUDE, "--session", "x"]);
    expect(text.code).toBe(1);
    expect(text.stderr).toMatch(/--session picks a session of the database of Kilo, opencode, Crush or hermes-agent/);
  });
});
