// The simulator on every agent's sessions (worker side): the policy list says which policies run on
// the open session and why the others do not, the panel opens on the session's own agent's policy,
// settings inference runs in slices whose bounds narrow and ends where a run to the end does, and a
// recorded compaction's outcome lists what it kept and summarised with its trigger in words.
import { describe, expect, it } from "vitest";
import type { PipelineOptions } from "../../../src/core/model";
import { simulatorPolicies } from "../../../src/features/simulator/simulatorService";
import { compactionOutcome } from "../../../src/features/compaction/compactionOutcomeModel";
import { analyzeSession } from "../../../src/core/session/pipeline";
import { inferSettings, simulateCompaction, startInference } from "../../../src/core/session/simulate/index";
import { fixtureCase } from "../../support/fixtures";

const options: PipelineOptions = { profile: "pi", api: null, header: null, leafId: null };
const pi = fixtureCase("pi/print-openai-autocompact");
const claude = fixtureCase("claude/print-autocompact-manualcompact");
const codex = fixtureCase("codex/exec-autocompact");
const opencode = fixtureCase("opencode/run-autocompact");

describe("policies per session", () => {
  it("opens on the session's own agent's policy; senpi on a pi file read with the senpi profile", () => {
    expect(simulatorPolicies(pi.session, options).sessionPolicyId).toBe("pi");
    expect(simulatorPolicies(pi.session, { ...options, profile: "senpi" }).sessionPolicyId).toBe("senpi");
    expect(simulatorPolicies(claude.session, options).sessionPolicyId).toBe("claude-code");
    expect(simulatorPolicies(codex.session, options).sessionPolicyId).toBe("codex");
    expect(simulatorPolicies(opencode.session, options).sessionPolicyId).toBe("opencode");
  });

  it("a policy that cannot run on the session says why in words; the agent-neutral ones run", () => {
    const byId = new Map(simulatorPolicies(claude.session, options).policies.map((p) => [p.id, p]));
    expect(byId.get("pi")!.supported).toBe(false);
    expect(byId.get("pi")!.unsupported).toContain("is not a pi session");
    expect(byId.get("codex")!.unsupported).toContain("Codex rollout");
    for (const id of ["claude-code", "opencode", "hermes", "deepseek-harness"]) expect(byId.get(id)!.supported, id).toBe(true);
    expect(() => simulateCompaction({ session: claude.session, options, turn: 2, policyId: "pi" })).toThrow(/not a pi session/);
    const inference = inferSettings(claude.session, options, "pi");
    expect(inference.settings).toEqual([]);
    expect(inference.notes[0]).toContain("not a pi session");
  });
});

describe("settings inference in slices", () => {
  it("does at least one unit of work per slice, reports progress, and ends as a run to the end does", () => {
    const run = startInference(pi.session, options, "pi");
    let ticks = 0;
    // A clock that moves 1 ms per reading: every slice of 0 ms does exactly one unit of work.
    const now = () => ticks++;
    const seen: number[] = [];
    let slices = 0;
    while (!run.step(0, now)) {
      slices++;
      seen.push(run.current().progress.checked);
    }
    expect(slices).toBeGreaterThan(3);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    const sliced = run.current();
    expect(sliced.progress.complete).toBe(true);
    expect(sliced.progress.checked).toBe(sliced.progress.total);
    const whole = inferSettings(pi.session, options, "pi");
    expect(sliced.settings).toEqual(whole.settings);
    expect(sliced.parameters).toEqual(whole.parameters);
  });
});

describe("what a recorded compaction did", () => {
  for (const [name, fixture] of [["pi", pi], ["Claude Code", claude], ["Codex", codex], ["opencode", opencode]] as const) {
    it(`${name}: kept and summarised messages, tokens before and after, the trigger in words`, () => {
      const analysis = analyzeSession(fixture.session, options);
      const event = analysis.timeline.find((item) => item.kind === "compaction" && item.beforeTurn !== null);
      expect(event, "a compaction followed by a turn").toBeDefined();
      const outcome = compactionOutcome(fixture.session, options, analysis, (event as { entryId: string }).entryId)!;
      expect(outcome.summarised.length).toBeGreaterThan(0);
      expect(outcome.added.length).toBeGreaterThan(0);
      expect(outcome.tokensBefore).toBe([...outcome.kept, ...outcome.summarised].reduce((t, m) => t + m.tokens, 0));
      expect(outcome.tokensAfter).toBeGreaterThan(0);
      expect(outcome.trigger).not.toMatch(/→ no$/);
      expect(outcome.trigger).toMatch(/manual|automatic/);
    });
  }
});
