// Settings inference on the recordings in ../shared/fixtures: with no settings given,
// `compact --replay-recorded` reproduces the kept messages of every recorded compaction, and each
// inferred interval contains the setting the case really ran with (as its README states it).
// With the policy defaults instead, only 3 of the 10 compactions keep the same messages.
import { describe, expect, it } from "vitest";
import { extractRequestHeader } from "../../src/core/providers";
import type { PipelineOptions } from "../../src/core/model";
import { inferSettings, replayRecordedCompactions, type InferOptions, type PolicyId, type SettingsInference } from "../../src/core/session/simulate/index";
import { runCliCaptured } from "../cli/cli-helpers";
import { describeShared, type FixtureCase } from "../support/fixtures";

interface RealSetting {
  setting: string;
  value: number;
  /** Known values the interval is stated under (settings the file does not hold either). */
  given?: InferOptions;
}

interface Case {
  id: string;
  policy: PolicyId;
  compactions: number;
  /** Request whose header (system prompt, tools) the senpi replay form needs. */
  header?: number;
  /** Kept messages reproduced by the policy defaults (before inference). */
  defaultsMatch: boolean[];
  /** From each case's README. */
  real: RealSetting[];
}

const CASES: Case[] = [
  // README: models.json contextWindow 16000; settings.json reserveTokens 11600, keepRecentTokens 1800.
  {
    id: "pi/print-openai-autocompact",
    policy: "pi",
    compactions: 2,
    defaultsMatch: [false, false],
    real: [
      { setting: "keepRecentTokens", value: 1800 },
      { setting: "reserveTokens", value: 11600, given: { limits: { contextWindow: 16000 } } },
    ],
  },
  // README: manual compactions after turns 7 and 8; keepRecentTokens 40, reserveTokens 4000, window 16000.
  // pi does not record which compactions were manual: they are named here as the README says.
  {
    id: "pi/rpc-anthropic-manualcompact",
    policy: "pi",
    compactions: 2,
    defaultsMatch: [false, false],
    real: [
      { setting: "keepRecentTokens", value: 40 },
      { setting: "reserveTokens", value: 4000, given: { limits: { contextWindow: 16000 }, manualCompactions: [1, 2] } },
    ],
  },
  // README: contextWindow 28000 (ratio 0.5), reserveTokens 4000, keepRecentTokens 800.
  {
    id: "senpi/print-openai-autocompact",
    policy: "senpi",
    compactions: 1,
    header: 8,
    defaultsMatch: [false],
    real: [
      { setting: "keepRecentTokens", value: 800 },
      { setting: "contextWindow", value: 28000 },
    ],
  },
  // README: CLAUDE_CODE_AUTO_COMPACT_WINDOW=100000.
  { id: "claude/print-autocompact-manualcompact", policy: "claude-code", compactions: 2, defaultsMatch: [true, true], real: [{ setting: "autoCompactWindow", value: 100000 }] },
  // README: model_auto_compact_token_limit = 13500.
  { id: "codex/exec-autocompact", policy: "codex", compactions: 1, defaultsMatch: [true], real: [{ setting: "autoCompactTokenLimit", value: 13500 }] },
  // README: limit.context 15000, limit.output 4000; preserve_recent_tokens unset, so opencode uses
  // min(15000, max(2000, floor((15000 − 4000) × 0.25))) = 2750 (CP-OC-14).
  {
    id: "opencode/run-autocompact",
    policy: "opencode",
    compactions: 2,
    defaultsMatch: [false, false],
    real: [
      { setting: "preserveRecentTokens", value: 2750 },
      { setting: "contextWindow", value: 15000, given: { limits: { maxOutputTokens: 4000 } } },
    ],
  },
];

function optionsOf(fixture: FixtureCase, item: Case): PipelineOptions {
  return {
    profile: item.policy === "senpi" ? "senpi" : "pi",
    ...(item.header ? { header: extractRequestHeader(fixture.request(item.header), `${item.header}.json`) } : {}),
  };
}

function setting(inference: SettingsInference, name: string) {
  const found = inference.settings.find((s) => s.setting === name);
  expect(found, `${name} is inferred`).toBeDefined();
  return found!;
}

describeShared("settings inferred from the recorded compactions (../shared/fixtures)", (shared) => {
  for (const item of CASES) {
    describe(`${item.id} (policy ${item.policy})`, () => {
      const fixture = shared.case(item.id);
      const options = optionsOf(fixture, item);

      it("the policy defaults alone: the kept messages as pinned", () => {
        const lines = replayRecordedCompactions(fixture.session, options, item.policy, {});
        expect(lines.map((l) => l.keptMatches)).toEqual(item.defaultsMatch);
      });

      it("the inferred settings reproduce the kept messages of every recorded compaction", () => {
        const inference = inferSettings(fixture.session, options, item.policy);
        expect(inference.consistent, inference.conflicts.join("; ")).toBe(true);
        const lines = replayRecordedCompactions(fixture.session, options, item.policy, { parameters: inference.parameters, limits: inference.limits });
        expect(lines).toHaveLength(item.compactions);
        expect(lines.map((l) => l.keptMatches)).toEqual(lines.map(() => true));
      });

      for (const real of item.real) {
        it(`the inferred ${real.setting} interval contains the real ${real.value}`, () => {
          const inferred = setting(inferSettings(fixture.session, options, item.policy, real.given ?? {}), real.setting);
          expect(inferred.conflict).toBeNull();
          expect(inferred.min === null || inferred.min <= real.value, `min ${inferred.min}`).toBe(true);
          expect(inferred.max === null || inferred.max >= real.value, `max ${inferred.max}`).toBe(true);
          // Every bound names what gives it.
          for (const bound of inferred.bounds) expect(bound.reason).toMatch(/compaction \d+|no compaction after turn \d+/);
        });
      }
    });
  }

  it("compact --replay-recorded with no settings given keeps what every agent kept", async () => {
    for (const item of CASES) {
      const fixture = shared.case(item.id);
      const args = ["compact", fixture.sessionPath, "--policy", item.policy, "--replay-recorded"];
      if (item.header) args.push("--header", fixture.path(`requests/${String(item.header).padStart(3, "0")}.json`));
      const run = await runCliCaptured(args);
      expect(run.code, run.stderr).toBe(0);
      const lines = run.lines as unknown as { keptMatches: boolean; settings: { inferred: string[] } }[];
      expect(lines, item.id).toHaveLength(item.compactions);
      expect(lines.map((l) => l.keptMatches), item.id).toEqual(lines.map(() => true));
      expect(lines[0]!.settings.inferred.length, item.id).toBeGreaterThan(0);
    }
    // Six CLI runs of about 60–90 simulations per compaction: over 30 s on a loaded machine.
  }, 120_000);

  it("without word on which compactions were manual, a manual one below the uncompacted usage is taken as manual, one above bounds the trigger", () => {
    // pi does not record manual compactions. Compaction 2 (2689 tokens) fired below turn 10's
    // 5119: it cannot have been automatic. Compaction 1 (5191) could have been: the trigger
    // interval then excludes the real 4000 — the README's manual compactions have to be named.
    const fixture = shared.case("pi/rpc-anthropic-manualcompact");
    const inference = inferSettings(fixture.session, { profile: "pi" }, "pi", { limits: { contextWindow: 16000 } });
    const reserve = setting(inference, "reserveTokens");
    expect([reserve.min, reserve.max]).toEqual([10810, 10881]);
    expect(reserve.bounds.map((b) => b.compaction)).toEqual([1, null]);
    expect(inference.notes.some((n) => /compaction 2 .* taken as manual/.test(n))).toBe(true);
  });
});
