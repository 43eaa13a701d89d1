// The `compact` command: one simulation as one JSON object, `--replay-recorded` lines, slots from
// captured requests (file and folder), and the errors a user can fix.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCliCaptured } from "./cli-helpers";
import { fixtureCase } from "../support/fixtures";

const piPrint = fixtureCase("pi/print-openai-autocompact");
const senpiPrint = fixtureCase("senpi/print-openai-autocompact");
const PRINT = piPrint.sessionPath;
const PRINT_REQUESTS = piPrint.requestsDir;
const SENPI = senpiPrint.sessionPath;
const SENPI_REQUESTS = senpiPrint.requestsDir;
const piArgs = ["--reserve-tokens", "11600", "--keep-recent-tokens", "1800", "--context-window", "16000"];

describe("compact", () => {
  it("prints one JSON object with trigger, kept, summarised, summariserRequest, after, verdict, findings", async () => {
    const run = await runCliCaptured(["compact", PRINT, "--turn", "8", "--policy", "pi", ...piArgs, "--instructions-from", path.join(PRINT_REQUESTS, "009.json"), "--following-turns", "1"]);
    expect(run.code).toBe(0);
    expect(run.lines).toHaveLength(1);
    const out = run.lines[0]!;
    for (const key of ["trigger", "kept", "summarised", "summariserRequest", "after", "verdict", "findings"]) expect(out).toHaveProperty(key);
    expect((out.trigger as { expression: string }).expression).toBe("4641 > 16000 − 11600 = 4400 → compact");
    expect((out.verdict as { verdict: string }).verdict).toBe("compacted");
    expect(JSON.stringify(out.summariserRequest)).toBe(JSON.stringify((await import(path.join(PRINT_REQUESTS, "009.json"), { with: { type: "json" } })).default));
  });

  it("--replay-recorded with a folder of captured requests: one line per recorded compaction, whole bodies equal", async () => {
    const run = await runCliCaptured(["compact", PRINT, "--replay-recorded", "--policy", "pi", ...piArgs, "--instructions-from", PRINT_REQUESTS]);
    expect(run.code).toBe(0);
    expect(run.lines.map((l) => [l.kind, l.index, l.keptMatches])).toEqual([["compaction", 1, true], ["compaction", 2, true]]);
    expect(run.lines.map((l) => (l.matches as { bodyMatches: boolean }[]).map((m) => m.bodyMatches))).toEqual([[true], [true]]);
  });

  it("senpi: --replay-recorded with --header rebuilds request 009", async () => {
    const run = await runCliCaptured([
      "compact", SENPI, "--replay-recorded", "--policy", "senpi", "--header", path.join(SENPI_REQUESTS, "008.json"),
      "--reserve-tokens", "4000", "--keep-recent-tokens", "800", "--context-window", "28000", "--max-output-tokens", "4000",
      "--instructions-from", path.join(SENPI_REQUESTS, "009.json"),
    ]);
    expect(run.code).toBe(0);
    expect(run.lines).toHaveLength(1);
    expect(run.lines[0]!.keptMatches).toBe(true);
    expect((run.lines[0]!.matches as { bodyMatches: boolean }[])[0]!.bodyMatches).toBe(true);
  });

  it("--summary-file and --focus are used; the focus sits in the user message", async () => {
    const run = await runCliCaptured(["compact", PRINT, "--turn", "8", "--policy", "pi", ...piArgs, "--manual", "--focus", "Only the parser", "--summary-file", piPrint.path("README.md")]);
    expect(run.code).toBe(0);
    const out = run.lines[0]!;
    expect(JSON.stringify(out.summariserRequest)).toContain("Additional focus: Only the parser");
    expect((out.afterDetails as { summary: { source: string } }).summary.source).toBe("text");
    // At turn 6 the cut splits the first turn and the history is empty: only the turn-prefix request
    // is made and the focus is dropped (PI-K29) — reported as a finding.
    const split = await runCliCaptured(["compact", PRINT, "--turn", "6", "--policy", "pi", ...piArgs, "--manual", "--focus", "Only the parser"]);
    expect(JSON.stringify(split.lines[0]!.summariserRequest)).not.toContain("Only the parser");
    expect((split.lines[0]!.findings as { id: string }[]).some((f) => f.id === "focus-dropped")).toBe(true);
  });

  it("errors: missing/unknown policy, a policy for another agent's session, a file that is not a summariser request", async () => {
    expect((await runCliCaptured(["compact", PRINT, "--turn", "1"])).stderr).toMatch(/--policy is required/);
    expect((await runCliCaptured(["compact", PRINT, "--policy", "nope"])).stderr).toMatch(/unknown policy/);
    const claude = await runCliCaptured(["compact", PRINT, "--policy", "claude-code"]);
    expect(claude.code).toBe(1);
    expect(claude.stderr).toMatch(/works on a Claude Code transcript/);
    const bad = await runCliCaptured(["compact", PRINT, "--policy", "pi", "--instructions-from", path.join(PRINT_REQUESTS, "001.json")]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/not a pi summariser request/);
  });
});
