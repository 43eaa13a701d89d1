// Session search in the worker, in slices: each `step` call runs the search for at most a few
// milliseconds and returns the hits found meanwhile, so the first hits reach the page as soon as
// they exist, other worker calls interleave between slices, and a new query simply starts over.
// The search reads the session's search index (src/core/search/searchIndex.ts), one per branch
// options, which the page builds in the background after a session opens (`prepare`, in slices);
// a search that starts before it is complete builds the rest as it goes.
import type { PipelineOptions, Session } from "../../core/model";
import { SearchIndex, searchIndex, type SearchHit, type SearchStep } from "../../core/search/index";

export interface SearchStepParams {
  options: PipelineOptions;
  query: string;
  /** Chosen by the page; a new id starts a new search. */
  searchId: number;
  /** How long one slice may run (ms); default 30. */
  budgetMs?: number;
}

export interface SearchStepResult {
  searchId: number;
  /** Hits found in this slice (the page appends them). */
  hits: SearchHit[];
  done: boolean;
  /** Last turn fully searched. */
  turn: number;
  /** The hit limit was reached: later matches are not listed. */
  truncated: boolean;
}

export interface SearchPrepareParams {
  options: PipelineOptions;
  /** How long the slice may run (ms); default 50. */
  budgetMs?: number;
}

export interface SearchPrepareResult {
  complete: boolean;
  /** Distinct messages indexed and turns walked so far. */
  messages: number;
  turns: number;
  /** Time spent building the index so far (ms, worker time, all slices and searches together). */
  buildMs: number;
}

const MAX_SEARCH_HITS = 500;

export class SearchService {
  private current: { id: number; steps: Generator<SearchStep>; found: number; turn: number; done: boolean } | null = null;
  private index: { key: string; index: SearchIndex } | null = null;

  constructor(private readonly session: Session) {}

  /** The index of the options' branch (a new one when the options changed). */
  private indexFor(options: PipelineOptions): SearchIndex {
    const key = JSON.stringify(options);
    if (this.index?.key !== key) this.index = { key, index: new SearchIndex(this.session, options) };
    return this.index.index;
  }

  /**
   * One slice of building the index in the background (the page calls it until `complete`, so no
   * call runs long and other calls interleave): walks turns for at most `budgetMs` (default 50).
   */
  prepare(params: SearchPrepareParams): SearchPrepareResult {
    const index = this.indexFor(params.options);
    const deadline = Date.now() + (params.budgetMs ?? 50);
    const started = performance.now();
    // At least one turn per call, so a slice always makes progress.
    do index.step();
    while (!index.complete && Date.now() < deadline);
    index.buildMs += performance.now() - started;
    return { complete: index.complete, messages: index.entries.length, turns: index.turns, buildMs: Math.round(index.buildMs) };
  }

  step(params: SearchStepParams): SearchStepResult {
    if (!this.current || this.current.id !== params.searchId) {
      this.current?.steps.return(undefined);
      this.current = { id: params.searchId, steps: searchIndex(this.indexFor(params.options), params.query), found: 0, turn: 0, done: false };
    }
    const search = this.current;
    const hits: SearchHit[] = [];
    const deadline = Date.now() + (params.budgetMs ?? 30);
    while (!search.done) {
      const next = search.steps.next();
      if (next.done) {
        search.done = true;
        break;
      }
      const step = next.value;
      if (step.kind === "turn") {
        search.turn = step.turn;
        if (Date.now() >= deadline) break;
        continue;
      }
      hits.push(step.hit);
      search.found++;
      if (search.found >= MAX_SEARCH_HITS) {
        search.done = true;
        search.steps.return(undefined);
        return { searchId: search.id, hits, done: true, turn: search.turn, truncated: true };
      }
      // The first hit goes out at once: it is what the user waits for.
      if (search.found === 1 || Date.now() >= deadline) break;
    }
    return { searchId: search.id, hits, done: search.done, turn: search.turn, truncated: false };
  }
}
