// The one shape of a store slice that a worker call fills (the selected turn's request, a
// compaction's or an auxiliary request's view, the Diff and Tokens tabs, a message's tokens): set
// to loading, then ready with the worker's answer or error with its message. Runs for the latest
// argument only (./latestOnly.ts); an answer made stale (a newer session or call) changes nothing.
import { isStale } from "../worker/client";
import { latestOnly, type LatestOnly } from "./latestOnly";
import { setAppState, type AppState } from "./store";
import { errorMessage } from "./workerBridge";

type StateUpdate = Partial<AppState> | ((state: AppState) => Partial<AppState>);

/** One load of a slice: what it shows meanwhile, the worker's answer, and how each outcome shows. */
interface SliceLoad<R> {
  loading: StateUpdate;
  /** The worker's answer, or several in turn (estimates, then exact counts), each shown as it comes. */
  fetch: () => Promise<R> | AsyncIterable<R>;
  ready: (result: R) => StateUpdate;
  failed: (message: string) => StateUpdate;
}

/** Loads a slice for each argument asked (the latest only, while one load runs); `load` describes it. */
export function latestSlice<A, R>(load: (arg: A) => SliceLoad<R>): LatestOnly<A> {
  return latestOnly(async (arg: A) => {
    const slice = load(arg);
    setAppState(slice.loading);
    try {
      const answer = slice.fetch();
      if (Symbol.asyncIterator in answer) for await (const result of answer) setAppState(slice.ready(result));
      else setAppState(slice.ready(await answer));
    } catch (error) {
      if (isStale(error)) return;
      setAppState(slice.failed(errorMessage(error)));
    }
  });
}
