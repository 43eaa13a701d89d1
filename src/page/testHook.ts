// Publishes a small read-only view of the state on `window.__contextscope` so end-to-end tests can
// wait for conditions (ready, turn count, selection) instead of sleeping.
import { requestIsOutdated, selectedTurnNumber, turnCount } from "./selectors";
import { useCompositionStore, type CompositionState } from "../features/prefix/compositionState";
import { useSearchStore, type SearchState } from "../features/search/searchState";
import { useAppStore, type AppState } from "./store";
import type { PrefixRow } from "../features/prefix/protocol";

interface ContextscopeTestView {
  ready: boolean;
  /** True while the turns shown are those of the part of the file read so far. */
  provisional: boolean;
  /** The pipeline worker has loaded its code. */
  pipelineStarted: boolean;
  status: AppState["loadStatus"];
  turnCount: number;
  selectedTurn: number | null;
  /** Turn whose request JSON is shown, built with the current options (null while it is being built). */
  requestTurn: number | null;
  fileName: string | null;
  error: string | null;
  /** The JSON text handed to the request editor (what the Request view shows). */
  requestText: string | null;
  activeTab: AppState["activeTab"];
  profile: AppState["options"]["profile"];
  provider: AppState["options"]["api"];
  notes: boolean;
  /** The prefix pass whose rows are shown: "estimate" first, then "exact" (null: none yet). */
  prefixPass: AppState["prefix"]["pass"] | null;
  /** The sum of every turn's request tokens in the rows shown (null: none yet). */
  prefixTokensTotal: number | null;
  /** Turns the prefix rows shown cover (null: none yet). */
  prefixTurns: number | null;
  /** The session-wide composition (the Tokens tab's chart) has been asked of the worker. */
  compositionAsked: boolean;
  /** Turns of that composition in the store (null: none yet). */
  compositionTurns: number | null;
  /** Messages the worker's background search index holds so far (null: no index being built). */
  searchIndexedMessages: number | null;
}

declare global {
  interface Window {
    __contextscope?: ContextscopeTestView;
  }
}

/** The last rows summed, so a state change that keeps them costs nothing. */
let summed: { rows: readonly PrefixRow[]; total: number } | null = null;

function tokensTotal(rows: readonly PrefixRow[]): number {
  if (summed?.rows !== rows) summed = { rows, total: rows.reduce((sum, row) => sum + row.tokens, 0) };
  return summed.total;
}

function view(state: AppState, search: SearchState, composition: CompositionState): ContextscopeTestView {
  const current = state.request.status === "ready" && !requestIsOutdated(state);
  return {
    ready: state.loadStatus === "ready" && state.analysis !== null && !state.analysisProvisional,
    provisional: state.analysisProvisional,
    pipelineStarted: state.pipelineStarted,
    status: state.loadStatus,
    turnCount: turnCount(state),
    selectedTurn: selectedTurnNumber(state),
    requestTurn: current ? state.request.turn : null,
    fileName: state.session?.fileName ?? null,
    requestText: current ? (state.request.result?.jsonText ?? null) : null,
    activeTab: state.activeTab,
    profile: state.options.profile,
    provider: state.options.api,
    notes: state.options.notes,
    error: state.error,
    prefixPass: state.prefix.rows ? state.prefix.pass : null,
    prefixTokensTotal: state.prefix.rows ? tokensTotal(state.prefix.rows) : null,
    prefixTurns: state.prefix.rows?.length ?? null,
    compositionAsked: composition.key !== null,
    compositionTurns: composition.rows?.length ?? null,
    searchIndexedMessages: search.index?.messages ?? null,
  };
}

export function installTestHook(): void {
  const publish = () => {
    window.__contextscope = view(useAppStore.getState(), useSearchStore.getState(), useCompositionStore.getState());
  };
  publish();
  useAppStore.subscribe(publish);
  useSearchStore.subscribe(publish);
  useCompositionStore.subscribe(publish);
}
