// ISO 8601 text of a time read from a session file. Files hold times as numbers the agent wrote,
// but a hostile or broken file can hold any number: outside what a Date represents (|t| > 8.64e15
// ms) `toISOString` throws, so such a time reads as absent instead.

/** ISO text of a time in milliseconds since the epoch; null when absent or not representable. */
export function isoFromEpochMs(epochMs: unknown): string | null {
  if (typeof epochMs !== "number" || !Number.isFinite(epochMs)) return null;
  const date = new Date(epochMs);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}
