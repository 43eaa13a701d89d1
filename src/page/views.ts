// The views the worker builds for what is selected: the selected turn's request (and its Diff or
// Tokens or Conversation tab while that tab is shown), a compaction's summariser requests, an auxiliary request,
// a message's tokens; and every turn's prefix report for the timeline badges and the chart
// (chars/4 estimates first, replaced by exact counts when the worker's second pass finishes).
import { latestSlice } from "./latestSlice";
import { selectedItem } from "./selectors";
import { getAppState, initialPrefix, initialTokens, setAppState } from "./store";
import { errorMessage, isForShown, pipeline, pipelineOptions, shownKey } from "./workerBridge";
import { isStale } from "../worker/client";

const buildRequest = latestSlice((turn: number) => {
  const builtFor = getAppState().options;
  return {
    loading: (state) => ({ request: { ...state.request, status: "loading", turn, error: null } }),
    fetch: () => pipeline().call("buildRequest", { options: pipelineOptions(), turn }, "request"),
    ready: (result) => ({ request: { status: "ready", turn, result, error: null, builtFor } }),
    failed: (error) => ({ request: { status: "error", turn, result: null, error, builtFor } }),
  };
});

const buildCompaction = latestSlice((entryId: string) => ({
  loading: { compaction: { status: "loading", entryId, result: null, error: null } },
  fetch: () => {
    const instructions = getAppState().options.compactionInstructions;
    return pipeline().call("compactionRequests", { options: pipelineOptions(), entryId, instructions }, "compaction");
  },
  ready: (result) => ({ compaction: { status: "ready", entryId, result, error: null } }),
  failed: (error) => ({ compaction: { status: "error", entryId, result: null, error } }),
}));

const buildAuxiliary = latestSlice((index: number) => ({
  loading: { auxiliary: { status: "loading", index, result: null, error: null } },
  fetch: () => pipeline().call("auxiliaryRequest", { options: pipelineOptions(), index }, "auxiliary"),
  ready: (result) => ({ auxiliary: { status: "ready", index, result, error: null } }),
  failed: (error) => ({ auxiliary: { status: "error", index, result: null, error } }),
}));

/**
 * Loads the prefix reports for the session shown and the current options: the estimate pass, then
 * the exact pass. Rows are kept under the key of that session and those options; rows made for
 * another (a pass of the previous session that lands late) are never shown.
 * `again`: the followed session grew, so the rows shown (kept until the new ones come) lack its
 * new turns; the worker extends its passes with them.
 */
export async function loadPrefixReports({ again = false }: { again?: boolean } = {}): Promise<void> {
  const options = pipelineOptions();
  const key = shownKey(options);
  if (!again && getAppState().prefix.key === key && getAppState().prefix.pass === "exact") return;
  setAppState((state) => ({ prefix: state.prefix.key === key ? { ...state.prefix, running: true } : { ...initialPrefix, key, running: true } }));
  try {
    for (const pass of ["estimate", "exact"] as const) {
      const result = await pipeline().call("prefixReports", { options, pass }, `prefix-${pass}`);
      if (getAppState().prefix.key !== key || !isForShown(result.madeFor)) return;
      setAppState({ prefix: { key, pass, rows: result.rows, running: pass !== "exact", error: null } });
    }
  } catch (error) {
    if (isStale(error) || getAppState().prefix.key !== key) return;
    setAppState((state) => ({ prefix: { ...state.prefix, running: false, error: errorMessage(error) } }));
  }
}

const buildDiff = latestSlice((turn: number) => ({
  loading: (state) => ({ diff: { ...state.diff, status: "loading", turn, error: null } }),
  fetch: () => pipeline().call("turnDiff", { options: pipelineOptions(), turn }, "diff"),
  ready: (result) => ({ diff: { status: "ready", turn, result, error: null } }),
  failed: (error) => ({ diff: { status: "error", turn, result: null, error } }),
}));

const buildTokens = latestSlice((turn: number) => ({
  loading: (state) => ({ tokens: { ...state.tokens, status: "loading", turn, error: null, view: initialTokens.view } }),
  // The estimate first, then the exact counts.
  fetch: async function* () {
    for (const pass of ["estimate", "exact"] as const) yield await pipeline().call("tokenComposition", { options: pipelineOptions(), turn, pass }, "tokens");
  },
  ready: (result) => (state) => ({ tokens: { ...state.tokens, status: "ready", turn, result, error: null } }),
  failed: (error) => (state) => ({ tokens: { ...state.tokens, status: "error", turn, result: null, error } }),
}));

const buildConversation = latestSlice((turn: number) => ({
  loading: (state) => ({ conversation: { ...state.conversation, status: "loading", turn, error: null } }),
  fetch: () => pipeline().call("turnConversation", { options: pipelineOptions(), turn }, "conversation"),
  ready: (result) => ({ conversation: { status: "ready", turn, result, error: null } }),
  failed: (error) => ({ conversation: { status: "error", turn, result: null, error } }),
}));

/** The token view of context message `index` of the turn shown in the Tokens tab. */
const buildTokenView = latestSlice(({ turn, index }: { turn: number; index: number }) => ({
  loading: (state) => ({ tokens: { ...state.tokens, view: { status: "loading", turn, index, result: null, error: null } } }),
  fetch: () => pipeline().call("tokenView", { options: pipelineOptions(), turn, index }, "token-view"),
  ready: (result) => (state) => ({ tokens: { ...state.tokens, view: { status: "ready", turn, index, result, error: null } } }),
  failed: (error) => (state) => ({ tokens: { ...state.tokens, view: { status: "error", turn, index, result: null, error } } }),
}));

export function showTokenView(turn: number, index: number): void {
  buildTokenView({ turn, index });
}

/**
 * Builds the Diff or Tokens view of the selected turn when that tab is shown. The store holds the
 * turn being built, which is not the last one asked for when another is queued behind it: stepping
 * 4 → 3 → 4 while turn 4 is built must queue 4 again, or the queued 3 would be left on screen.
 */
export function loadTabView(turn: number): void {
  const state = getAppState();
  if (state.activeTab === "diff" && (state.diff.turn !== turn || buildDiff.lastAsked() !== turn)) buildDiff(turn);
  else if (state.activeTab === "tokens" && (state.tokens.turn !== turn || buildTokens.lastAsked() !== turn)) buildTokens(turn);
  else if (state.activeTab === "conversation" && (state.conversation.turn !== turn || buildConversation.lastAsked() !== turn)) buildConversation(turn);
}

/** Materialises what the selected timeline item needs (its request, compaction or auxiliary view). */
export function loadSelection(): void {
  const item = selectedItem(getAppState());
  if (!item) return;
  if (item.kind === "turn") loadTabView(item.turn);
  if (item.kind === "turn") buildRequest(item.turn);
  else if (item.kind === "compaction") buildCompaction(item.entryId);
  else buildAuxiliary(item.index);
}
