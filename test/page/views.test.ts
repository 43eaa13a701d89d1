// The Diff tab while the user steps faster than diffs are built: the view left on screen must be
// the selected turn's, whatever order the worker's answers take. The worker bridge is replaced by
// one whose answers the test releases by hand.
import { beforeEach, describe, expect, it, vi } from "vitest";

interface PendingCall {
  method: string;
  turn: number | undefined;
  release: () => void;
}

const pending: PendingCall[] = [];

vi.mock("../../src/worker/client", () => ({
  DEFAULT_WATCHDOG_MS: 60_000,
  isStale: () => false,
  PipelineClient: class {
    call(method: string, params: { turn?: number }) {
      return new Promise((resolve) => {
        const turn = params.turn;
        pending.push({ method, turn, release: () => resolve(method === "turnDiff" ? { turn, shownFor: turn } : {}) });
      });
    }
  },
}));

const { selectIndex, setActiveTab } = await import("../../src/page/selection");
const { getAppState, setAppState } = await import("../../src/page/store");

/** Lets the awaiting code run after a release. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

async function releaseDiffOf(turn: number): Promise<void> {
  const index = pending.findIndex((call) => call.method === "turnDiff" && call.turn === turn);
  expect(index, `a diff of turn ${turn} is asked for`).toBeGreaterThanOrEqual(0);
  pending.splice(index, 1)[0]!.release();
  await settle();
}

describe("the Diff tab under fast stepping", () => {
  beforeEach(() => {
    pending.length = 0;
    setAppState({
      analysis: { branches: [], leafId: null, turns: [], warnings: [], timeline: [1, 2, 3, 4, 5].map((turn) => ({ kind: "turn", turn })) } as never,
      selectedIndex: 0,
      activeTab: "request",
    });
  });

  it("ends on the selected turn when it is asked for again while it is built", async () => {
    setActiveTab("diff");
    await settle();
    await releaseDiffOf(1);
    selectIndex(3); // turn 4: its diff is built
    await settle();
    selectIndex(2); // turn 3: queued behind turn 4
    selectIndex(3); // turn 4 again, while turn 4 is still built
    await releaseDiffOf(4);
    // Whatever is built next must be turn 4, not the queued turn 3.
    const next = pending.find((call) => call.method === "turnDiff");
    if (next) await releaseDiffOf(next.turn!);
    expect(pending.filter((call) => call.method === "turnDiff")).toEqual([]);
    expect(getAppState().diff.turn).toBe(4);
    expect(getAppState().diff.status).toBe("ready");
  });
});
