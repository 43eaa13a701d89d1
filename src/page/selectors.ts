// Derived state: computed from the store on demand, never stored. Selectors that build arrays are
// memoised on their inputs so React components re-render only when the inputs change.
import type { ReaderWarning, TimelineItem, TurnSummary } from "../core/model";
import type { AppState } from "./store";

export interface LabelledWarning extends ReaderWarning {
  source: "reader" | "pipeline";
}

export function turnCount(state: AppState): number {
  return state.analysis?.turns.length ?? 0;
}

/**
 * The request kept on screen was built with options since changed (provider, profile, notes…):
 * shown until the rebuilt one arrives, and not the current request.
 */
export function requestIsOutdated(state: AppState): boolean {
  return state.request.builtFor !== null && state.request.builtFor !== state.options;
}

export function selectedItem(state: AppState): TimelineItem | null {
  const index = state.selectedIndex;
  if (index === null || !state.analysis) return null;
  return state.analysis.timeline[index] ?? null;
}

export function selectedTurnNumber(state: AppState): number | null {
  const item = selectedItem(state);
  return item?.kind === "turn" ? item.turn : null;
}

/** Turn summaries by turn number (turns are 1-based and listed in order). */
export function turnSummary(state: AppState, turn: number): TurnSummary | null {
  const turns = state.analysis?.turns ?? [];
  const direct = turns[turn - 1];
  if (direct?.turn === turn) return direct;
  return turns.find((t) => t.turn === turn) ?? null;
}

let warningsMemo: { reader: ReaderWarning[] | undefined; pipeline: ReaderWarning[] | undefined; value: LabelledWarning[] } | null =
  null;

/** Reader warnings then pipeline warnings, each sorted by line. */
export function allWarnings(state: AppState): LabelledWarning[] {
  const reader = state.session?.warnings;
  const pipeline = state.analysis?.warnings;
  if (warningsMemo && warningsMemo.reader === reader && warningsMemo.pipeline === pipeline) return warningsMemo.value;
  const value: LabelledWarning[] = [
    // A notice (which session of a database is shown) is said by the session picker, not counted here.
    ...(reader ?? []).filter((w) => !w.notice).map((w) => ({ ...w, source: "reader" as const })),
    ...(pipeline ?? []).map((w) => ({ ...w, source: "pipeline" as const })),
  ];
  warningsMemo = { reader, pipeline, value };
  return value;
}

