// The byte-for-byte measure of docs/captures.md over every shared case: with the case's first main
// request attached as the capture, each recorded main request is matched to its turn and compared
// with the rebuilt one under JSON.stringify with sorted keys; every remaining difference must be a
// field the agent lists as not derivable. Summariser requests: replayed with the case's settings
// (as its README states them) and its captures given, each whole body must equal the recorded one.
import { describe, expect, it } from "vitest";
import type { PipelineOptions } from "../../src/core/model";
import { learnCapture } from "../../src/core/session/captures";
import { checkCaptures, matchCaptureTurns } from "../../src/app/captureCheck";
import { replayRecordedCompactions, type LimitOverrides, type PolicyId, type PolicyParameters } from "../../src/core/session/simulate/index";
import { readSessionText } from "../../src/core/session/index";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describeShared, type FixtureRoot } from "../support/fixtures";

interface Case {
  id: string;
  policy: PolicyId;
  parameters?: PolicyParameters;
  limits?: LimitOverrides;
  /** Main requests byte-equal with the first main request attached. */
  equal: number;
  /** The differing paths left, all classed "not derivable". */
  notDerivable: string[];
}

const TURN_START = '$.client_metadata["x-codex-turn-metadata"]<json>.turn_started_at_unix_ms';

const CASES: Case[] = [
  { id: "pi/print-openai-autocompact", policy: "pi", parameters: { reserveTokens: 11600, keepRecentTokens: 1800 }, limits: { contextWindow: 16000 }, equal: 15, notDerivable: [] },
  { id: "pi/rpc-anthropic-manualcompact", policy: "pi", parameters: { reserveTokens: 4000, keepRecentTokens: 40 }, equal: 15, notDerivable: [] },
  { id: "senpi/print-openai-autocompact", policy: "senpi", parameters: { reserveTokens: 4000, keepRecentTokens: 800 }, limits: { contextWindow: 28000, maxOutputTokens: 4000 }, equal: 15, notDerivable: [] },
  { id: "claude/print-autocompact-manualcompact", policy: "claude-code", parameters: { autoCompactWindow: 100000 }, equal: 15, notDerivable: [] },
  { id: "codex/exec-autocompact", policy: "codex", parameters: { autoCompactTokenLimit: 13500 }, equal: 0, notDerivable: [TURN_START] },
  { id: "opencode/run-autocompact", policy: "opencode", limits: { contextWindow: 15000, maxOutputTokens: 4000 }, equal: 17, notDerivable: [] },
];

function sessionOf(shared: FixtureRoot, id: string) {
  const fixture = shared.case(id);
  return readSessionText(readFileSync(fixture.sessionPath, "utf8"), path.basename(fixture.sessionPath));
}

describeShared("whole request bodies against the recorded ones, first main request attached", (shared) => {
  let mainEqual = 0;
  let mainTotal = 0;
  let summaryEqual = 0;
  let summaryTotal = 0;
  for (const item of CASES) {
    describe(item.id, () => {
      const fixture = shared.case(item.id);
      const session = sessionOf(shared, item.id);
      const mains = fixture.requests("main");
      const captures = mains.map((request) => ({ source: request.file, body: request.body as unknown }));
      const options: PipelineOptions = { profile: item.policy === "senpi" ? "senpi" : "pi", header: learnCapture(mains[0]!.body, mains[0]!.file) };

      it("matches every main request to its own turn by its conversation", () => {
        expect(matchCaptureTurns(session, options, captures)).toEqual(mains.map((_, i) => i + 1));
      });

      it(`rebuilds ${item.equal} of ${mains.length} whole bodies byte for byte; the rest differ only where not derivable`, () => {
        const results = checkCaptures(session, options, captures);
        const equal = results.filter((result) => result.equal).length;
        mainEqual += equal;
        mainTotal += results.length;
        expect(equal).toBe(item.equal);
        const left = [...new Set(results.flatMap((result) => result.differences.map((difference) => difference.path)))].sort();
        expect(left).toEqual(item.notDerivable);
        for (const result of results) for (const difference of result.differences) expect(difference.class, `${result.source} ${difference.path}`).toBe("not derivable");
      });

      it("rebuilds every recorded summariser request byte for byte with the case's settings and captures", () => {
        const captured = fixture.requests("summary").map((request) => ({ source: request.file, body: request.body as unknown }));
        const replay = { ...(item.parameters ? { parameters: item.parameters } : {}), ...(item.limits ? { limits: item.limits } : {}), captured };
        const lines = replayRecordedCompactions(session, options, item.policy, replay);
        let equal = 0;
        for (const line of lines) {
          line.summariserRequests.forEach((body, k) => {
            const source = line.matches[k]!.captured;
            const recorded = captured.find((c) => c.source === source)!.body;
            if (JSON.stringify(body) === JSON.stringify(recorded)) equal++;
          });
        }
        summaryEqual += equal;
        summaryTotal += captured.length;
        expect(equal).toBe(captured.length);
      });
    });
  }

  it("totals (docs/captures.md)", () => {
    expect({ mainEqual, mainTotal, summaryEqual, summaryTotal }).toEqual({ mainEqual: 77, mainTotal: 92, summaryEqual: 11, summaryTotal: 11 });
  });
});
