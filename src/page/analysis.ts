// Analysing the open session (turns, timeline) for the current options, then selecting the turn
// the user was on (or the one a restored view asks for) and loading what it shows.
import type { TimelineItem } from "../core/model";
import type { SessionAnalysis } from "../core/session/pipeline";
import { applyAnalysisDelta, type AnalysisDelta } from "../app/analysisDelta";
import { isStale } from "../worker/client";
import { selectedItem } from "./selectors";
import { getAppState, initialConversation, initialDiff, initialRequest, initialTokens, setAppState } from "./store";
import { loadPrefixReports, loadSelection } from "./views";
import { errorMessage, isForShown, pipeline, pipelineOptions } from "./workerBridge";

/**
 * The worker's serial number of each analysis the page was sent whole or grew from a delta: a
 * delta is applied only to the analysis it was made against.
 */
const sentIds = new WeakMap<SessionAnalysis, number>();

/** Which turn or row to show, and how the analysis on screen is replaced. */
interface AnalyzeChoice {
  /** The item selected before stays selected when the new timeline has it. */
  keepTurn: boolean;
  /** The turn a restored view (share link, URL) asks for. */
  turn?: number | null;
  /** That turn wins over the one kept when the new timeline has it (a reload's turn, which the entries read so far did not reach). */
  turnFirst?: boolean;
}

export async function analyze({ keepTurn, turn = null, turnFirst = false }: AnalyzeChoice): Promise<void> {
  // Of the session the worker holds now: the entries read so far while the file is still read.
  const provisional = Boolean(getAppState().session?.provisional);
  try {
    const analysis = await pipeline().call("analyze", { options: pipelineOptions() }, "analyze");
    // Made for another session or other options than those on screen now: a newer call is asked for those.
    if (!isForShown(analysis.madeFor)) return;
    sentIds.set(analysis, analysis.sentId);
    show(analysis, provisional, { keepTurn, turn, turnFirst });
  } catch (error) {
    if (isStale(error)) return;
    setAppState({ analysisError: errorMessage(error), analysis: null, selectedIndex: null, request: initialRequest });
  }
}

/**
 * The session shown grew while its file is read (a later view of the entries read so far, or the
 * whole file after one): the worker sends what changed in the analysis on screen and the page
 * appends it, so a view of 300,000 turns does not bring every turn across again. The whole
 * analysis when the worker cannot say (other options) or the page holds another one.
 */
export async function analyzeGrowth({ turn = null, turnFirst = false }: Omit<AnalyzeChoice, "keepTurn">): Promise<void> {
  const provisional = Boolean(getAppState().session?.provisional);
  try {
    const { madeFor, growth } = await pipeline().call("analyzeGrowth", { options: pipelineOptions() }, "analyze");
    if (!isForShown(madeFor)) return;
    const held = getAppState().analysis;
    const analysis = growth && held && sentIds.get(held) === growth.baseId ? applyAnalysisDelta(held, growth.delta) : null;
    if (analysis && growth) {
      sentIds.set(analysis, growth.sentId);
      show(analysis, provisional, { keepTurn: true, turn, turnFirst });
      return;
    }
  } catch (error) {
    if (isStale(error)) return;
  }
  await analyze({ keepTurn: true, turn, turnFirst });
}

/** Puts `analysis` on screen with the turn or row chosen, and loads what the selection shows. */
function show(analysis: SessionAnalysis, provisional: boolean, { keepTurn, turn = null, turnFirst = false }: AnalyzeChoice): void {
  // Read the selection only now: the user may have moved it while the worker was busy.
  const previous = selectedItem(getAppState());
  const timeline = analysis.timeline;
  const asked = turn === null ? -1 : timeline.findIndex((item) => item.kind === "turn" && item.turn === turn);
  let index = turnFirst && asked >= 0 ? asked : keepTurn && previous ? indexOfItem(timeline, previous) : -1;
  // A restored view (share link, URL) asks for its turn; a turn past the end falls back to the first.
  if (index < 0) index = asked;
  if (index < 0) index = firstItemIndex(timeline);
  setAppState({
    analysis,
    analysisProvisional: provisional,
    analysisError: null,
    selectedIndex: index >= 0 ? index : null,
    request: keepTurn ? getAppState().request : initialRequest,
    // Built for the previous options: rebuilt for the selected turn when their tab is shown.
    diff: initialDiff,
    conversation: initialConversation,
    tokens: initialTokens,
  });
  loadSelection();
  // Prefix passes (and exact counts) wait for the whole file: the reading goes first.
  if (!provisional) void loadPrefixReports();
}

/** The index in `timeline` of `previous` (the same turn, compaction or auxiliary request); -1 when it is not there. */
function indexOfItem(timeline: readonly TimelineItem[], previous: TimelineItem): number {
  return timeline.findIndex((item) =>
    previous.kind === "turn"
      ? item.kind === "turn" && item.turn === previous.turn
      : previous.kind === "compaction"
        ? item.kind === "compaction" && item.entryId === previous.entryId
        : item.kind === "auxiliary" && item.index === previous.index,
  );
}

/** The item selected when none is asked for: the first turn, else the first row; -1 for an empty timeline. */
function firstItemIndex(timeline: readonly TimelineItem[]): number {
  const turn = timeline.findIndex((item) => item.kind === "turn");
  return turn >= 0 ? turn : timeline.length > 0 ? 0 : -1;
}

/**
 * The followed session grew and the worker sent what changed in the analysis shown (`delta`, made
 * for the options of `optionsKey`): the new rows are appended to it, and the rows before the
 * changed ones stay the same objects (React draws only the new ones). The selection stays; the
 * views of a selected row that did not change are kept. False when the analysis shown is not the
 * one the delta extends (the options changed meanwhile): the caller asks for the whole analysis.
 */
export function applyAnalysisGrowth(delta: AnalysisDelta, optionsKey: string): boolean {
  const state = getAppState();
  if (!state.analysis || state.analysisProvisional || JSON.stringify(pipelineOptions()) !== optionsKey) return false;
  const analysis = applyAnalysisDelta(state.analysis, delta);
  if (!analysis) return false;
  // The selected row, and its turn's summary when it is a turn (turn n is the n-th summary), are
  // before what changed.
  const selected = selectedItem(state);
  const unchanged = selected !== null && state.selectedIndex! < delta.timeline.from && (selected.kind !== "turn" || selected.turn <= delta.turns.from);
  if (unchanged) {
    setAppState({ analysis, analysisError: null });
    return true;
  }
  const found = selected ? indexOfItem(analysis.timeline, selected) : -1;
  const index = found >= 0 ? found : firstItemIndex(analysis.timeline);
  setAppState({ analysis, analysisError: null, selectedIndex: index >= 0 ? index : null, diff: initialDiff, conversation: initialConversation, tokens: initialTokens });
  loadSelection();
  return true;
}
