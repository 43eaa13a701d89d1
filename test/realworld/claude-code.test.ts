// Real Claude Code transcripts that users published (../shared/fixtures/realworld/claude-code, and
// the newer versions of ../shared/fixtures/realworld-next/claude-code; READMEs there): every file
// opens, and its turns, compactions and sub-agent threads equal the figures counted here from the
// raw lines as the README says (independently of the reader): one turn per distinct `requestId`
// (else `message.id`) of the non-sidechain assistant lines that came from the model — the lines
// Claude Code writes itself (`message.model` "<synthetic>": a refused request's error text, an
// interruption's notice) are its own events, and the timeline names each — one compaction per
// `system` line with `subtype: "compact_boundary"`. A session's `subagents/` files are opened with
// it; each thread's turns are counted from its own file. No normal structure is a warning.
// The same counts hold through the CLI (`requests`), in-process and as a child process.
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import type { PipelineOptions, Session } from "../../src/core/model";
import { analyzeSession } from "../../src/core/session/pipeline";
import { readSessionText } from "../../src/core/session/index";
import { recordReport } from "../../src/core/session/recordReport";
import { linkSessions } from "../../src/core/session/threads";
import { runCliCaptured } from "../cli/cli-helpers";
import { describeShared, REPO_ROOT } from "../support/fixtures";

type Line = Record<string, unknown>;
const OPTIONS: PipelineOptions = { profile: "pi" };

