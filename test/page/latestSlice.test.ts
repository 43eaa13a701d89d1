// latestSlice, the one shape of a store slice a worker call fills: loading, then ready with the
// answer (each answer in turn, when there are several) or error with its message; a stale answer
// leaves the slice as it is; while one load runs, only the latest argument asked is loaded next.
import { beforeEach, describe, expect, it } from "vitest";
import { latestSlice } from "../../src/page/latestSlice";
import { getAppState, initialDiff, setAppState } from "../../src/page/store";
import { StaleResultError } from "../../src/worker/client";
import type { TurnDiffResult } from "../../src/features/prefix/protocol";

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A worker answer the test settles by hand. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const answer = (turn: number) => ({ turn }) as unknown as TurnDiffResult;

/** A load of the Diff slice whose answers are given by `fetch`. */
function diffLoader(fetch: (turn: number) => Promise<TurnDiffResult> | AsyncIterable<TurnDiffResult>) {
  return latestSlice((turn: number) => ({
    loading: (state) => ({ diff: { ...state.diff, status: "loading", turn, error: null } }),
    fetch: () => fetch(turn),
    ready: (result) => ({ diff: { status: "ready", turn, result, error: null } }),
    failed: (error) => ({ diff: { status: "error", turn, result: null, error } }),
  }));
}

describe("latestSlice", () => {
  beforeEach(() => setAppState({ diff: initialDiff }));

  it("shows loading, then the answer", async () => {
    const call = deferred<TurnDiffResult>();
    diffLoader(() => call.promise)(3);
    expect(getAppState().diff).toMatchObject({ status: "loading", turn: 3 });
    call.resolve(answer(3));
    await settle();
    expect(getAppState().diff).toEqual({ status: "ready", turn: 3, result: answer(3), error: null });
  });

  it("shows the error's message, and leaves a stale answer unshown", async () => {
    diffLoader(() => Promise.reject(new Error("no such turn")))(9);
    await settle();
    expect(getAppState().diff).toEqual({ status: "error", turn: 9, result: null, error: "no such turn" });

    diffLoader(() => Promise.reject(new StaleResultError("Call")))(4);
    await settle();
    expect(getAppState().diff).toMatchObject({ status: "loading", turn: 4 });
  });

  it("shows each of several answers as it comes", async () => {
    const first = deferred<TurnDiffResult>();
    const second = deferred<TurnDiffResult>();
    diffLoader(async function* () {
      yield await first.promise;
      yield await second.promise;
    })(2);
    first.resolve(answer(20));
    await settle();
    expect(getAppState().diff.result).toEqual(answer(20));
    second.resolve(answer(21));
    await settle();
    expect(getAppState().diff.result).toEqual(answer(21));
  });

  it("loads only the latest argument asked while a load runs", async () => {
    const calls = new Map<number, ReturnType<typeof deferred<TurnDiffResult>>>();
    const load = diffLoader((turn) => {
      const call = deferred<TurnDiffResult>();
      calls.set(turn, call);
      return call.promise;
    });
    load(1);
    load(2);
    load(3);
    expect([...calls.keys()]).toEqual([1]);
    calls.get(1)!.resolve(answer(1));
    await settle();
    expect([...calls.keys()]).toEqual([1, 3]);
    calls.get(3)!.resolve(answer(3));
    await settle();
    expect(getAppState().diff).toMatchObject({ status: "ready", turn: 3 });
  });
});
