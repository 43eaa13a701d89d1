// The error a recorded compaction raises when the file gives it no point to re-run from (nothing
// before it, no answered turn before it on the selected branch). The recorded replay turns it
// into a "failed" line for that compaction; any other error still stops the replay.
export class UnreplayablePointError extends Error {
  override name = "UnreplayablePointError";
}
