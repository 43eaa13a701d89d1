// The page's side of a followed session that grew (src/page/analysis.ts `applyAnalysisGrowth`):
// the worker's delta is appended to the analysis shown, the rows before it stay the same objects
// (the timeline draws only the new ones), the selection stays, and a delta made for another
// analysis than the one shown is refused so the whole analysis is asked for instead.
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { SessionAnalysis } from "../../src/core/session/pipeline";
import type { TurnSummary } from "../../src/core/model";

const calls: string[] = [];

vi.mock("../../src/worker/client", () => ({
  DEFAULT_WATCHDOG_MS: 60_000,
  isStale: () => false,
  PipelineClient: class {
    call(method: string) {
      calls.push(method);
      return new Promise(() => undefined);
    }
  },
}));

const { applyAnalysisGrowth } = await import("../../src/page/analysis");
const { analysisDelta } = await import("../../src/app/analysisDelta");
const { getAppState, setAppState } = await import("../../src/page/store");
const { pipelineOptions } = await import("../../src/page/workerBridge");

function summary(turn: number, stopReason: string | null = "stop"): TurnSummary {
  return { turn, entryId: `e${turn}`, timestamp: null, model: null, api: null, thinkingLevel: "off", messageCount: turn * 2, estimatedTokens: turn * 100, chars: turn * 400, usage: null, stopReason, afterCompaction: false, modelSwitched: false, hasNote: false, hasDropped: false };
}

function analysisOf(summaries: TurnSummary[]): SessionAnalysis {
  return { branches: [], leafId: null, turns: summaries, timeline: summaries.map((item) => ({ kind: "turn", turn: item.turn })), warnings: [] };
}

const key = () => JSON.stringify(pipelineOptions());

describe("a grown analysis appended on the page", () => {
  beforeEach(() => {
    calls.length = 0;
    // The last turn was still being answered (no stop reason yet) when the page got it.
    setAppState({ analysis: analysisOf([summary(1), summary(2), summary(3, null)]), analysisProvisional: false, selectedIndex: 1, activeTab: "diff", diff: { status: "ready", turn: 2, result: null, error: null } as never });
  });

  it("keeps the rows before the changed ones and appends the new ones", () => {
    const shown = getAppState().analysis!;
    const grown = analysisOf([summary(1), summary(2), summary(3), summary(4), summary(5)]);
    expect(applyAnalysisGrowth(structuredClone(analysisDelta(shown, grown)), key())).toBe(true);
    const after = getAppState().analysis!;
    expect(after.turns.map((item) => [item.turn, item.stopReason])).toEqual([[1, "stop"], [2, "stop"], [3, "stop"], [4, "stop"], [5, "stop"]]);
    expect(after.timeline).toHaveLength(5);
    // The unchanged rows are the objects the timeline drew before.
    expect(after.turns[0]).toBe(shown.turns[0]);
    expect(after.turns[1]).toBe(shown.turns[1]);
    expect(after.timeline[1]).toBe(shown.timeline[1]);
    expect(after.turns[2]).not.toBe(shown.turns[2]);
    // The selected turn did not change: it stays selected and its Diff is not built again.
    expect(getAppState().selectedIndex).toBe(1);
    expect(getAppState().diff.turn).toBe(2);
    expect(calls).toEqual([]);
  });

  it("keeps a selected row that changed selected, and builds its views again", () => {
    setAppState({ selectedIndex: 2, diff: { status: "ready", turn: 3, result: null, error: null } as never });
    const grown = analysisOf([summary(1), summary(2), summary(3), summary(4)]);
    expect(applyAnalysisGrowth(analysisDelta(getAppState().analysis!, grown), key())).toBe(true);
    expect(getAppState().selectedIndex).toBe(2);
    // Its Diff (shown for turn 2's values before) is built again for the changed turn 3.
    expect(getAppState().diff).toMatchObject({ status: "loading", turn: 3 });
    expect(calls).toEqual(expect.arrayContaining(["turnDiff", "buildRequest"]));
  });

  it("refuses a delta made for another analysis or other options", () => {
    const shown = getAppState().analysis!;
    const delta = analysisDelta(analysisOf([summary(1), summary(2)]), analysisOf([summary(1), summary(2), summary(3), summary(4)]));
    expect(applyAnalysisGrowth(delta, key())).toBe(false);
    const own = analysisDelta(shown, analysisOf([summary(1), summary(2), summary(3), summary(4)]));
    expect(applyAnalysisGrowth(own, JSON.stringify({ ...pipelineOptions(), notes: !pipelineOptions().notes }))).toBe(false);
    expect(getAppState().analysis).toBe(shown);
  });
});
