// One secret detector for `check`, export and share: a Go test's result line (`--- PASS: TestName
// (0.01s)`) is not a secret for any of them, a password assignment still is for all of them; on a
// real Claude Code transcript whose tool results hold Go test output, `check` and a whole-session
// share find the same secrets (none).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { findSharedSecrets } from "../../../src/core/check/secretDetector";
import { checkSession } from "../../../src/core/check";
import { buildSharePayload } from "../../../src/core/share/build";
import { readSessionText } from "../../../src/core/session/index";
import { describeShared } from "../../support/fixtures";

const GO_TEST_OUTPUT = "=== RUN   TestOverlap\n--- PASS: TestOverlap (0.01s)\n--- FAIL: TestOverlap/new_file (0.00s)\n--- SKIP: BenchmarkRead (0.00s)\nPASS\nok  \tgithub.com/x/y\t0.412s";

describe("the shared secret detector", () => {
  it("reads a test runner's result lines as test names, not passwords", () => {
    expect(findSharedSecrets(GO_TEST_OUTPUT)).toEqual([]);
  });

  it("reads a format verb or a Go qualified name after a secret-sounding name as code", () => {
    expect(findSharedSecrets('t.Logf("Initial HEAD on feature/auth: %s", initialHead)')).toEqual([]);
    expect(findSharedSecrets("trailers.StrategyTrailerKey: strategy.StrategyNameManualCommit,")).toEqual([]);
  });

  it("still finds a password assigned to PASS, and every other secret of the catalogue", () => {
    expect(findSharedSecrets("PASS: hunter2-correct-horse").map((match) => match.label)).toEqual(["Secret-named assignment"]);
    expect(findSharedSecrets("export DB_PASS=TestingIsNotASecret99").map((match) => match.value)).toEqual(["TestingIsNotASecret99"]);
    expect(findSharedSecrets("key sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH").length).toBe(1);
  });
});

describeShared("check and share agree on a real transcript with Go test output", (shared) => {
  const file = shared.path("realworld/claude-code/entire-bccb-2compactions-subagents.jsonl");
  const session = readSessionText(readFileSync(file, "utf8"), "entire-bccb.jsonl");

  it("check reports no secret in the rebuilt summariser requests", () => {
    const findings = checkSession(session, { profile: "pi" });
    expect(findings.filter((finding) => finding.kind === "secret-in-request")).toEqual([]);
  });

  it("a share of the whole session masks no test name; only one quoted value under a key name, in a sub-agent's progress line", () => {
    const { findings } = buildSharePayload({ session, scope: "full", view: { turn: null, tab: "request", profile: "pi", provider: null, notes: false, leafId: null } });
    // `trailers.AgentTrailerKey: "Claude Code",` in Go source a sub-agent read: a key-named field with
    // a quoted value is masked (over-masking a name costs less than showing a key).
    expect(findings.map((finding) => [finding.label, finding.length, finding.path.includes(".raw.data.message.")])).toEqual([["Secret-named assignment", 11, true]]);
  });
});
