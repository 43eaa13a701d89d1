// What changed between two analyses of a followed session that grew: the worker sends the page
// only the lists' changed tails (the new turn summaries and timeline rows, and the last ones when
// a later line changed them) instead of every turn again, and the page appends them to the
// analysis it holds. At 38,504 turns the whole analysis is a structured clone of every turn summary
// and a new turn list for React on each append; the tail is one or two rows. The short parts
// (branches, warnings, auxiliary requests) are sent whole.
import type { SessionAnalysis } from "../core/session/pipeline";

/** A list as it is now: the first `from` items of the list before, then `items`. */
interface ListTail<T> {
  from: number;
  items: T[];
}

type Events = NonNullable<SessionAnalysis["events"]>;

export interface AnalysisDelta {
  /** The lengths of the analysis this delta extends (the page checks it holds that one). */
  base: { turns: number; timeline: number; events: number | null };
  turns: ListTail<SessionAnalysis["turns"][number]>;
  timeline: ListTail<SessionAnalysis["timeline"][number]>;
  /** Null when the new analysis has no events. */
  events: ListTail<Events[number]> | null;
  branches: SessionAnalysis["branches"];
  leafId: SessionAnalysis["leafId"];
  warnings: SessionAnalysis["warnings"];
  auxiliary: SessionAnalysis["auxiliary"] | null;
}

/**
 * Two items the same: one object (an agent that carries its caches keeps the earlier turn
 * summaries), else the same JSON (an agent that rebuilds them makes equal copies).
 */
function sameItem(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/** `after` as the part it shares with `before` from the start, and the rest. */
function tailOf<T>(before: readonly T[], after: readonly T[]): ListTail<T> {
  let from = 0;
  const shared = Math.min(before.length, after.length);
  while (from < shared && sameItem(before[from], after[from])) from++;
  return { from, items: after.slice(from) };
}

/** What `after` changes in `before` (analyses of the same session for the same options). */
export function analysisDelta(before: SessionAnalysis, after: SessionAnalysis): AnalysisDelta {
  return {
    base: { turns: before.turns.length, timeline: before.timeline.length, events: before.events?.length ?? null },
    turns: tailOf(before.turns, after.turns),
    timeline: tailOf(before.timeline, after.timeline),
    events: after.events ? tailOf(before.events ?? [], after.events) : null,
    branches: after.branches,
    leafId: after.leafId,
    warnings: after.warnings,
    auxiliary: after.auxiliary ?? null,
  };
}

/**
 * The analysis `delta` makes of `before`; null when `before` is not the analysis it was made
 * against (its lists' lengths differ), so the page asks for the whole analysis instead. The
 * unchanged items stay the same objects, so rows drawn from them are not drawn again.
 */
export function applyAnalysisDelta(before: SessionAnalysis, delta: AnalysisDelta): SessionAnalysis | null {
  const { base } = delta;
  if (before.turns.length !== base.turns || before.timeline.length !== base.timeline || (before.events?.length ?? null) !== base.events) return null;
  const after: SessionAnalysis = {
    branches: delta.branches,
    leafId: delta.leafId,
    turns: [...before.turns.slice(0, delta.turns.from), ...delta.turns.items],
    timeline: [...before.timeline.slice(0, delta.timeline.from), ...delta.timeline.items],
    warnings: delta.warnings,
  };
  if (delta.auxiliary) after.auxiliary = delta.auxiliary;
  if (delta.events) after.events = [...(before.events ?? []).slice(0, delta.events.from), ...delta.events.items];
  return after;
}
