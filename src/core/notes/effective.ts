// Effective language at a position (RL-14): the most recent explicit request before it, else the
// most recent reading that is not "none" (a latin reading means "no language"). Tracked
// incrementally while walking messages in order, so each message is looked at once.
import type { Reading } from "./reading";
import type { ReplyLanguageOptions } from "./options";
import type { RequestMatch } from "./request";

/** Where an effective language comes from. */
export interface LanguageSource {
  name: string;
  /** From an explicit request (RL-10) rather than the written language. */
  requested: boolean;
  /** The user message entry it was read from (null when not known, e.g. carried by a summary). */
  fromEntryId: string | null;
  /** Set when it was carried by a compaction summary (RL-21 … RL-23): that summary's entry id. */
  carriedByEntryId?: string | null;
}

export interface LanguageTracker {
  /** Latest request seen (history scope). */
  lastRequest: LanguageSource | null;
  /** Latest deciding reading: a name, or null for latin ("no language"); undefined = none seen. */
  lastReading: LanguageSource | null | undefined;
  /** Latest user message alone (latestMessage scope): undefined = none seen. */
  latest: LanguageSource | null | undefined;
}

export function createTracker(): LanguageTracker {
  return { lastRequest: null, lastReading: undefined, latest: undefined };
}

/** Feeds one user message's reading and request into the tracker. */
export function observeUserMessage(
  tracker: LanguageTracker,
  entryId: string | null,
  reading: Reading,
  request: RequestMatch | null,
  options: ReplyLanguageOptions,
): void {
  if (request) tracker.lastRequest = { name: request.language, requested: true, fromEntryId: entryId };
  let written: LanguageSource | null | undefined;
  if (reading.kind === "named") written = { name: reading.name, requested: false, fromEntryId: entryId };
  else if (reading.kind === "latin" && options.latinDecides) written = null;
  else written = undefined; // none (or latin that does not decide): keep the previous reading
  if (written !== undefined) tracker.lastReading = written;
  // latestMessage scope: only this message counts.
  tracker.latest = request ? { name: request.language, requested: true, fromEntryId: entryId } : (written ?? null);
}

/** Seeds the tracker from a compaction summary's carrier (the language before the summary). */
export function observeCarrier(tracker: LanguageTracker, carried: LanguageSource): void {
  if (carried.requested) tracker.lastRequest = carried;
  else tracker.lastReading = carried;
  tracker.latest = carried;
}

/** RL-14: the effective language now, or null for "no language". */
export function effectiveLanguage(tracker: LanguageTracker, options: ReplyLanguageOptions): LanguageSource | null {
  if (options.requestScope === "latestMessage") return tracker.latest ?? null;
  if (tracker.lastRequest) return tracker.lastRequest;
  return tracker.lastReading ?? null;
}
