// The pipeline client's watchdog over a stand-in worker: a call that takes longer than the bound
// while the worker keeps posting its sign of life is left to finish; a worker that goes silent
// for the bound is terminated, replaced, and the pending call rejects naming the stage. The worker
// itself posts that sign of life on a timer, which runs whenever its event loop turns.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PipelineClient, WatchdogError } from "../../src/worker/client";
import { ALIVE_EVERY_MS, type FromWorker, type ToWorker, type WorkerMethod } from "../../src/worker/protocol";

/** A worker that records what it is sent and answers when the test says so. */
class StandInWorker {
  onmessage: ((event: MessageEvent<FromWorker>) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  readonly sent: ToWorker[] = [];
  terminated = false;
  postMessage(message: ToWorker): void {
    this.sent.push(message);
  }
  terminate(): void {
    this.terminated = true;
  }
  say(message: FromWorker): void {
    this.onmessage?.({ data: message } as MessageEvent<FromWorker>);
  }
}

describe("pipeline watchdog", () => {
  let workers: StandInWorker[];
  let restarts: WatchdogError[];
  let client: PipelineClient;
  beforeEach(() => {
    vi.useFakeTimers();
    workers = [];
    restarts = [];
    client = new PipelineClient({
      watchdogMs: 30_000,
      createWorker: () => {
        const worker = new StandInWorker();
        workers.push(worker);
        return worker as unknown as Worker;
      },
      onRestart: (error) => restarts.push(error),
    });
  });
  afterEach(() => {
    client.terminate();
    vi.useRealTimers();
  });

  it("leaves a long call alone while the worker posts its sign of life", async () => {
    const worker = workers[0]!;
    const answer = client.call("prefixReports", { options: { profile: "pi" }, pass: "exact" });
    // Two minutes, four times the bound, with a sign of life every 5 s.
    for (let elapsed = 0; elapsed < 120_000; elapsed += 5_000) {
      vi.advanceTimersByTime(5_000);
      worker.say({ type: "alive" });
    }
    expect(restarts).toEqual([]);
    expect(worker.terminated).toBe(false);
    const call = worker.sent.find((message) => message.type === "call");
    expect(call).toBeDefined();
    worker.say({ type: "reply", callId: (call as { callId: number }).callId, ok: true, value: { rows: [] } });
    await expect(answer).resolves.toEqual({ rows: [] });
  });

  it("restarts a worker that stays silent for the bound, naming the stage the worker gave when it started", async () => {
    const worker = workers[0]!;
    worker.say({ type: "started", stages: { prefixReports: "prefix analysis" } as Record<WorkerMethod, string> });
    const answer = client.call("prefixReports", { options: { profile: "pi" }, pass: "exact" });
    const rejected = expect(answer).rejects.toBeInstanceOf(WatchdogError);
    vi.advanceTimersByTime(29_000);
    expect(restarts).toEqual([]);
    vi.advanceTimersByTime(2_000);
    await rejected;
    expect(worker.terminated).toBe(true);
    expect(workers).toHaveLength(2);
    expect(restarts).toHaveLength(1);
    expect(restarts[0]!.message).toMatch(/stopped prefix analysis/);
    expect(restarts[0]!.message).toMatch(/worker was restarted/);
  });

  it("a sign of life with nothing pending arms nothing", () => {
    const worker = workers[0]!;
    worker.say({ type: "alive" });
    vi.advanceTimersByTime(120_000);
    expect(restarts).toEqual([]);
    expect(worker.terminated).toBe(false);
  });
});

describe("the pipeline worker's sign of life", () => {
  it("is posted every ALIVE_EVERY_MS once the worker has started", async () => {
    vi.useFakeTimers();
    const posted: FromWorker[] = [];
    const scope = globalThis as unknown as { self?: unknown };
    const before = scope.self;
    scope.self = { postMessage: (message: FromWorker) => posted.push(message), onmessage: null };
    try {
      await import("../../src/worker/pipeline.worker");
      expect(posted).toHaveLength(1);
      const started = posted[0]!;
      expect(started.type).toBe("started");
      // Every call's stage is named, in words, for the page's watchdog message.
      const stages: Partial<Record<WorkerMethod, string>> = started.type === "started" ? started.stages : {};
      expect(stages.prefixReports).toBe("prefix analysis");
      expect(Object.keys(stages).length).toBeGreaterThan(30);
      for (const [method, stage] of Object.entries(stages)) expect(stage.length, method).toBeGreaterThan(8);
      vi.advanceTimersByTime(ALIVE_EVERY_MS * 3);
      expect(posted.filter((message) => message.type === "alive")).toHaveLength(3);
    } finally {
      vi.clearAllTimers();
      vi.useRealTimers();
      scope.self = before;
    }
  });
});
