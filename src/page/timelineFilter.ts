// The timeline filter: every row, or only the turns whose request breaks the cached prefix (as
// the rebuilt requests show, as the provider's own recorded verdict says, or a miss the recorded
// usage shows that nothing explains), the compaction rows, or the turns whose response ended in an error or was interrupted. The rows a
// filter keeps are indexes into the analysis's timeline, so selection stays one index; stepping
// with the keyboard (./selection.ts) moves between the rows the filter keeps.
import { create } from "zustand";
import type { TimelineItem, TurnSummary } from "../core/model";
import type { PrefixRow } from "../features/prefix/protocol";
import type { AppState } from "./store";

export type TimelineFilter = "all" | "breaks" | "compactions" | "errors";
export const TIMELINE_FILTERS: readonly TimelineFilter[] = ["all", "breaks", "compactions", "errors"];

export const useTimelineFilterStore = create<{ filter: TimelineFilter }>()(() => ({ filter: "all" }));

export function setTimelineFilter(filter: TimelineFilter): void {
  useTimelineFilterStore.setState({ filter });
}

/** A turn the timeline counts as a cache break: the rebuilt requests break, the provider reported one, or a miss nothing explains. */
export function isBreakRow(row: PrefixRow): boolean {
  return row.cause !== null || row.serverBreak === true || row.unexplainedMiss === true;
}

/** A response that failed or was interrupted (the timeline's "error" badge). */
function endedInError(summary: TurnSummary | undefined): boolean {
  return summary?.stopReason === "error" || summary?.stopReason === "aborted";
}

/** The rows of each filter, as indexes into the timeline, in timeline order. */
export type FilteredRows = Record<TimelineFilter, number[]>;

function filterRows(timeline: readonly TimelineItem[], turns: readonly TurnSummary[], prefix: readonly PrefixRow[] | null): FilteredRows {
  const breaks = new Set((prefix ?? []).filter(isBreakRow).map((row) => row.turn));
  const byTurn = new Map(turns.map((summary) => [summary.turn, summary]));
  const rows: FilteredRows = { all: [], breaks: [], compactions: [], errors: [] };
  timeline.forEach((item, index) => {
    rows.all.push(index);
    if (item.kind === "compaction") rows.compactions.push(index);
    if (item.kind !== "turn") return;
    if (breaks.has(item.turn)) rows.breaks.push(index);
    if (endedInError(byTurn.get(item.turn))) rows.errors.push(index);
  });
  return rows;
}

let memo: { timeline: readonly TimelineItem[]; turns: readonly TurnSummary[]; prefix: readonly PrefixRow[] | null; rows: FilteredRows } | null = null;

/** Every filter's rows of the open timeline (memoised on the analysis and the prefix rows). */
export function filteredRows(state: Pick<AppState, "analysis" | "prefix">): FilteredRows {
  const timeline = state.analysis?.timeline ?? [];
  const turns = state.analysis?.turns ?? [];
  const prefix = state.prefix.rows;
  if (memo && memo.timeline === timeline && memo.turns === turns && memo.prefix === prefix) return memo.rows;
  memo = { timeline, turns, prefix, rows: filterRows(timeline, turns, prefix) };
  return memo.rows;
}

/** The timeline indexes the current filter shows. */
export function visibleRows(state: Pick<AppState, "analysis" | "prefix">): number[] {
  return filteredRows(state)[useTimelineFilterStore.getState().filter];
}
