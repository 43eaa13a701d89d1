// The page's side of a session that grows while its file is read (src/page/analysis.ts
// `analyzeGrowth`): a later view is appended from the worker's delta when the page holds the
// analysis the delta was made against (its serial number), the rows before stay the same objects
// and the selection stays; otherwise, or when the worker has no delta, the whole analysis is asked
// for. The whole file's view after provisional ones is no longer provisional.
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { SessionAnalysis } from "../../src/core/session/pipeline";
import type { TurnSummary } from "../../src/core/model";

const calls: string[] = [];
/** What the stand-in worker answers next, by method. */
const answers = new Map<string, unknown[]>();

vi.mock("../../src/worker/client", () => ({
  DEFAULT_WATCHDOG_MS: 60_000,
  isStale: () => false,
  PipelineClient: class {
    call(method: string) {
      calls.push(method);
      const queued = answers.get(method)?.shift();
      return queued === undefined ? new Promise(() => undefined) : Promise.resolve(queued);
    }
  },
}));

const { analyze, analyzeGrowth } = await import("../../src/page/analysis");
const { analysisDelta } = await import("../../src/app/analysisDelta");
const { getAppState, setAppState } = await import("../../src/page/store");
const { pipelineOptions } = await import("../../src/page/workerBridge");

function summary(turn: number): TurnSummary {
  return { turn, entryId: `e${turn}`, timestamp: null, model: null, api: null, thinkingLevel: "off", messageCount: turn * 2, estimatedTokens: turn * 100, chars: turn * 400, usage: null, stopReason: "stop", afterCompaction: false, modelSwitched: false, hasNote: false, hasDropped: false };
}

function analysisOf(turns: number): SessionAnalysis {
  const summaries = Array.from({ length: turns }, (_, index) => summary(index + 1));
  return { branches: [], leafId: null, turns: summaries, timeline: summaries.map((item) => ({ kind: "turn", turn: item.turn })), warnings: [] };
}

const madeFor = () => ({ runId: 5, options: JSON.stringify(pipelineOptions()) });

/** The first provisional view's analysis, sent whole with serial number 1. */
async function showFirstView(): Promise<SessionAnalysis> {
  setAppState({ session: { runId: 5, provisional: { bytesRead: 10, totalBytes: 100 } } as never, analysis: null, selectedIndex: null });
  answers.set("analyze", [{ ...analysisOf(3), madeFor: madeFor(), sentId: 1 }]);
  await analyze({ keepTurn: false });
  setAppState({ selectedIndex: 1 });
  return getAppState().analysis!;
}

describe("a view of a file still read, grown on the page", () => {
  beforeEach(() => {
    calls.length = 0;
    answers.clear();
  });

  it("appends the rows read since when the page holds the analysis the delta extends", async () => {
    const shown = await showFirstView();
    expect(getAppState().analysisProvisional).toBe(true);
    // The whole file is read: the session is no longer provisional.
    setAppState({ session: { runId: 5 } as never });
    answers.set("analyzeGrowth", [{ madeFor: madeFor(), growth: { delta: structuredClone(analysisDelta(analysisOf(3), analysisOf(6))), baseId: 1, sentId: 2 } }]);
    await analyzeGrowth({});
    const after = getAppState().analysis!;
    expect(after.turns.map((item) => item.turn)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(after.turns[0]).toBe(shown.turns[0]);
    expect(after.timeline[2]).toBe(shown.timeline[2]);
    expect(getAppState().selectedIndex).toBe(1);
    expect(getAppState().analysisProvisional).toBe(false);
    expect(calls.filter((method) => method === "analyze")).toHaveLength(1);
  });

  it("asks for the whole analysis when the delta extends another one, or there is none", async () => {
    await showFirstView();
    answers.set("analyzeGrowth", [{ madeFor: madeFor(), growth: { delta: analysisDelta(analysisOf(3), analysisOf(6)), baseId: 9, sentId: 10 } }]);
    answers.set("analyze", [{ ...analysisOf(6), madeFor: madeFor(), sentId: 11 }]);
    await analyzeGrowth({});
    expect(calls.slice(-2)).toEqual(["analyzeGrowth", "analyze"]);
    expect(getAppState().analysis!.turns).toHaveLength(6);

    answers.set("analyzeGrowth", [{ madeFor: madeFor(), growth: null }]);
    answers.set("analyze", [{ ...analysisOf(8), madeFor: madeFor(), sentId: 12 }]);
    await analyzeGrowth({});
    expect(calls.slice(-2)).toEqual(["analyzeGrowth", "analyze"]);
    expect(getAppState().analysis!.turns).toHaveLength(8);
    // The next delta extends the one just sent whole.
    answers.set("analyzeGrowth", [{ madeFor: madeFor(), growth: { delta: analysisDelta(analysisOf(8), analysisOf(9)), baseId: 12, sentId: 13 } }]);
    await analyzeGrowth({});
    expect(calls.at(-1)).toBe("analyzeGrowth");
    expect(getAppState().analysis!.turns).toHaveLength(9);
  });

  it("selects the turn a restored view asks for once the rows read reach it", async () => {
    await showFirstView();
    answers.set("analyzeGrowth", [{ madeFor: madeFor(), growth: { delta: analysisDelta(analysisOf(3), analysisOf(6)), baseId: 1, sentId: 2 } }]);
    await analyzeGrowth({ turn: 5, turnFirst: true });
    const state = getAppState();
    expect(state.analysis!.timeline[state.selectedIndex!]).toEqual({ kind: "turn", turn: 5 });
  });
});
