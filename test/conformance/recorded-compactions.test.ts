// Compaction simulator "Done when": for every recorded compaction in test/fixtures (pi automatic and
// manual, senpi, Claude Code, Codex, opencode) the simulator under that agent's policy, at that
// point, keeps the same messages the agent kept, and builds summariser requests whose data part
// equals the recorded ones — and the whole body once the instruction slots (and the request fields
// the session does not record) are filled from the recorded requests. The settings each agent ran
// with are not in its session file; they are given here as the cases' READMEs state them.
import { describe, expect, it } from "vitest";
import type { PipelineOptions } from "../../src/core/model";
import { extractRequestHeader } from "../../src/core/providers";
import { getPolicy, recordedCompactionPoints, replayRecordedCompactions, simulateCompaction, type LimitOverrides, type PolicyId, type PolicyParameters } from "../../src/core/session/simulate/index";
import { fixtureCase, type FixtureAgent, type FixtureCase } from "../support/fixtures";

interface Case {
  agent: FixtureAgent;
  name: string;
  policy: PolicyId;
  compactions: number;
  parameters?: PolicyParameters;
  limits?: LimitOverrides;
  /** Request whose header (system prompt, tools) the replay form needs. */
  header?: number;
}

const CASES: Case[] = [
  { agent: "pi", name: "print-openai-autocompact", policy: "pi", compactions: 2, parameters: { reserveTokens: 11600, keepRecentTokens: 1800 }, limits: { contextWindow: 16000 } },
  { agent: "pi", name: "rpc-anthropic-manualcompact", policy: "pi", compactions: 2, parameters: { reserveTokens: 4000, keepRecentTokens: 40 } },
  { agent: "senpi", name: "print-openai-autocompact", policy: "senpi", compactions: 1, parameters: { reserveTokens: 4000, keepRecentTokens: 800 }, limits: { contextWindow: 28000, maxOutputTokens: 4000 }, header: 8 },
  { agent: "claude", name: "print-autocompact-manualcompact", policy: "claude-code", compactions: 2, parameters: { autoCompactWindow: 100000 } },
  { agent: "codex", name: "exec-autocompact", policy: "codex", compactions: 1, parameters: { autoCompactTokenLimit: 13500 } },
  { agent: "opencode", name: "run-autocompact", policy: "opencode", compactions: 2, limits: { contextWindow: 15000, maxOutputTokens: 4000 } },
];

/** The recorded summariser requests of a case, by their `kind` in the `.meta.json` files. */
function summaryRequests(fixture: FixtureCase): { source: string; body: unknown }[] {
  return fixture.requests("summary").map((request) => ({ source: request.file, body: request.body as unknown }));
}

describe("every recorded compaction, re-simulated under its agent's policy", () => {
  for (const item of CASES) {
    describe(`${item.agent}/${item.name} (policy ${item.policy})`, () => {
      const fixture = fixtureCase(`${item.agent}/${item.name}`);
      const options: PipelineOptions = {
        profile: item.policy === "senpi" ? "senpi" : "pi",
        ...(item.header ? { header: extractRequestHeader(fixture.request(item.header), `${item.header}.json`) } : {}),
      };
      const captured = summaryRequests(fixture);
      const replay = { ...(item.parameters ? { parameters: item.parameters } : {}), ...(item.limits ? { limits: item.limits } : {}) };

      it("finds every recorded compaction", () => {
        expect(recordedCompactionPoints(fixture.session, options)).toHaveLength(item.compactions);
      });

      it("keeps what the agent kept; every recorded summariser request is rebuilt with an equal data part", () => {
        const lines = replayRecordedCompactions(fixture.session, options, item.policy, { ...replay, captured });
        expect(lines).toHaveLength(item.compactions);
        for (const line of lines) {
          expect(line.keptMatches, `compaction ${line.index}: kept ${line.simulatedKept.join(",")} vs recorded ${line.recordedKept.join(",")}`).toBe(true);
          expect(line.matches.every((m) => m.dataPartMatches), `compaction ${line.index}`).toBe(true);
        }
        const used = lines.flatMap((l) => l.matches.map((m) => m.captured));
        expect([...used].sort()).toEqual(captured.map((c) => c.source).sort());
      });

      it("the data parts are the same without any captured instruction (slots described)", () => {
        const policy = getPolicy(item.policy);
        const recordedParts = captured.map((c) => JSON.stringify(policy.readCaptured!(c.body, c.source)!.dataPart));
        const rebuilt = recordedCompactionPoints(fixture.session, options).flatMap((point) =>
          simulateCompaction({ session: fixture.session, options, turn: point.turn, policyId: item.policy, ...replay, recordedCompactionEntryId: point.entryId, manual: point.manual, followingTurns: 0 }).summariserRequests,
        );
        expect(rebuilt.map((r) => JSON.stringify(r.dataPart))).toEqual(recordedParts);
        expect(rebuilt.every((r) => r.instructionSlots.some((use) => use.filledFrom === "description"))).toBe(true);
      });

      it("rebuilds each whole body when the slots come from the recorded requests", () => {
        const lines = replayRecordedCompactions(fixture.session, options, item.policy, { ...replay, captured });
        for (const line of lines) {
          expect(line.matches.every((m) => m.bodyMatches), `compaction ${line.index}`).toBe(true);
          line.summariserRequests.forEach((body, k) => {
            const source = line.matches[k]!.captured;
            expect(JSON.stringify(body)).toBe(JSON.stringify(captured.find((c) => c.source === source)!.body));
          });
        }
      });
    });
  }
});
