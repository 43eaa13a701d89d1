// Promise-based bridge to the pipeline worker. Every open gets a run id: a new open cancels the
// run in progress, and results of stale runs or superseded calls are dropped (their promises
// reject with StaleResultError, which callers ignore).
//
// The watchdog: while an open or a call is pending, a worker that sends no message at all for
// `watchdogMs` (no progress, no reply, not even the sign of life it posts every ALIVE_EVERY_MS
// whenever its event loop turns) is stuck in one computation. It cannot be interrupted from
// inside, so the worker is terminated and a fresh one started; everything pending rejects with a
// WatchdogError that names the stage, and the next open works as usual. A long pass that yields
// (the exact token pass of a large session) keeps sending signs of life and is left to finish.
import type { FromWorker, ToWorker, WorkerMethod, WorkerMethods } from "./protocol";
import type { LoadProgress, OpenSource, SessionSummary } from "../features/open/protocol";

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

/** Default bound: far above any real file's reading or any one request, below a user's patience. */
export const DEFAULT_WATCHDOG_MS = 30_000;

/** What the user is told a stage was doing when the watchdog stopped it (the worker names its calls' stages when it starts). */
function stageName(method: WorkerMethod | "open", stages: Partial<Record<WorkerMethod, string>>): string {
  if (method === "open") return "reading the file";
  return stages[method] ?? `answering ${method}`;
}

/** A stage that did not answer within the bound; the worker was restarted. */
export class WatchdogError extends Error {
  constructor(
    readonly stage: string,
    readonly boundMs: number,
  ) {
    super(
      `Contextscope stopped ${stage}: the worker showed no sign of progress for ${Math.round(boundMs / 1000)} s, so the worker was restarted. ` +
        "This input may be damaged in a way we do not handle yet; please report it. You can open another file now.",
    );
    this.name = "WatchdogError";
  }
}

export interface PipelineClientOptions {
  /** Bound of one stage in milliseconds (default DEFAULT_WATCHDOG_MS); a function is asked each time a stage starts. */
  watchdogMs?: number | (() => number);
  /** Called after a restart (the session the worker held is gone). */
  onRestart?: (error: WatchdogError) => void;
  /** Makes a worker (tests); default the pipeline module worker. */
  createWorker?: () => Worker;
  /** Called when a (re)started worker has loaded its code. */
  onStarted?: () => void;
}

interface PendingOpen {
  runId: number;
  resolve(summary: SessionSummary): void;
  reject(error: Error): void;
  onProgress?: (progress: LoadProgress) => void;
  onProvisional?: (summary: SessionSummary) => void;
}

interface PendingCall {
  lane: string | null;
  method: WorkerMethod;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

export class PipelineClient {
  private worker: Worker;
  private nextRunId = 1;
  private nextCallId = 1;
  private pendingOpen: PendingOpen | null = null;
  /** Run id of the session the worker currently holds for us. */
  private sessionRunId = 0;
  private readonly calls = new Map<number, PendingCall>();
  /** Latest call id per lane: an older call on the same lane is stale when it answers. */
  private readonly lanes = new Map<string, number>();
  private readonly watchdogBound: () => number;
  /** The bound the running timer was armed with (named in the message). */
  private watchdogMs = DEFAULT_WATCHDOG_MS;
  private readonly createWorker: () => Worker;
  private readonly onRestart: ((error: WatchdogError) => void) | undefined;
  private readonly onStarted: (() => void) | undefined;
  /** What the worker calls each call's stage (it says so when it starts). */
  private stages: Partial<Record<WorkerMethod, string>> = {};
  /** The one timer: re-armed on every message while anything is pending. */
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(options: PipelineClientOptions | Worker = {}) {
    const settings: PipelineClientOptions = typeof (options as Worker).postMessage === "function" ? { createWorker: () => options as Worker } : (options as PipelineClientOptions);
    const bound = settings.watchdogMs ?? DEFAULT_WATCHDOG_MS;
    this.watchdogBound = typeof bound === "function" ? bound : () => bound;
    this.onRestart = settings.onRestart;
    this.onStarted = settings.onStarted;
    this.createWorker =
      settings.createWorker ?? (() => new Worker(new URL("./pipeline.worker.ts", import.meta.url), { type: "module", name: "contextscope-pipeline" }));
    this.worker = this.startWorker();
  }

  private startWorker(): Worker {
    const worker = this.createWorker();
    worker.onmessage = (event: MessageEvent<FromWorker>) => {
      if (worker !== this.worker) return;
      this.receive(event.data);
      this.arm();
    };
    worker.onerror = (event) => {
      if (worker === this.worker) this.failAll(new Error(`The pipeline worker failed: ${event.message || "unknown error"}`));
    };
    return worker;
  }

  /** (Re)starts the watchdog while something is pending; stops it when nothing is. */
  private arm(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (!this.pendingOpen && this.calls.size === 0) return;
    this.watchdogMs = this.watchdogBound();
    this.timer = setTimeout(() => this.expire(), this.watchdogMs);
  }

  /** The stage that is waited for (the open, or the oldest call) is stuck: restart the worker. */
  private expire(): void {
    this.timer = null;
    if (!this.pendingOpen && this.calls.size === 0) return;
    const oldest = this.calls.values().next().value as PendingCall | undefined;
    const error = new WatchdogError(stageName(this.pendingOpen ? "open" : (oldest?.method ?? "open"), this.stages), this.watchdogMs);
    this.worker.terminate();
    this.worker = this.startWorker();
    this.sessionRunId = 0;
    this.failAll(error);
    this.onRestart?.(error);
  }

  private send(message: ToWorker): void {
    this.worker.postMessage(message);
  }

  /**
   * Opens a session; cancels the open in progress. Resolves when the whole input is read. While
   * it is read, `onProvisional` gets the summaries of the entries read so far; from the first one
   * on, calls are about that provisional session (the previous one is gone).
   */
  open(source: OpenSource, onProgress?: (progress: LoadProgress) => void, onProvisional?: (summary: SessionSummary) => void): Promise<SessionSummary> {
    const previous = this.pendingOpen;
    if (previous) {
      this.send({ type: "cancel", runId: previous.runId });
      previous.reject(new StaleResultError("Open"));
    }
    const runId = this.nextRunId++;
    return new Promise<SessionSummary>((resolve, reject) => {
      const pending: PendingOpen = { runId, resolve, reject };
      if (onProgress) pending.onProgress = onProgress;
      if (onProvisional) pending.onProvisional = onProvisional;
      this.pendingOpen = pending;
      this.send({ type: "open", runId, source });
      this.arm();
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
      this.calls.set(callId, { lane, method, resolve: resolve as (value: unknown) => void, reject });
      this.send({ type: "call", callId, sessionRunId: this.sessionRunId, method, params });
      if (this.calls.size === 1 && !this.pendingOpen) this.arm();
    });
  }

  private receive(message: FromWorker): void {
    switch (message.type) {
      case "started":
        this.stages = message.stages;
        this.onStarted?.();
        return;
      case "alive":
        return; // re-arms the watchdog, as every message does
      case "progress":
        if (this.pendingOpen?.runId === message.runId) this.pendingOpen.onProgress?.(message.progress);
        return;
      case "provisional":
        if (this.pendingOpen?.runId !== message.runId) return;
        this.sessionRunId = message.runId;
        this.pendingOpen.onProvisional?.(message.summary);
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
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.worker.terminate();
  }
}
