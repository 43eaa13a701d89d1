// Runs an async task for the most recent argument only: while one run is in flight, newer calls
// replace each other and only the last is run afterwards. Holding `j` in the timeline therefore
// builds the turns the user stops on, not every turn in between.
export function latestOnly<T>(run: (arg: T) => Promise<void>): (arg: T) => void {
  let running = false;
  let next: { arg: T } | null = null;
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
  return (arg: T) => {
    next = { arg };
    if (!running) void pump();
  };
}
