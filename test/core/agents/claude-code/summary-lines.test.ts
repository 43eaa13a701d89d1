// The Claude Code summary reads only the lines its head fields and markers say hold a call, a
// compaction, a sub-agent or the project; every other line is stepped over undecoded. Whatever it
// steps over must not change the summary: on every Claude Code transcript we have (users' files,
// the recordings, the structure fixtures), the summary from the lines it asks for equals the
// summary from every line of the file.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { byteLines } from "../../../../src/cli/scan/byteLines";
import { summarizeClaudeLines } from "../../../../src/core/agents/claude-code/summary";
import { sharedFixtures } from "../../../support/fixtures";

function jsonlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) out.push(...jsonlFiles(file));
    else if (name.endsWith(".jsonl")) out.push(file);
  }
  return out;
}

const shared = sharedFixtures();
const folders = [path.resolve("test/fixtures/claude"), ...(shared ? ["claude", "realworld/claude-code", "realworld-next/claude-code"].map((name) => path.join(shared.dir, name)) : [])];
const files = folders.flatMap(jsonlFiles);

describe("the Claude Code summary's line filter", () => {
  it("has transcripts to check, sub-agent files and progress-line sub-agents among them", () => {
    expect(files.length).toBeGreaterThan(10);
    expect(files.some((file) => file.includes(`${path.sep}subagents${path.sep}`))).toBe(true);
    expect(files.some((file) => readFileSync(file, "utf8").includes('"agent_progress"'))).toBe(true);
  });

  for (const file of files) {
    it(`${path.relative(path.resolve(".."), file)}: the lines asked for give the summary of every line`, () => {
      const bytes = new Uint8Array(readFileSync(file));
      const asked = summarizeClaudeLines((wanted) => byteLines(bytes, wanted), path.basename(file));
      const every = summarizeClaudeLines(() => byteLines(bytes), path.basename(file));
      expect(asked).toEqual(every);
    });
  }
});
