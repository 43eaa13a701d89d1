// The summary pass of `scan` against the full pipeline on real sessions users published
// (../shared/fixtures/realworld and realworld-next): for every session whose agent has a summary
// pass, the summary line's turns, compactions, threads and whole-session tokens equal the full
// pipeline's line, and its dollars are within 0.1 %. The full pipeline's figures are the reference
// because they were checked against raw-line counts and ccusage (bench/ccusage-parity.ts); the
// summary pass shares none of its code (it reads the lines itself, rebuilds nothing).
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { analyseJob } from "../../src/cli/scan/analyse";
import { discoverSessions } from "../../src/cli/scan/discover";
import { summarizeSession, wantedLines } from "../../src/core/session/index";
import type { LineWanted } from "../../src/core/agents/descriptor";
import { describeShared } from "../support/fixtures";

const readFile = (file: string) => new Uint8Array(readFileSync(file));

describeShared("scan: the summary pass equals the full pipeline on real sessions", (shared) => {
  const folders = ["realworld", "realworld-next"].map((name) => path.join(shared.dir, name));
  const { jobs } = discoverSessions(folders);

  // The sessions whose agent has a summary pass (side files are read by the full pipeline only).
  const summarised = jobs.filter((job) => {
    const files = [job.file, ...job.with].map((file) => ({ name: path.basename(file), lines: (wanted?: LineWanted) => wantedLines(readFileSync(file, "utf8").split("\n"), wanted) }));
    return job.sideFiles.length === 0 && summarizeSession(files) !== null;
  });

  it("has a summary pass for every real Claude Code and Codex session", () => {
    // Four Claude Code transcripts in realworld, one in realworld-next, two Codex rollouts; pi, hermes, openclaw and opencode have none.
    expect(summarised.map((job) => path.relative(shared.dir, job.file).split(path.sep)[1]).sort()).toEqual(["claude-code", "claude-code", "claude-code", "claude-code", "claude-code", "codex", "codex"]);
  });

  for (const job of summarised) {
    it(`${path.relative(shared.dir, job.file)}: turns, tokens, compactions and cost as the full pipeline`, async () => {
      const summary = await analyseJob(job, { tokenizer: "estimate", full: false }, readFile);
      expect(summary.pass).toBe("summary");
      const full = await analyseJob(job, { tokenizer: "estimate", full: true }, readFile);
      expect(full.pass).toBe("full");
      expect(summary.error).toBeNull();
      expect(summary.agent).toBe(full.agent);
      expect(summary.project).toBe(full.project);
      expect(summary.turns).toBe(full.turns);
      expect(summary.compactions).toBe(full.compactions);
      expect(summary.threads).toBe(full.threads);
      expect(summary.recordedInputTokens).toBe(full.recordedInputTokens);
      expect(summary.recordedCachedTokens).toBe(full.recordedCachedTokens);
      expect(summary.reportedBreaks).toBe(full.reportedBreaks);
      const mine = summary.wholeSession!;
      const theirs = full.wholeSession!;
      expect({ calls: mine.calls, callsWithUsage: mine.callsWithUsage, input: mine.input, cacheRead: mine.cacheRead, cacheWrite: mine.cacheWrite, output: mine.output }).toEqual({
        calls: theirs.calls,
        callsWithUsage: theirs.callsWithUsage,
        input: theirs.input,
        cacheRead: theirs.cacheRead,
        cacheWrite: theirs.cacheWrite,
        output: theirs.output,
      });
      expect(mine.cost.status).toBe(theirs.cost.status);
      // The Codex rollouts here record no usage (priced at 0 both ways); every Claude Code one does.
      if (theirs.callsWithUsage > 0) expect(Math.abs(mine.cost.dollars! - theirs.cost.dollars!) / theirs.cost.dollars!).toBeLessThan(0.001);
      else expect(mine.cost.dollars).toBe(theirs.cost.dollars);
      // What only the rebuild knows is left empty, never guessed.
      expect(summary.breaks).toBeNull();
      expect(summary.breaksByCause).toBeNull();
      expect(full.breaksByCause).not.toBeNull();
    }, 300_000);
  }
});
