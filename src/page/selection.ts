// Moving the selection: the timeline item shown (stepping, jumping to an edge or a turn), the
// centre tab and the Messages row; each move loads what the new selection shows (./views.ts).
// Stepping and jumping move between the rows the timeline filter shows (./timelineFilter.ts).
import { selectedItem } from "./selectors";
import { setTimelineFilter, visibleRows, type TimelineFilter } from "../features/timeline/timelineFilter";
import { getAppState, setAppState, type CenterTab } from "./store";
import { loadSelection, loadTabView } from "./views";

export function selectIndex(index: number): void {
  const timeline = getAppState().analysis?.timeline ?? [];
  if (timeline.length === 0) return;
  const clamped = Math.max(0, Math.min(timeline.length - 1, index));
  if (clamped === getAppState().selectedIndex) return;
  setAppState({ selectedIndex: clamped });
  loadSelection();
}

/** The shown row nearest `index` in the direction of `delta` (the row itself when it is shown). */
function nearestShown(rows: readonly number[], index: number, delta: number): number | undefined {
  if (delta >= 0) return rows.find((row) => row >= index) ?? rows[rows.length - 1];
  for (let at = rows.length - 1; at >= 0; at--) if ((rows[at] as number) <= index) return rows[at];
  return rows[0];
}

export function stepSelection(delta: number): void {
  const state = getAppState();
  const rows = visibleRows(state);
  if (rows.length === 0) return;
  const current = state.selectedIndex;
  if (current === null) return selectIndex(rows[0] as number);
  const position = rows.indexOf(current);
  // A selection the filter hides: the first shown row in the step's direction.
  const next = position < 0 ? nearestShown(rows, current, delta) : rows[Math.max(0, Math.min(rows.length - 1, position + delta))];
  if (next !== undefined) selectIndex(next);
}

export function selectEdge(edge: "first" | "last"): void {
  const rows = visibleRows(getAppState());
  const index = edge === "first" ? rows[0] : rows[rows.length - 1];
  if (index !== undefined) selectIndex(index);
}

/** Shows the rows of `filter`; a selection it hides moves to the nearest row it shows. */
export function chooseTimelineFilter(filter: TimelineFilter): void {
  setTimelineFilter(filter);
  const state = getAppState();
  const rows = visibleRows(state);
  const current = state.selectedIndex;
  if (rows.length === 0 || current === null || rows.includes(current)) return;
  const next = nearestShown(rows, current, 1);
  if (next !== undefined) selectIndex(next);
}

/** Selects turn `turn` of the timeline shown, when it has it. */
export function selectTurnNumber(turn: number): void {
  const index = (getAppState().analysis?.timeline ?? []).findIndex((item) => item.kind === "turn" && item.turn === turn);
  if (index >= 0) selectIndex(index);
}

export function setActiveTab(tab: CenterTab): void {
  setAppState({ activeTab: tab });
  const item = selectedItem(getAppState());
  if (item?.kind === "turn") loadTabView(item.turn);
}

/** Selects a row of the Messages tab (its context index), for the Details panel. */
export function selectMessage(turn: number, index: number | null): void {
  setAppState({ selectedMessage: index === null ? null : { turn, index } });
}
