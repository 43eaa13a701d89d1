// Session search (`/`): the query, the hits streamed from the worker slice by slice, the hit picked
// with the arrow keys, and the match the Request view highlights after a jump. A new query (or a
// new session) starts a new search; the running loop notices and stops.
import { create } from "zustand";
import { waitWhileHeld } from "../../app/interactiveQuiet";
import type { SearchHit } from "../../core/search/index";
import { isStale } from "../../worker/client";
import { pipeline, pipelineOptions } from "../../page/workerBridge";
import { selectIndex, setActiveTab } from "../../page/selection";
import { useAppStore, type AppState } from "../../page/store";

export interface SearchState {
  open: boolean;
  query: string;
  searchId: number;
  hits: SearchHit[];
  running: boolean;
  done: boolean;
  truncated: boolean;
  /** Last turn fully searched. */
  turn: number;
  /** Index of the hit picked in the list. */
  active: number;
  error: string | null;
  /** When the first hit arrived, ms after the search started (shown, and read by the benchmark). */
  firstHitMs: number | null;
  /** The match the Request view highlights: the turn jumped to and the text. */
  highlight: { turn: number; text: string } | null;
  /** The worker's search index of the open session, built in the background after it opens. */
  index: { complete: boolean; messages: number; turns: number; buildMs: number } | null;
}

const initial: Omit<SearchState, "open" | "highlight" | "index"> = {
  query: "",
  searchId: 0,
  hits: [],
  running: false,
  done: false,
  truncated: false,
  turn: 0,
  active: 0,
  error: null,
  firstHitMs: null,
};

export const useSearchStore = create<SearchState>()(() => ({ ...initial, open: false, highlight: null, index: null }));

export function openSearch(): void {
  useSearchStore.setState({ open: true });
}

export function closeSearch(): void {
  useSearchStore.setState((state) => ({ open: false, searchId: state.searchId + 1, running: false }));
}

/** Starts searching for `query` (an empty query clears the list). */
export function setSearchQuery(query: string): void {
  const searchId = useSearchStore.getState().searchId + 1;
  useSearchStore.setState({ ...initial, searchId, query, running: query.length > 0 });
  if (query.length > 0) void run(searchId, query);
}

async function run(searchId: number, query: string): Promise<void> {
  const options = pipelineOptions();
  const started = performance.now();
  try {
    for (;;) {
      const result = await pipeline().call("searchStep", { options, query, searchId });
      if (useSearchStore.getState().searchId !== searchId) return;
      useSearchStore.setState((state) => ({
        hits: result.hits.length > 0 ? [...state.hits, ...result.hits] : state.hits,
        firstHitMs: state.firstHitMs ?? (result.hits.length > 0 ? Math.round(performance.now() - started) : null),
        turn: result.turn,
        done: result.done,
        truncated: result.truncated,
        running: !result.done,
      }));
      if (result.done) return;
    }
  } catch (error) {
    if (isStale(error) || useSearchStore.getState().searchId !== searchId) return;
    useSearchStore.setState({ running: false, error: error instanceof Error ? error.message : String(error) });
  }
}

export function moveActiveHit(delta: number): void {
  useSearchStore.setState((state) => ({ active: Math.max(0, Math.min(state.hits.length - 1, state.active + delta)) }));
}

/** Jumps to a hit: selects its turn, shows the Request tab, highlights the match there. */
export function jumpToHit(hit: SearchHit): void {
  const timeline = useAppStore.getState().analysis?.timeline ?? [];
  const index = timeline.findIndex((item) => item.kind === "turn" && item.turn === hit.turn);
  if (index < 0) return;
  useSearchStore.setState({ open: false, highlight: { turn: hit.turn, text: hit.match } });
  setActiveTab("request");
  selectIndex(index);
}

/** Counts analyses, so the background index build notices a new session or new options. */
let analysisGeneration = 0;

/**
 * The background build runs in short slices and pauses while the user steps through turns: the
 * worker answers one call at a time, so a request asked for during a slice waits for its end.
 */
const BACKGROUND_SLICE_MS = 15;
const QUIET_AFTER_STEP_MS = 500;
let lastStepAt = -Infinity;

/** Resolves once no turn has been selected for QUIET_AFTER_STEP_MS. */
function quietAfterSteps(): Promise<void> {
  return waitWhileHeld(() => lastStepAt + QUIET_AFTER_STEP_MS - performance.now());
}

/**
 * Builds the worker's search index in the background, one short slice per call, so a search typed
 * later reads distinct messages and their sketches instead of walking every turn.
 */
async function prepareIndex(generation: number): Promise<void> {
  const options = pipelineOptions();
  try {
    for (;;) {
      await quietAfterSteps();
      if (generation !== analysisGeneration) return;
      const result = await pipeline().call("searchPrepare", { options, budgetMs: BACKGROUND_SLICE_MS }, "search-prepare");
      if (generation !== analysisGeneration) return;
      useSearchStore.setState({ index: result });
      if (result.complete) return;
    }
  } catch {
    // A stale call (new session) or a worker restart: the next analysis starts over, and a search
    // builds what it needs itself.
  }
}

/**
 * True when `next` is the same session read further (a followed file grew): the same file and
 * options, no fewer rows, and its first row the same turn. The page may be sent the grown analysis
 * whole, so rows are compared by what they are, not by object.
 */
function grewFrom(previous: AppState, next: AppState): boolean {
  const before = previous.analysis?.timeline ?? [];
  const after = next.analysis?.timeline ?? [];
  if (before.length === 0 || after.length < before.length || next.analysisProvisional) return false;
  if (previous.session?.fileName !== next.session?.fileName || previous.options !== next.options) return false;
  return JSON.stringify(before[0]) === JSON.stringify(after[0]);
}

/**
 * A new session or new options: the old hits name turns of another analysis. A session that grew
 * while followed keeps the query and searches again.
 */
export function installSearchReset(): void {
  useAppStore.subscribe((state, previous) => {
    if (state.selectedIndex !== previous.selectedIndex) lastStepAt = performance.now();
    if (state.analysis !== previous.analysis) {
      const generation = ++analysisGeneration;
      const query = useSearchStore.getState().query;
      useSearchStore.setState((s) => ({ ...initial, searchId: s.searchId + 1, open: s.open, highlight: null, index: null }));
      // A followed file that grew: the user's query stays and is searched again, so the new
      // turns' hits join those of the turns before.
      if (query.length > 0 && grewFrom(previous, state)) setSearchQuery(query);
      // Not while the file is still being read: a provisional analysis is replaced soon, and
      // building its index would take the worker's time from the read (a search typed meanwhile
      // builds what it needs itself).
      if (state.analysis && !state.analysisProvisional) void prepareIndex(generation);
    }
  });
}
