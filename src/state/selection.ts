// Moving the selection: the timeline item shown (stepping, jumping to an edge or a turn), the
// centre tab and the Messages row; each move loads what the new selection shows (./views.ts).
import { selectedItem } from "./selectors";
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

export function stepSelection(delta: number): void {
  const current = getAppState().selectedIndex;
  selectIndex(current === null ? 0 : current + delta);
}

export function selectEdge(edge: "first" | "last"): void {
  const length = getAppState().analysis?.timeline.length ?? 0;
  selectIndex(edge === "first" ? 0 : length - 1);
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
