// Runs an async task for the most recent argument only: while one run is in flight, newer calls
// replace each other and only the last is run afterwards. Holding `j` in the timeline therefore
// builds the turns the user stops on, not every turn in between.

export interface LatestOnly<T> {
  (arg: T): void;
  /**
   * The argument given last (in flight, queued or done). It is not always the one whose run is in
   * flight: a caller that skips an argument already being run must compare with this one.
   */
  lastAsked(): T | undefined;
}

export function latestOnly<T>(run: (arg: T) => Promise<void>): LatestOnly<T> {
  let running = false;
  let next: { arg: T } | null = null;
  let last: { arg: T } | null = null;
  const pump = async () => {
    running = true;
    while (next) {
      const { arg } = next;
      next = null;
      try {
        await run(arg);
      } catch {
        // Errors are reported by `run` itself through the store.
      }
    }
    running = false;
  };
  const ask = (arg: T) => {
    next = last = { arg };
    if (!running) void pump();
  };
  return Object.assign(ask, { lastAsked: () => last?.arg });
}
