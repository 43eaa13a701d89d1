// Promise-based bridge to the pipeline worker. Every open gets a run id: a new open cancels the
// run in progress, and results of stale runs or superseded calls are dropped (their promises
// reject with StaleResultError, which callers ignore).
import type {
  FromWorker,
  LoadProgress,
  OpenSource,
  SessionSummary,
  ToWorker,
  WorkerMethod,
  WorkerMethods,
} from "./protocol";

/** Rejection of a result nobody wants any more (a newer open or call replaced it). */
export class StaleResultError extends Error {
  constructor(what: string) {
    super(`${what} was superseded`);
    this.name = "StaleResultError";
  }
}

export function isStale(error: unknown): boolean {
  return error instanceof StaleResultError;
}

interface PendingOpen {
  runId: number;
  resolve(summary: SessionSummary): void;
  reject(error: Error): void;
  onProgress?: (progress: LoadProgress) => void;
}

interface PendingCall {
  lane: string | null;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

export class PipelineClient {
  private readonly worker: Worker;
  private nextRunId = 1;
  private nextCallId = 1;
  private pendingOpen: PendingOpen | null = null;
  /** Run id of the session the worker currently holds for us. */
  private sessionRunId = 0;
  private readonly calls = new Map<number, PendingCall>();
  /** Latest call id per lane: an older call on the same lane is stale when it answers. */
  private readonly lanes = new Map<string, number>();

  constructor(worker?: Worker) {
    this.worker =
      worker ??
      new Worker(new URL("./pipeline.worker.ts", import.meta.url), { type: "module", name: "contextscope-pipeline" });
    this.worker.onmessage = (event: MessageEvent<FromWorker>) => this.receive(event.data);
    this.worker.onerror = (event) => this.failAll(new Error(`The pipeline worker failed: ${event.message || "unknown error"}`));
  }

  private send(message: ToWorker): void {
    this.worker.postMessage(message);
  }

  /** Opens a session; cancels the open in progress. Resolves when the whole input is read. */
  open(source: OpenSource, onProgress?: (progress: LoadProgress) => void): Promise<SessionSummary> {
    const previous = this.pendingOpen;
    if (previous) {
      this.send({ type: "cancel", runId: previous.runId });
      previous.reject(new StaleResultError("Open"));
    }
    const runId = this.nextRunId++;
    return new Promise<SessionSummary>((resolve, reject) => {
      const pending: PendingOpen = { runId, resolve, reject };
      if (onProgress) pending.onProgress = onProgress;
      this.pendingOpen = pending;
      this.send({ type: "open", runId, source });
    });
  }

  /** Cancels the open in progress, if any; the previous session stays loaded. */
  cancelOpen(): void {
    const pending = this.pendingOpen;
    if (!pending) return;
    this.pendingOpen = null;
    this.send({ type: "cancel", runId: pending.runId });
    pending.reject(new StaleResultError("Open"));
  }

  /**
   * Calls a worker method about the current session. With a `lane`, a newer call on the same lane
   * makes this one stale (e.g. rapid turn stepping only renders the last requested turn).
   */
  call<M extends WorkerMethod>(
    method: M,
    params: WorkerMethods[M]["params"],
    lane: string | null = null,
  ): Promise<WorkerMethods[M]["result"]> {
    const callId = this.nextCallId++;
    if (lane) this.lanes.set(lane, callId);
    return new Promise((resolve, reject) => {
      this.calls.set(callId, { lane, resolve: resolve as (value: unknown) => void, reject });
      this.send({ type: "call", callId, sessionRunId: this.sessionRunId, method, params });
    });
  }

  private receive(message: FromWorker): void {
    switch (message.type) {
      case "progress":
        if (this.pendingOpen?.runId === message.runId) this.pendingOpen.onProgress?.(message.progress);
        return;
      case "opened": {
        const pending = this.pendingOpen;
        if (pending?.runId !== message.runId) return;
        this.pendingOpen = null;
        this.sessionRunId = message.runId;
        pending.resolve(message.summary);
        return;
      }
      case "open-failed": {
        const pending = this.pendingOpen;
        if (pending?.runId !== message.runId) return;
        this.pendingOpen = null;
        pending.reject(message.cancelled ? new StaleResultError("Open") : new Error(message.message));
        return;
      }
      case "reply": {
        const pending = this.calls.get(message.callId);
        if (!pending) return;
        this.calls.delete(message.callId);
        const superseded = pending.lane !== null && this.lanes.get(pending.lane) !== message.callId;
        if (superseded) pending.reject(new StaleResultError("Call"));
        else if (message.ok) pending.resolve(message.value);
        else pending.reject(message.stale ? new StaleResultError("Call") : new Error(message.error));
        return;
      }
    }
  }

  private failAll(error: Error): void {
    this.pendingOpen?.reject(error);
    this.pendingOpen = null;
    for (const pending of this.calls.values()) pending.reject(error);
    this.calls.clear();
  }

  terminate(): void {
    this.worker.terminate();
  }
}
