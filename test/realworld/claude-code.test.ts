// Real Claude Code transcripts that users published (../shared/fixtures/realworld/claude-code,
// README there): every file opens, and its turns, compactions and sub-agent threads equal the
// figures counted here from the raw lines as the README says (independently of the reader):
// one turn per distinct `requestId` (else `message.id`) of the non-sidechain assistant lines, one
// compaction per `system` line with `subtype: "compact_boundary"`. No normal structure is a warning.
// The same counts hold through the CLI (`requests`), in-process and as a child process.
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import type { PipelineOptions } from "../../src/core/model";
import { analyzeSession } from "../../src/core/session/pipeline";
import { readSessionText } from "../../src/core/session/index";
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
  let compactions = 0;
  const agents = new Set<string>();
  const progressCalls = new Map<string, Set<string>>();
  for (const raw of text.split("\n")) {
    if (raw.trim() === "") continue;
    const line = JSON.parse(raw) as Line;
    const message = isObject(line.message) ? line.message : {};
    if (line.type === "assistant" && line.isSidechain !== true) calls.add(String(line.requestId ?? message.id));
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
  return { turns: calls.size, compactions, threads: agents.size, progressTurns: new Map([...progressCalls].map(([id, set]) => [id, set.size])) };
}

describeShared("real Claude Code transcripts (realworld/claude-code)", (shared) => {
  const dir = path.join(shared.dir, "realworld/claude-code");
  const files = readdirSync(dir).filter((name) => name.endsWith(".jsonl")).sort();

  it("the folder holds the transcripts the README lists", () => {
    expect(files.length).toBeGreaterThanOrEqual(3);
  });

  for (const name of files) {
    const file = path.join(dir, name);
    it(`${name}: turns, compactions and threads as counted from its lines, and no warning`, () => {
      const text = readFileSync(file, "utf8");
      const expected = expectedFigures(text);
      const session = readSessionText(text, name);
      expect(session.formatId).toBe("claude-code");
      const analysis = analyzeSession(session, OPTIONS);
      expect(analysis.turns).toHaveLength(expected.turns);
      expect(analysis.timeline.filter((item) => item.kind === "compaction")).toHaveLength(expected.compactions);
      expect([...session.warnings, ...analysis.warnings]).toEqual([]);
      const threads = session.threads ?? [];
      expect(threads).toHaveLength(expected.threads);
      for (const thread of threads) {
        // Every sub-agent of these files was started by a Task call of the main thread.
        expect(thread.spawnedBy?.toolName).toBe("Task");
        const threadAnalysis = analyzeSession(thread.session, OPTIONS);
        expect(threadAnalysis.turns).toHaveLength(expected.progressTurns.get(thread.id) ?? 0);
        expect(threadAnalysis.warnings).toEqual([]);
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
  }

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
});
