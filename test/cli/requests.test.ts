// `requests` command: the key check (one line per main request, messages equal to the
// recorded requests, with and without a header), compaction lines, errors and warnings, and one
// end-to-end run as a child process.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { isNotRecorded } from "../../src/core/model";
import { runCliCaptured } from "./cli-helpers";
import { committedFixtures, describeShared, REPO_ROOT, type FixtureRoot } from "../support/fixtures";

interface Recorded {
  sessionFile: string;
  requestFile: (n: number) => string;
  mainRequests: Record<string, unknown>[];
  mainRequestTexts: string[];
  summaryRequests: number[];
}

function loadRecorded(root: FixtureRoot, name: string): Recorded {
  const fixture = root.case(`pi/${name}`);
  const mains = fixture.requests("main");
  return {
    sessionFile: fixture.sessionPath,
    requestFile: fixture.requestPath,
    mainRequests: mains.map((request) => request.body),
    mainRequestTexts: mains.map((request) => request.text),
    summaryRequests: fixture.requests("summary").map((request) => request.number),
  };
}

const turnLines = (lines: Record<string, unknown>[]) => lines.filter((l) => "turn" in l);

/** The key check, on one fixture root (committed or shared). */
function keyCheck(root: FixtureRoot, name: string) {
  it(`${name}: with --header, one line per main request and messages equal to the recorded ones`, async () => {
    const recorded = loadRecorded(root, name);
    const run = await runCliCaptured(["requests", recorded.sessionFile, "--header", recorded.requestFile(1)]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    const turns = turnLines(run.lines);
    expect(turns).toHaveLength(recorded.mainRequests.length);
    expect(turns).toHaveLength(15);
    turns.forEach((line, i) => {
      expect(Object.keys(line)).toEqual(["turn", "request", "cost", "composition"]);
      expect(line.turn).toBe(i + 1);
      expect((line.request as { messages: unknown }).messages).toEqual(recorded.mainRequests[i]!.messages);
      // The whole body too, byte for byte (the header supplies system prompt, tools and cap).
      expect(JSON.stringify(line.request)).toBe(recorded.mainRequestTexts[i]);
    });
  });

  it(`${name}: without --header, messages after the system slot are equal and the system slot is a marker`, async () => {
    const recorded = loadRecorded(root, name);
    const run = await runCliCaptured(["requests", recorded.sessionFile]);
    expect(run.code).toBe(0);
    const turns = turnLines(run.lines);
    expect(turns).toHaveLength(15);
    turns.forEach((line, i) => {
      const rebuilt = (line.request as { messages: { content: unknown }[] }).messages;
      const expected = recorded.mainRequests[i]!.messages as unknown[];
      if (name.startsWith("print-openai")) {
        // Chat Completions: the system prompt is messages[0].
        expect(rebuilt.slice(1)).toEqual(expected.slice(1));
        expect(isNotRecorded(rebuilt[0]!.content)).toBe(true);
      } else {
        // Anthropic: the system prompt is the top-level `system`; messages are all recorded.
        expect(rebuilt).toEqual(expected);
        expect(JSON.stringify((line.request as { system: unknown }).system)).toContain("$notRecorded");
      }
    });
  });
}

describe("requests on the fixture copies in test/fixtures", () => {
  keyCheck(committedFixtures, "print-openai-autocompact");
  keyCheck(committedFixtures, "rpc-anthropic-manualcompact");
});

describeShared("requests on the original fixtures in ../shared/fixtures", (shared) => {
  keyCheck(shared, "print-openai-autocompact");
  keyCheck(shared, "rpc-anthropic-manualcompact");
});

describe("requests: compaction lines", () => {
  it("emits compaction lines in timeline order; with captured instructions they equal the recorded summariser requests", async () => {
    const recorded = loadRecorded(committedFixtures, "print-openai-autocompact");
    const run = await runCliCaptured([
      "requests",
      recorded.sessionFile,
      "--reserve-tokens",
      "11600",
      "--keep-recent-tokens",
      "1800",
      ...recorded.summaryRequests.flatMap((n) => ["--compaction-instructions", recorded.requestFile(n)]),
    ]);
    expect(run.code).toBe(0);
    const order = run.lines.map((l) => ("turn" in l ? `t${String(l.turn)}` : `c${String(l.beforeTurn)}`));
    expect(order).toEqual(["t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "c9", "t9", "t10", "t11", "t12", "c13", "t13", "t14", "t15"]);
    const compactions = run.lines.filter((l) => l.kind === "compaction");
    expect(compactions.map((c) => Object.keys(c))).toEqual([
      ["kind", "entryId", "beforeTurn", "requests"],
      ["kind", "entryId", "beforeTurn", "requests"],
    ]);
    expect(compactions.map((c) => c.entryId)).toEqual(["d031100d", "2ca2e615"]);
    const bodies = compactions.flatMap((c) => c.requests as unknown[]);
    expect(bodies.map((b) => JSON.stringify(b))).toEqual(recorded.summaryRequests.map((n) => readFileSync(recorded.requestFile(n), "utf8")));
  });

  it("rpc-anthropic: the second compaction has two requests and takes its focus from --compaction-focus", async () => {
    const recorded = loadRecorded(committedFixtures, "rpc-anthropic-manualcompact");
    const run = await runCliCaptured([
      "requests",
      recorded.sessionFile,
      "--reserve-tokens=4000",
      ...recorded.summaryRequests.flatMap((n) => ["--compaction-instructions", recorded.requestFile(n)]),
      "--compaction-focus",
      "6a015245=Focus on which files were read and which were written.",
    ]);
    expect(run.code).toBe(0);
    const bodies = run.lines.filter((l) => l.kind === "compaction").flatMap((c) => c.requests as unknown[]);
    expect(bodies.map((b) => JSON.stringify(b))).toEqual(recorded.summaryRequests.map((n) => readFileSync(recorded.requestFile(n), "utf8")));
  });

  it("--turn N prints only that turn", async () => {
    const recorded = loadRecorded(committedFixtures, "print-openai-autocompact");
    const run = await runCliCaptured(["requests", recorded.sessionFile, "--turn", "9", "--header", recorded.requestFile(1)]);
    expect(run.code).toBe(0);
    expect(run.lines).toHaveLength(1);
    expect(run.lines[0]!.turn).toBe(9);
    expect((run.lines[0]!.request as { messages: unknown }).messages).toEqual(recorded.mainRequests[8]!.messages);
  });

  it("--provider renders another wire shape", async () => {
    const recorded = loadRecorded(committedFixtures, "print-openai-autocompact");
    const run = await runCliCaptured(["requests", recorded.sessionFile, "--turn", "1", "--provider", "anthropic-messages"]);
    expect(run.code).toBe(0);
    expect(Object.keys(run.lines[0]!.request as object)).toContain("max_tokens");
  });
});

describe("requests: errors, warnings, help", () => {
  it("missing file → exit 1 with one error line", async () => {
    const run = await runCliCaptured(["requests", path.join(REPO_ROOT, "does-not-exist.jsonl")]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toMatch(/^error: cannot read session file .*no such file/);
  });

  it("unsupported input → exit 1", async () => {
    const run = await runCliCaptured(["requests", path.join(REPO_ROOT, "package.json")]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^error: unsupported input: /);
  });

  it("bad arguments → exit 1 (unknown option, bad --turn, --turn past the end, unknown command, no file)", async () => {
    const recorded = loadRecorded(committedFixtures, "print-openai-autocompact");
    for (const argv of [
      ["requests", recorded.sessionFile, "--bogus"],
      ["requests", recorded.sessionFile, "--turn", "x"],
      ["requests", recorded.sessionFile, "--turn", "99"],
      ["requests", recorded.sessionFile, "--profile", "other"],
      ["requests", recorded.sessionFile, "--leaf", "nope"],
      ["frobnicate", recorded.sessionFile],
      ["requests"],
      [],
    ]) {
      const run = await runCliCaptured(argv);
      expect(run.code, argv.join(" ")).toBe(1);
      expect(run.stdout, argv.join(" ")).toBe("");
    }
  });

  it("reader warnings go to stderr as 'warning: line N: reason' and the good entries are still used", async () => {
    const recorded = loadRecorded(committedFixtures, "print-openai-autocompact");
    const lines = readFileSync(recorded.sessionFile, "utf8").split("\n");
    lines.splice(5, 0, "{this is not json");
    const dir = mkdtempSync(path.join(tmpdir(), "contextscope-cli-"));
    const file = path.join(dir, "broken.jsonl");
    writeFileSync(file, lines.join("\n"));
    const run = await runCliCaptured(["requests", file]);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^warning: line 6: /m);
    expect(turnLines(run.lines)).toHaveLength(15);
  });

  it("--help prints usage and exits 0", async () => {
    const main = await runCliCaptured(["--help"]);
    expect(main.code).toBe(0);
    expect(main.stdout).toContain("requests");
    const sub = await runCliCaptured(["requests", "--help"]);
    expect(sub.code).toBe(0);
    expect(sub.stdout).toContain("--compaction-instructions");
  });
});

describe("end to end", () => {
  it("npx tsx src/cli/main.ts requests <fixture> runs as a child process", async () => {
    const recorded = loadRecorded(committedFixtures, "rpc-anthropic-manualcompact");
    const { stdout, stderr } = await promisify(execFile)("npx", ["tsx", "src/cli/main.ts", "requests", recorded.sessionFile], {
      cwd: REPO_ROOT,
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(stderr).toBe("");
    const lines = stdout.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.filter((l) => "turn" in l)).toHaveLength(15);
    expect(lines.filter((l) => l.kind === "compaction").map((l) => l.entryId)).toEqual(["be3cec52", "6a015245"]);
  });

  it("a bad argument makes the child process exit with status 1", async () => {
    const error = await promisify(execFile)("npx", ["tsx", "src/cli/main.ts", "requests"], { cwd: REPO_ROOT }).catch((e: unknown) => e);
    expect((error as { code?: number }).code).toBe(1);
    expect((error as { stderr?: string }).stderr).toMatch(/^error: /);
  });
});