function isObject(value: unknown): value is Line {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The README's figures, from the raw lines. */
function expectedFigures(text: string) {
  const calls = new Set<string>();
  const synthetic = new Set<string>();
  let compactions = 0;
  const agents = new Set<string>();
  const progressCalls = new Map<string, Set<string>>();
  for (const raw of text.split("\n")) {
    if (raw.trim() === "") continue;
    const line = JSON.parse(raw) as Line;
    const message = isObject(line.message) ? line.message : {};
    if (line.type === "assistant" && line.isSidechain !== true) {
      // A resumed session writes its lines again under the same uuid: each counts once.
      if (message.model === SYNTHETIC) synthetic.add(String(line.uuid));
      else calls.add(String(line.requestId ?? message.id));
    }
    if (line.type === "system" && line.subtype === "compact_boundary") compactions += 1;
    if (isObject(line.toolUseResult) && typeof line.toolUseResult.agentId === "string") agents.add(line.toolUseResult.agentId);
    const data = isObject(line.data) ? line.data : {};
    if (line.type === "progress" && data.type === "agent_progress" && typeof data.agentId === "string") {
      agents.add(data.agentId);
      const inner = isObject(data.message) ? data.message : {};
      const innerMessage = isObject(inner.message) ? inner.message : {};
      const set = progressCalls.get(data.agentId) ?? new Set<string>();
      if (inner.type === "assistant") set.add(String(inner.requestId ?? innerMessage.id));
      progressCalls.set(data.agentId, set);
    }
    if (line.isSidechain === true && typeof line.agentId === "string") agents.add(line.agentId);
  }
  return { turns: calls.size, synthetic: synthetic.size, compactions, threads: agents.size, progressTurns: new Map([...progressCalls].map(([id, set]) => [id, set.size])) };
}

/** The model name of the assistant lines Claude Code writes itself, without a model's answer. */
const SYNTHETIC = "<synthetic>";

/** The calls of a sub-agent's own file: distinct request ids of its assistant lines from the model. */
function fileCalls(text: string): number {
  const calls = new Set<string>();
  for (const raw of text.split("\n")) {
    if (raw.trim() === "") continue;
    const line = JSON.parse(raw) as Line;
    const message = isObject(line.message) ? line.message : {};
    if (line.type === "assistant" && message.model !== SYNTHETIC) calls.add(String(line.requestId ?? message.id));
  }
  return calls.size;
}

/** The `.jsonl` files of `<session>/subagents/`, none when the session has no such folder. */
function subagentFiles(file: string): string[] {
  const folder = path.join(file.slice(0, -".jsonl".length), "subagents");
  return existsSync(folder) ? readdirSync(folder).filter((name) => name.endsWith(".jsonl")).sort().map((name) => path.join(folder, name)) : [];
}

/** The session of `file` with its sub-agent files linked as threads. */
function openWithSubagents(file: string): Session {
  const session = readSessionText(readFileSync(file, "utf8"), path.basename(file));
  const others = subagentFiles(file).map((other) => readSessionText(readFileSync(other, "utf8"), path.basename(other)));
  if (others.length === 0) return session;
  const linked = linkSessions([session, ...others]);
  expect(linked.unlinked).toEqual([]);
  return linked.session;
}

/** The transcripts of one folder, each held to the figures counted from its lines. */
function describeFolder(folder: string, minimum: number): void {
  describeShared(`real Claude Code transcripts (${folder})`, (shared) => {
    const dir = path.join(shared.dir, folder);
    const files = readdirSync(dir).filter((name) => name.endsWith(".jsonl")).sort();

    it("the folder holds the transcripts the README lists", () => {
      expect(files.length).toBeGreaterThanOrEqual(minimum);
    });

    for (const name of files) {
      const file = path.join(dir, name);
      it(`${name}: turns, compactions and threads as counted from its lines, and no warning`, () => {
        const text = readFileSync(file, "utf8");
        const expected = expectedFigures(text);
        const session = openWithSubagents(file);
        expect(session.formatId).toBe("claude-code");
        const analysis = analyzeSession(session, OPTIONS);
        expect(analysis.turns).toHaveLength(expected.turns);
        expect(analysis.timeline.filter((item) => item.kind === "compaction")).toHaveLength(expected.compactions);
        // Each line Claude Code wrote itself on the branch is a session event of the timeline, named.
        expect((analysis.events ?? []).filter((event) => event.kind === "api error message" || event.kind === "synthetic reply")).toHaveLength(expected.synthetic);
        expect([...session.warnings, ...analysis.warnings]).toEqual([]);
        expect(recordReport(session)?.unknown).toEqual([]);
        const threads = session.threads ?? [];
        const ownFiles = new Map(subagentFiles(file).map((other) => [path.basename(other), other]));
        expect(threads).toHaveLength(Math.max(expected.threads, ownFiles.size));
        for (const thread of threads) {
          // Every sub-agent of these files was started by a Task (later Agent) call of the main thread.
          expect(thread.spawnedBy?.toolName).toMatch(/^(Task|Agent)$/);
          const threadAnalysis = analyzeSession(thread.session, OPTIONS);
          const own = ownFiles.get(`agent-${thread.id}.jsonl`);
          expect(threadAnalysis.turns).toHaveLength(own ? fileCalls(readFileSync(own, "utf8")) : (expected.progressTurns.get(thread.id) ?? 0));
          expect([...thread.session.warnings, ...threadAnalysis.warnings]).toEqual([]);
        }
      });

      it(`${name}: the CLI's requests command prints one line per turn and per compaction, nothing on stderr`, async () => {
        const expected = expectedFigures(readFileSync(file, "utf8"));
        const run = await runCliCaptured(["requests", file]);
        expect(run.code).toBe(0);
        expect(run.stderr).toBe("");
        expect(run.lines.filter((line) => "turn" in line)).toHaveLength(expected.turns);
        expect(run.lines.filter((line) => line.kind === "compaction")).toHaveLength(expected.compactions);
      });

      it(`${name}: check reports no read warning and no unknown record type, and its summary names the version`, async () => {
        const run = await runCliCaptured(["check", file, "--fail-on", "read-warning,unknown-records"]);
        expect(run.lines.filter((line) => line.kind === "read-warning" || line.kind === "unknown-records")).toEqual([]);
        expect(run.code).toBe(0);
        const summary = run.lines[run.lines.length - 1]!;
        expect(summary).toMatchObject({ summary: "records", agent: "Claude Code", unknown: [] });
        expect((summary.versions as string[]).length).toBeGreaterThan(0);
      }, 120000);
    }

    if (folder === "realworld/claude-code") {
      it("npm run cli -- requests (child process) on the transcript with a streamed sub-agent, main thread and --thread", async () => {
        const file = path.join(dir, "entire-bccb-2compactions-subagents.jsonl");
        const expected = expectedFigures(readFileSync(file, "utf8"));
        const run = (args: string[]) => promisify(execFile)("npm", ["run", "-s", "cli", "--", "requests", file, ...args], { cwd: REPO_ROOT, maxBuffer: 256 * 1024 * 1024 });
        const main = await run([]);
        expect(main.stderr).toBe("");
        expect(main.stdout.split("\n").filter((line) => line.startsWith('{"turn":'))).toHaveLength(expected.turns);
        const [agentId, turns] = [...expected.progressTurns][0]!;
        const thread = await run(["--thread", agentId]);
        expect(thread.stdout.split("\n").filter((line) => line.startsWith('{"turn":'))).toHaveLength(turns);
      }, 120000);
    }
  });
}

describeFolder("realworld/claude-code", 3);
describeFolder("realworld-next/claude-code", 1);
