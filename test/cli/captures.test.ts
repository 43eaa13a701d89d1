// `captures` command: the measuring harness on the committed Codex and Claude Code cases (first
// main request as the capture, every main request compared), and `requests --capture`.
import { describe, expect, it } from "vitest";
import { runCliCaptured } from "./cli-helpers";
import { fixtureCase } from "../support/fixtures";

function lines(stdout: string): Record<string, unknown>[] {
  return stdout.trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("captures", () => {
  it("Codex: every main request matched to its turn, only the turn start time differs (not derivable)", async () => {
    const fixture = fixtureCase("codex/exec-autocompact");
    const run = await runCliCaptured(["captures", fixture.sessionPath, "--capture", fixture.requestPath(1), "--against", fixture.requestsDir]);
    expect(run.code).toBe(0);
    const out = lines(run.stdout);
    const checks = out.filter((line) => line.kind === "capture-check");
    expect(checks).toHaveLength(15);
    expect(checks.map((line) => line.turn)).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
    const summary = out.at(-1)!;
    expect(summary).toMatchObject({ kind: "summary", equal: 0, total: 15, classes: { "not derivable": 15 } });
    expect(run.stderr).toContain("0/15 byte-equal");
  });

  it("Claude Code: all 15 byte-equal with the first request attached", async () => {
    const fixture = fixtureCase("claude/print-autocompact-manualcompact");
    const run = await runCliCaptured(["captures", fixture.sessionPath, "--capture", fixture.requestPath(1), "--against", fixture.requestsDir]);
    expect(run.code).toBe(0);
    expect(lines(run.stdout).at(-1)).toMatchObject({ equal: 15, total: 15, classes: {} });
  });

  it("exits 1 when a capture matches no turn", async () => {
    const fixture = fixtureCase("codex/exec-autocompact");
    // The Claude Code capture against a Codex session matches no turn.
    const other = fixtureCase("claude/print-autocompact-manualcompact");
    const run = await runCliCaptured(["captures", fixture.sessionPath, "--capture", fixture.requestPath(1), "--against", other.requestPath(1)]);
    expect(run.code).toBe(1);
    expect(lines(run.stdout)[0]).toMatchObject({ kind: "capture-check", result: "unmatched", turn: null });
  });

  it("requests --capture fills the session constants from the capture", async () => {
    const fixture = fixtureCase("codex/exec-autocompact");
    const run = await runCliCaptured(["requests", fixture.sessionPath, "--turn", "2", "--capture", fixture.requestPath(1)]);
    expect(run.code).toBe(0);
    const body = (lines(run.stdout)[0]!.request as Record<string, unknown>);
    expect(body.tools).toEqual(fixture.request(2).tools);
    expect(body.input).toBeDefined();
    expect((body.input as unknown[])[0]).toEqual((fixture.request(2).input as unknown[])[0]);
  });
});
