// Analysing the open session (turns, timeline) for the current options, then selecting the turn
// the user was on (or the one a restored view asks for) and loading what it shows.
import { isStale } from "../worker/client";
import { selectedItem } from "./selectors";
import { getAppState, initialConversation, initialDiff, initialRequest, initialTokens, setAppState } from "./store";
import { loadPrefixReports, loadSelection } from "./views";
import { errorMessage, pipeline, pipelineOptions } from "./workerBridge";

/**
 * `keepTurn`: the item selected before stays selected when the new timeline has it; `turn`: the
 * turn a restored view (share link, URL) asks for.
 */
export async function analyze({ keepTurn, turn = null }: { keepTurn: boolean; turn?: number | null }): Promise<void> {
  // Of the session the worker holds now: the entries read so far while the file is still read.
  const provisional = Boolean(getAppState().session?.provisional);
  try {
    const analysis = await pipeline().call("analyze", { options: pipelineOptions() }, "analyze");
    // Read the selection only now: the user may have moved it while the worker was busy.
    const previous = selectedItem(getAppState());
    const timeline = analysis.timeline;
    let index = -1;
    if (keepTurn && previous) {
      index = timeline.findIndex((item) =>
        previous.kind === "turn"
          ? item.kind === "turn" && item.turn === previous.turn
          : previous.kind === "compaction"
            ? item.kind === "compaction" && item.entryId === previous.entryId
            : item.kind === "auxiliary" && item.index === previous.index,
      );
    }
    // A restored view (share link, URL) asks for its turn; a turn past the end falls back to the first.
    if (index < 0 && turn !== null) index = timeline.findIndex((item) => item.kind === "turn" && item.turn === turn);
    if (index < 0) index = timeline.findIndex((item) => item.kind === "turn");
    if (index < 0 && timeline.length > 0) index = 0;
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
  } catch (error) {
    if (isStale(error)) return;
    setAppState({ analysisError: errorMessage(error), analysis: null, selectedIndex: null, request: initialRequest });
  }
}
