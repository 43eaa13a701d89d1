// Messages between the page and the pipeline worker. The worker owns the parsed Session; the page
// only ever receives plain, structured-cloneable results (summaries, analyses, one materialised
// request at a time), never the session itself. The calls and their types are the features'
// (src/features/<feature>/protocol.ts), composed in src/worker/features.ts. Types only.
import type { WorkerMethod, WorkerMethods } from "./features";
import type { LoadProgress, OpenSource, SessionSummary } from "../features/open/protocol";

export type { WorkerMethod, WorkerMethods } from "./features";

/** Page → worker. */
export type ToWorker =
  | { type: "open"; runId: number; source: OpenSource }
  | { type: "cancel"; runId: number }
  | {
      type: "call";
      callId: number;
      /** The open run whose session the call is about; the worker refuses calls for older runs. */
      sessionRunId: number;
      method: WorkerMethod;
      params: WorkerMethods[WorkerMethod]["params"];
    };

/**
 * How often the worker says it is alive. It can only post when its event loop turns, so the
 * client's watchdog tells a worker stuck in one computation (silent) from a long pass that
 * yields as it goes (the exact token pass of a 1 GB session takes minutes).
 */
export const ALIVE_EVERY_MS = 5_000;

/** Worker → page. */
export type FromWorker =
  /** The worker's code is loaded and it takes messages (posted once, at start), with what each call's stage is called. */
  | { type: "started"; stages: Record<WorkerMethod, string> }
  /** Posted every ALIVE_EVERY_MS while the worker's event loop turns. */
  | { type: "alive" }
  | { type: "progress"; runId: number; progress: LoadProgress }
  /** The entries read so far, while the open goes on (SessionSummary.provisional is set). */
  | { type: "provisional"; runId: number; summary: SessionSummary }
  | { type: "opened"; runId: number; summary: SessionSummary }
  | { type: "open-failed"; runId: number; message: string; cancelled: boolean }
  | { type: "reply"; callId: number; ok: true; value: unknown }
  | { type: "reply"; callId: number; ok: false; error: string; stale: boolean };
