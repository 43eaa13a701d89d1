// hermes-agent's summary failures (CP-HA-6 cooldowns, CP-HA-30 unchanged input vs deterministic
// fallback summary, CP-HA-31 retry of a distinct summary model on the main model).
import { describe, expect, it } from "vitest";
import { hermesFailureOutcome, hermesFallbackSummary, FALLBACK_SUMMARY_MAX_CHARS } from "../../../../src/core/agents/hermes/policy/failure";
import { conversation, runHermes } from "./policy-helpers";

const base = { abortOnSummaryFailure: false, summaryModel: null, mainModel: "gpt-4o", mainModelRetry: "same" as const, consecutiveTimeouts: 1 };

describe("CP-HA-6 / CP-HA-30 / CP-HA-31 outcomes", () => {
  it("auth, quota and network return the input unchanged with the 60 s cooldown; abort_on_summary_failure does so for any failure", () => {
    for (const failure of ["auth", "quota", "network"] as const) {
      const o = hermesFailureOutcome({ ...base, failure });
      expect([o.outcome, o.cooldownSeconds]).toEqual(["unchanged", 60]);
    }
    expect(hermesFailureOutcome({ ...base, failure: "timeout", abortOnSummaryFailure: true }).outcome).toBe("unchanged");
  });

  it("other failures insert the deterministic fallback; timeouts escalate 60 → 300 → 900 s; JSON decode / stream closed 30 s; no provider 600 s and no call", () => {
    expect([1, 2, 3, 4].map((n) => hermesFailureOutcome({ ...base, failure: "timeout", consecutiveTimeouts: n }).cooldownSeconds)).toEqual([60, 300, 900, 900]);
    expect(hermesFailureOutcome({ ...base, failure: "json-decode" }).cooldownSeconds).toBe(30);
    expect(hermesFailureOutcome({ ...base, failure: "stream-closed" }).outcome).toBe("fallback");
    const none = hermesFailureOutcome({ ...base, failure: "no-provider" });
    expect([none.outcome, none.cooldownSeconds, none.attempts.length]).toEqual(["fallback", 600, 0]);
  });

  it("a distinct summary model is retried once on the main model; a successful retry compacts without a cooldown", () => {
    const same = hermesFailureOutcome({ ...base, failure: "other", summaryModel: "cheap-model" });
    expect(same.attempts.map((a) => [a.model, a.failed])).toEqual([["cheap-model", true], ["gpt-4o", true]]);
    const ok = hermesFailureOutcome({ ...base, failure: "other", summaryModel: "cheap-model", mainModelRetry: "ok" });
    expect([ok.outcome, ok.cooldownSeconds]).toEqual(["ok", null]);
    // The summary model equal to the main model: no retry.
    expect(hermesFailureOutcome({ ...base, failure: "other", summaryModel: "gpt-4o" }).attempts).toHaveLength(1);
  });

  it("the fallback summary has the template headings and at most 8000 characters", () => {
    const text = hermesFallbackSummary("timeout", Array.from({ length: 2000 }, (_, i) => `src/file-${i}.ts`));
    expect(text.length).toBeLessThanOrEqual(FALLBACK_SUMMARY_MAX_CHARS);
    expect(hermesFallbackSummary("timeout", [])).toContain("## Historical Task Snapshot\n(none)\n\n## Goal");
  });
});

describe("in the hermes simulation", () => {
  it("a timeout compacts with the fallback summary, the cooldown and the fallback finding", () => {
    const r = runHermes(conversation(8), { summaryFailure: "timeout", consecutiveTimeouts: 2 });
    expect(r.verdict.verdict).toBe("compacted");
    expect(r.findings.find((f) => f.id === "deterministic-fallback-summary")).toBeTruthy();
    expect(r.findings.find((f) => f.id === "summary-cooldown")!.message).toContain("300 s");
    expect(JSON.stringify(r.after.messages)).toContain("deterministic fallback summary");
    expect(r.inferred).toContain("HA-INF-FALLBACK-TEXT");
  });

  it("a failing summary model shows both calls, the second on the main model; quota leaves the input unchanged", () => {
    const r = runHermes(conversation(8), { summaryFailure: "quota", summaryModel: "cheap-model" });
    expect(r.summariserRequests.map((q) => q.body.model)).toEqual(["cheap-model", "gpt-4o"]);
    expect(r.verdict.verdict).toBe("failed");
    expect(r.verdict.message).toContain("quota");
    expect(r.after.messages).toHaveLength(conversation(8).length);
  });
});
