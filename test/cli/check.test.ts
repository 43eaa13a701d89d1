// `check` command: JSON lines with the documented keys, then the summary record of what the file
// holds; `--fail-on` exit status on a session with an unexpected prefix break
// (pi/check-thinking-change) and one without (pi/check-steady), and on record types this version
// does not read (claude/structures/unknown-types.jsonl); the GitHub annotation format, and the
// recorded pi fixtures (compactions are expected breaks).
import { describe, expect, it } from "vitest";
import { githubAnnotation } from "../../src/cli/commands/check";
import type { CheckFinding } from "../../src/core/check";
import { fixtureCase, fixturePath } from "../support/fixtures";
import { runCliCaptured } from "./cli-helpers";

const KEYS = ["turn", "kind", "severity", "message", "line", "entryId", "path", "cause", "ruleId", "serverVerdict", "serverMissedTokens"];

/** The finding lines of a run (the summary record of what the file holds is the last line, without a kind). */
const findingsOf = (lines: Record<string, unknown>[]) => lines.filter((line) => "kind" in line);

describe("check --fail-on", () => {
  const broken = fixtureCase("pi/check-thinking-change").sessionPath;
  const steady = fixtureCase("pi/check-steady").sessionPath;

  it("exits 1 on a session with an unexpected prefix break, naming the turn and its line", async () => {
    const run = await runCliCaptured(["check", broken, "--fail-on", "unexpected-prefix-break"]);
    expect(run.code).toBe(1);
    expect(findingsOf(run.lines)).toHaveLength(1);
    const line = run.lines[0]!;
    expect(Object.keys(line)).toEqual(KEYS);
    expect(line).toMatchObject({ turn: 2, kind: "unexpected-prefix-break", severity: "error", line: 8, entryId: "a2", cause: "settings-changed" });
    expect(line.message).toContain("reasoning_effort");
    expect(run.stderr).toContain("1 finding(s) of a --fail-on kind (unexpected-prefix-break)");
  });

  it("exits 0 on the same session without the break, and without --fail-on", async () => {
    const clean = await runCliCaptured(["check", steady, "--fail-on", "unexpected-prefix-break,compaction-no-reduction"]);
    expect(clean.code).toBe(0);
    expect(findingsOf(clean.lines)).toEqual([]);
    const reportOnly = await runCliCaptured(["check", broken]);
    expect(reportOnly.code).toBe(0);
    expect(findingsOf(reportOnly.lines)).toHaveLength(1);
  });

  it("ends with the summary record of what the file holds: types read, skipped on purpose, unknown", async () => {
    const run = await runCliCaptured(["check", steady]);
    expect(run.lines).toHaveLength(findingsOf(run.lines).length + 1);
    const summary = run.lines[run.lines.length - 1]!;
    expect(Object.keys(summary)).toEqual(["summary", "agent", "versions", "newestVerified", "newerThanVerified", "read", "skipped", "unknown"]);
    expect(summary).toMatchObject({ summary: "records", agent: "pi / senpi", newestVerified: "0.73.1", newerThanVerified: null, unknown: [] });
    expect(summary.read).toContainEqual({ type: "message", count: expect.any(Number) });
  });

  it("--fail-on unknown-records exits 1 on a file with record types this version does not read, one finding per type", async () => {
    const file = fixturePath("claude/structures/unknown-types.jsonl");
    const run = await runCliCaptured(["check", file, "--fail-on", "unknown-records"]);
    expect(run.code).toBe(1);
    expect(findingsOf(run.lines)).toEqual([
      expect.objectContaining({ kind: "unknown-records", severity: "warning", line: 2, message: '2 lines of record type "future-record", which this version of Contextscope does not read (first on line 2)' }),
      expect.objectContaining({ kind: "unknown-records", line: 5 }),
    ]);
    expect(run.lines[run.lines.length - 1]).toMatchObject({ summary: "records", agent: "Claude Code", versions: ["2.1.143"], unknown: [{ type: "future-record", count: 2, firstLine: 2 }, { type: "another-new-record", count: 1, firstLine: 5 }] });
    expect(run.stderr).toContain("2 finding(s) of a --fail-on kind (unknown-records)");
    const known = await runCliCaptured(["check", fixturePath("claude/structures/metadata-lines.jsonl"), "--fail-on", "unknown-records"]);
    expect(known.code).toBe(0);
    expect(findingsOf(known.lines)).toEqual([]);
  });

  it("says in its summary record, and as a notice in GitHub format, when the file's agent version is newer than the newest verified", async () => {
    const file = fixturePath("claude/structures/newer-version.jsonl");
    const run = await runCliCaptured(["check", file]);
    expect(run.lines[run.lines.length - 1]).toMatchObject({
      summary: "records",
      versions: ["2.1.332", "2.1.400"],
      newestVerified: "2.1.332",
      newerThanVerified: "Claude Code 2.1.400 is newer than the newest version verified, 2.1.332",
    });
    const github = await runCliCaptured(["check", file, "--format", "github"]);
    expect(github.stdout).toContain("title=agent version::Claude Code 2.1.400 is newer than the newest version verified, 2.1.332");
    const older = await runCliCaptured(["check", fixturePath("claude/structures/unknown-types.jsonl")]);
    expect(older.lines[older.lines.length - 1]).toMatchObject({ versions: ["2.1.143"], newerThanVerified: null });
  });

  it("rejects an unknown kind, listing the kinds", async () => {
    const run = await runCliCaptured(["check", steady, "--fail-on", "unexpected-break"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('unknown kind "unexpected-break"');
    expect(run.stderr).toContain("unexpected-prefix-break");
  });
});

describe("check --format github", () => {
  it("prints one annotation per finding with the session file and line", async () => {
    const file = fixtureCase("pi/check-thinking-change").sessionPath;
    const run = await runCliCaptured(["check", file, "--format", "github", "--fail-on", "unexpected-prefix-break"]);
    expect(run.code).toBe(1);
    const lines = run.stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^::error file=[^,]+check-thinking-change[^,]+session\.jsonl,line=8,title=unexpected-prefix-break \(turn 2\)::unexpected prefix break: settings changed/);
  });

  it("escapes the workflow-command characters and maps info to notice", () => {
    const finding: CheckFinding = {
      turn: null,
      kind: "read-warning",
      severity: "info",
      message: "100% bad\nline",
      line: null,
      entryId: null,
      path: null,
      cause: null,
      ruleId: null,
      serverVerdict: null,
      serverMissedTokens: null,
    };
    expect(githubAnnotation(finding, "a,b:c.jsonl")).toBe("::notice file=a%2Cb%3Ac.jsonl,title=read-warning::100%25 bad%0Aline");
  });
});

describe.each(["pi/print-openai-autocompact", "pi/rpc-anthropic-manualcompact"])("check on %s", (name) => {
  it("reports each compaction as an expected break and passes the gate", async () => {
    const run = await runCliCaptured(["check", fixtureCase(name).sessionPath, "--fail-on", "unexpected-prefix-break,compaction-no-reduction,note-moved"]);
    expect(run.code).toBe(0);
    const breaks = run.lines.filter((line) => line.kind === "expected-prefix-break");
    expect(breaks.length).toBe(2);
    for (const line of breaks) {
      expect(line.cause).toBe("history-rewritten");
      expect(typeof line.line).toBe("number");
    }
  });
});
