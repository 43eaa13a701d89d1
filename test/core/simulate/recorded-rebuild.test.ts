// The timeline's compaction event rebuild (rebuildRecordedCompaction, used by the worker's
// compactionRequests): the recording's agent picks the policy, and its request builder rebuilds
// the summariser request at the recorded point — senpi (replay form, recorded cut, FM SP-K4),
// Claude Code (FM-CC-16), Codex (FM-CX-15/18) and opencode (CP-OC-17); pi's standalone form stays
// with buildCompactionRequests.
import { describe, expect, it } from "vitest";
import { extractRequestHeader } from "../../../src/core/providers";
import { getPolicy, rebuildRecordedCompaction, recordedCompactionIds, recordedCompactionPolicy, timelineRebuildPolicy } from "../../../src/core/session/simulate/index";
import { compactionRequests } from "../../../src/features/compaction/compactionRequests";
import { fixtureCase, type FixtureAgent } from "../../support/fixtures";

const CASES: { agent: FixtureAgent; name: string; policy: string; requests: number[] }[] = [
  { agent: "senpi", name: "print-openai-autocompact", policy: "senpi", requests: [9] },
  { agent: "claude", name: "print-autocompact-manualcompact", policy: "claude-code", requests: [9, 15] },
  { agent: "codex", name: "exec-autocompact", policy: "codex", requests: [9] },
];

describe("rebuildRecordedCompaction", () => {
  for (const item of CASES) {
    it(`${item.agent}: every recorded compaction rebuilt by the ${item.policy} policy, data part equal, kept as recorded`, () => {
      const fixture = fixtureCase(`${item.agent}/${item.name}`);
      const options = { profile: item.agent === "senpi" ? ("senpi" as const) : ("pi" as const), ...(item.agent === "senpi" ? { header: extractRequestHeader(fixture.request(1), "001.json") } : {}) };
      const ids = recordedCompactionIds(fixture.session, options);
      expect(ids).toHaveLength(item.requests.length);
      ids.forEach((entryId, i) => {
        expect(recordedCompactionPolicy(fixture.session, entryId)).toBe(item.policy);
        const rebuild = rebuildRecordedCompaction(fixture.session, options, entryId);
        expect(rebuild.available).toBe(true);
        expect(rebuild.keptMatches).toBe(true);
        const recorded = getPolicy(item.policy).readCaptured!(fixture.request(item.requests[i]!), "recorded")!;
        expect(rebuild.requests.map((r) => r.dataPart)).toEqual([recorded.dataPart]);
        expect(rebuild.lints.some((l) => l.includes("not captured"))).toBe(true);
        const filled = rebuildRecordedCompaction(fixture.session, options, entryId, { instructions: recorded.values });
        if (item.agent !== "senpi") expect(JSON.stringify(filled.requests[0]!.body)).toBe(JSON.stringify(fixture.request(item.requests[i]!)));
      });
    });
  }

  it("opencode: the recorded tail is kept only with the recorded model limits; the data part is rebuilt then", () => {
    const fixture = fixtureCase("opencode/run-autocompact");
    const [first] = recordedCompactionIds(fixture.session);
    const rebuild = rebuildRecordedCompaction(fixture.session, { profile: "pi" }, first!, { limits: { contextWindow: 15000, maxOutputTokens: 4000 } });
    expect(rebuild.policyId).toBe("opencode");
    // The timeline shows opencode's summariser requests as auxiliary requests (recorded tail), not here.
    expect(timelineRebuildPolicy(fixture.session, first!)).toBeNull();
    expect(rebuild.keptMatches).toBe(true);
    expect(rebuild.requests[0]!.dataPart).toEqual(getPolicy("opencode").readCaptured!(fixture.request(10), "010")!.dataPart);
  });

  it("pi's own compactions are not dispatched (standalone form); the worker still uses pi's rebuild for them", () => {
    const pi = fixtureCase("pi/print-openai-autocompact");
    const [first] = recordedCompactionIds(pi.session);
    expect(recordedCompactionPolicy(pi.session, first!)).toBeNull();
    expect(rebuildRecordedCompaction(pi.session, { profile: "pi" }, first!).available).toBe(false);
    expect(compactionRequests(pi.session, { profile: "pi" }, first!).facts.some((f) => f.label === "boundary rule")).toBe(true);
  });

  it("the worker's compaction event view rebuilds Claude Code and senpi compactions through the policies", () => {
    const claude = fixtureCase("claude/print-autocompact-manualcompact");
    const [auto] = recordedCompactionIds(claude.session);
    const view = compactionRequests(claude.session, { profile: "pi" }, auto!);
    expect(view.available).toBe(true);
    expect(view.requests).toHaveLength(1);
    expect(JSON.parse(view.requests[0]!.jsonText).messages.at(-2).role).toBe("assistant");
    expect(view.facts.find((f) => f.label === "policy")?.value).toBe("claude-code");
    const senpi = fixtureCase("senpi/print-openai-autocompact");
    const [compaction] = recordedCompactionIds(senpi.session);
    const senpiView = compactionRequests(senpi.session, { profile: "senpi" }, compaction!);
    expect(senpiView.requests[0]!.label).toMatch(/turn-prefix \(replay\)/);
  });
});
