// `compact --replay-recorded --policy <agent> --instructions-from <file-or-folder>` on each fixture
// agent: one line per recorded compaction, the kept messages as recorded, and every summariser
// request equal to the recorded one (data part, and whole body with the captured slots).
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCliCaptured } from "./cli-helpers";
import { fixtureCase } from "../support/fixtures";

function sessionFile(agent: string, name: string): string {
  return fixtureCase(`${agent}/${name}`).sessionPath;
}
const requests = (agent: string, name: string) => fixtureCase(`${agent}/${name}`).requestsDir;

interface Line {
  kind: string;
  index: number;
  keptMatches: boolean;
  summariserRequests: unknown[];
  matches: { captured: string | null; dataPartMatches: boolean; bodyMatches: boolean }[];
}

async function replay(args: string[]): Promise<Line[]> {
  const run = await runCliCaptured(["compact", ...args, "--replay-recorded"]);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  return run.lines as unknown as Line[];
}

function expectAllMatch(lines: Line[], captures: string[][]): void {
  expect(lines.map((l) => [l.kind, l.index, l.keptMatches])).toEqual(captures.map((_, i) => ["compaction", i + 1, true]));
  expect(lines.map((l) => l.matches.map((m) => m.captured))).toEqual(captures);
  for (const line of lines) for (const m of line.matches) expect(m).toMatchObject({ dataPartMatches: true, bodyMatches: true });
}

describe("compact --replay-recorded on every fixture agent", () => {
  it("claude-code: automatic (009) and manual (015) compactions, from the requests folder", async () => {
    const claude = ["claude", "print-autocompact-manualcompact"] as const;
    const lines = await replay([sessionFile(...claude), "--policy", "claude-code", "--param", "autoCompactWindow=100000", "--instructions-from", requests(...claude)]);
    expectAllMatch(lines, [["009.json"], ["015.json"]]);
  });

  it("codex: the pre-turn compaction (009), from a single captured file", async () => {
    const codex = ["codex", "exec-autocompact"] as const;
    const lines = await replay([sessionFile(...codex), "--policy", "codex", "--param", "autoCompactTokenLimit=13500", "--instructions-from", path.join(requests(...codex), "009.json")]);
    expectAllMatch(lines, [["009.json"]]);
  });

  it("opencode: both automatic compactions (010, 016), from the export and from the database", async () => {
    const opencode = fixtureCase("opencode/run-autocompact");
    const limits = ["--context-window", "15000", "--max-output-tokens", "4000", "--instructions-from", opencode.requestsDir];
    expectAllMatch(await replay([opencode.path("session/export.json"), "--policy", "opencode", ...limits]), [["010.json"], ["016.json"]]);
    expectAllMatch(await replay([opencode.path("session/opencode-db/opencode.db"), "--policy", "opencode", ...limits]), [["010.json"], ["016.json"]]);
  });

  it("senpi: the split-turn replay request (009)", async () => {
    const senpi = ["senpi", "print-openai-autocompact"] as const;
    const lines = await replay([
      sessionFile(...senpi), "--policy", "senpi", "--header", path.join(requests(...senpi), "008.json"),
      "--reserve-tokens", "4000", "--keep-recent-tokens", "800", "--context-window", "28000", "--max-output-tokens", "4000",
      "--instructions-from", requests(...senpi),
    ]);
    expectAllMatch(lines, [["009.json"]]);
  });

  it("pi: automatic (009, 014) and manual with a focus (012; 016 + 017 for the split turn)", async () => {
    const auto = ["pi", "print-openai-autocompact"] as const;
    expectAllMatch(
      await replay([sessionFile(...auto), "--policy", "pi", "--reserve-tokens", "11600", "--keep-recent-tokens", "1800", "--context-window", "16000", "--instructions-from", requests(...auto)]),
      [["009.json"], ["014.json"]],
    );
    const manual = ["pi", "rpc-anthropic-manualcompact"] as const;
    expectAllMatch(await replay([sessionFile(...manual), "--policy", "pi", "--reserve-tokens", "4000", "--keep-recent-tokens", "40", "--instructions-from", requests(...manual)]), [["012.json"], ["016.json", "017.json"]]);
  });

  it("without captures the data part is rebuilt but not matched; a file that is not a summariser request of the policy is an error", async () => {
    const codex = ["codex", "exec-autocompact"] as const;
    const bare = await replay([sessionFile(...codex), "--policy", "codex"]);
    expect(bare[0]!.keptMatches).toBe(true);
    expect(JSON.stringify(bare[0]!.summariserRequests[0])).toContain("[contextscope: instruction not captured");
    const wrong = await runCliCaptured(["compact", sessionFile(...codex), "--replay-recorded", "--policy", "codex", "--instructions-from", path.join(requests(...codex), "008.json")]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/not a codex summariser request/);
    const otherAgent = await runCliCaptured(["compact", sessionFile(...codex), "--replay-recorded", "--policy", "claude-code"]);
    expect(otherAgent.code).toBe(1);
    expect(otherAgent.stderr).toMatch(/works on a Claude Code transcript/);
  });
});

describe("requests: compaction lines of the recorded agents", () => {
  it("Claude Code and Codex compaction lines carry the summariser request rebuilt by the agent's policy", async () => {
    for (const [agent, name, expected] of [["claude", "print-autocompact-manualcompact", 2], ["codex", "exec-autocompact", 1]] as const) {
      const run = await runCliCaptured(["requests", sessionFile(agent, name)]);
      expect(run.code).toBe(0);
      const compactions = run.lines.filter((l) => l.kind === "compaction");
      expect(compactions).toHaveLength(expected);
      for (const line of compactions) {
        expect(line.requests as unknown[]).toHaveLength(1);
        expect(JSON.stringify(line.requests)).toContain("[contextscope: instruction not captured");
      }
    }
  });
});
