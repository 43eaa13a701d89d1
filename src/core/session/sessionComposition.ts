// What fills the context over a whole session: every turn's tokens by kind (tool definitions,
// system prompt, user, assistant, tool results, summaries, notes, other synthesized messages), for
// the stacked chart and the CLI. One pass over the one-walk request builder; tools and system come
// from the request's cache segments and messages from their text, each counted once per distinct
// content (the segment cache and the per-message token cache), so the pass grows with distinct
// content, not with turns × context size.
import type { PipelineOptions, Session } from "../model";
import { tokenComposition, type CompositionKind, type TokenComposition } from "../prefix/composition";
import type { SegmentCache } from "../prefix/segment-builder";
import type { TokenizerChoice } from "../tokens/counters";
import type { PipelineHooks } from "../pipeline/types";
import { countTurns } from "./pipeline";
import { iterateTurnRequests, iterateTurnRequestsAfter } from "./turnRequests";

export interface TurnComposition {
  turn: number;
  /** Tokens per kind; kinds the turn has none of are absent. */
  byKind: Partial<Record<CompositionKind, number>>;
  total: number;
  exact: boolean;
}

export interface SessionCompositionOptions {
  /** "estimate" (chars/4, the default: cheap on any session) or the prefix analysis' choices. */
  tokenizer?: TokenizerChoice;
  segmentCache?: SegmentCache;
  hooks?: PipelineHooks;
  /** Only the turns after this one (a followed session that grew: the earlier turns' rows are kept). */
  afterTurn?: number;
}

/** The composition of every turn of the selected branch, one at a time. */
export function* iterateSessionCompositions(
  session: Session,
  options: PipelineOptions,
  extra: SessionCompositionOptions = {},
): Generator<TurnComposition> {
  const segmentOptions = { tokenizer: extra.tokenizer ?? "estimate", ...(extra.segmentCache ? { cache: extra.segmentCache } : {}) };
  const requests =
    extra.afterTurn === undefined
      ? iterateTurnRequests(session, options, extra.hooks ?? {})
      : iterateTurnRequestsAfter(session, options, extra.afterTurn, countTurns(session, options), extra.hooks ?? {});
  for (const { turn, request } of requests) {
    yield turnCompositionOf(turn, tokenComposition(request, segmentOptions));
  }
}

/** One turn's line of the session composition, from its request's composition. */
function turnCompositionOf(turn: number, composition: TokenComposition): TurnComposition {
  const byKind: Partial<Record<CompositionKind, number>> = {};
  for (const row of composition.rows) byKind[row.kind] = row.tokens;
  return { turn, byKind, total: composition.total, exact: composition.exact };
}
