// A second session opened over a first one: the page keeps no figure of the first. Results carry
// the session (open run) and options they were made for; the page drops a result that is not for
// the session on screen, and asks afresh for the new session's prefix rows even when the options
// are the same. The worker bridge is replaced by one whose answers the test gives by hand.
import { beforeEach, describe, expect, it, vi } from "vitest";

interface PendingCall {
  method: string;
  params: { options: unknown; pass?: string };
  answer: (value: unknown) => void;
}

const pending: PendingCall[] = [];

vi.mock("../../src/worker/client", () => ({
  DEFAULT_WATCHDOG_MS: 60_000,
  isStale: () => false,
  PipelineClient: class {
    call(method: string, params: PendingCall["params"]) {
      return new Promise((resolve) => pending.push({ method, params, answer: resolve }));
    }
  },
}));

const { loadPrefixReports } = await import("../../src/page/views");
const { analyze } = await import("../../src/page/analysis");
const { getAppState, initialPrefix, setAppState } = await import("../../src/page/store");

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

const row = (turn: number, cause: string | null) => ({ turn, tokens: 100 * turn, cause });

/** Shows the session read by open run `runId` (only what the page's keys read of it). */
function showSession(runId: number): void {
  setAppState({ session: { runId, fileName: `run-${runId}.jsonl` } as never, analysis: null, selectedIndex: null });
}

/** Answers the oldest pending call of `method` with `value`, made for open run `runId` and the options it was asked with. */
async function answer(method: string, runId: number, value: Record<string, unknown>): Promise<void> {
  const index = pending.findIndex((call) => call.method === method);
  expect(index, `a ${method} call is pending`).toBeGreaterThanOrEqual(0);
  const call = pending.splice(index, 1)[0]!;
  call.answer({ ...value, pass: call.params.pass, madeFor: { runId, options: JSON.stringify(call.params.options) } });
  await settle();
}

describe("results made for another session than the one on screen", () => {
  beforeEach(() => {
    pending.length = 0;
    setAppState({ prefix: initialPrefix });
  });

  it("asks for the new session's prefix rows although the options are the same", async () => {
    showSession(1);
    void loadPrefixReports();
    await answer("prefixReports", 1, { rows: [row(1, null), row(2, "tools changed")] });
    await answer("prefixReports", 1, { rows: [row(1, null), row(2, "tools changed")] });
    expect(getAppState().prefix.pass).toBe("exact");
    expect(getAppState().prefix.rows).toHaveLength(2);

    // The second session, whose rows the page has not yet: the first's must not stand for them.
    showSession(2);
    void loadPrefixReports();
    expect(getAppState().prefix.rows).toBeNull();
    await answer("prefixReports", 2, { rows: [row(1, null)] });
    await answer("prefixReports", 2, { rows: [row(1, null)] });
    expect(getAppState().prefix.rows).toEqual([row(1, null)]);
  });

  it("drops prefix rows that arrive for the previous session", async () => {
    showSession(3);
    void loadPrefixReports();
    expect(pending.filter((call) => call.method === "prefixReports")).toHaveLength(1);
    // The session changes while the pass is answered; the page asks for the new one's.
    showSession(4);
    await answer("prefixReports", 3, { rows: [row(1, "system prompt changed")] });
    expect(getAppState().prefix.rows).toBeNull();
  });

  it("drops an analysis made for another session", async () => {
    showSession(5);
    void analyze({ keepTurn: false });
    showSession(6);
    await answer("analyze", 5, { branches: [], leafId: null, turns: [], warnings: [], timeline: [{ kind: "turn", turn: 1 }] });
    expect(getAppState().analysis).toBeNull();

    void analyze({ keepTurn: false });
    await answer("analyze", 6, { branches: [], leafId: null, turns: [], warnings: [], timeline: [{ kind: "turn", turn: 1 }] });
    expect(getAppState().analysis?.timeline).toHaveLength(1);
  });
});
