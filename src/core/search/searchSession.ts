// Search over every turn's context messages, read from the session's search index: each distinct
// message is tested once, at the first turn whose context holds it; a hit names that turn and the
// message's index in its context. Messages whose trigram sketch rules the query out are skipped
// without reading their text. A generator that also yields progress, so a caller can run it in
// slices of a few milliseconds (the worker does) and hand hits out as they are found.
import type { PipelineOptions, Session } from "../model";
import type { CompositionKind } from "../prefix/composition";
import { matchMessage, messageToolName, queryMatcher } from "./messageText";
import { SearchIndex } from "./searchIndex";
import { queryTrigrams, sketchMayContain } from "./trigramSketch";

export interface SearchHit {
  turn: number;
  /** Index of the message in the turn's context. */
  index: number;
  role: string;
  kind: CompositionKind;
  toolName: string | null;
  /** The match with some text around it, on one line. */
  snippet: string;
  /** Where the match starts in the snippet. */
  snippetOffset: number;
  /** The matched text in its original case. */
  match: string;
  /** Matches of the query in the message. */
  count: number;
}

/** A hit, or progress: every turn before `turn` (every turn up to it when `done`) is searched. */
export type SearchStep = { kind: "hit"; hit: SearchHit } | { kind: "turn"; turn: number };

const AROUND = 48;
/** Messages tested between two progress steps (a step is where a slice may end). */
const STEP_MESSAGES = 64;

function snippetOf(text: string, at: number, length: number): { snippet: string; offset: number } {
  const start = Math.max(0, at - AROUND);
  const end = Math.min(text.length, at + length + AROUND);
  const before = (start > 0 ? "…" : "") + text.slice(start, at).replace(/\s+/g, " ");
  const after = text.slice(at, end).replace(/\s+/g, " ") + (end < text.length ? "…" : "");
  return { snippet: before + after, offset: before.length };
}

/**
 * Every message of `index` matching `query` (case-insensitive), in turn order. The index is built
 * further as the search reaches its end. The last step is `{ kind: "turn", turn: <turn count> }`.
 */
export function* searchIndex(index: SearchIndex, query: string): Generator<SearchStep> {
  if (query.length === 0) return;
  const matcher = queryMatcher(query);
  const trigrams = queryTrigrams(query);
  let position = 0;
  let tested = 0;
  for (;;) {
    if (position >= index.entries.length) {
      if (!index.step()) break;
      yield { kind: "turn", turn: Math.max(0, index.turns - 1) };
      continue;
    }
    const entry = index.entries[position++]!;
    if (++tested % STEP_MESSAGES === 0) yield { kind: "turn", turn: entry.turn - 1 };
    if (trigrams.length > 0 && !sketchMayContain(entry.sketch, trigrams)) continue;
    const found = matchMessage(entry.message, matcher);
    if (!found) continue;
    const { snippet, offset } = snippetOf(found.text, found.at, found.length);
    yield {
      kind: "hit",
      hit: {
        turn: entry.turn,
        index: entry.index,
        role: entry.message.role,
        kind: entry.kind,
        toolName: messageToolName(entry.message),
        snippet,
        snippetOffset: offset,
        match: found.text.slice(found.at, found.at + found.length),
        count: found.count,
      },
    };
  }
  yield { kind: "turn", turn: index.turns };
}

/** Searches a session branch with an index built for this search alone (tests, one-off callers). */
export function* searchSession(session: Session, options: PipelineOptions, query: string): Generator<SearchStep> {
  if (query.length === 0) return;
  yield* searchIndex(new SearchIndex(session, options), query);
}
