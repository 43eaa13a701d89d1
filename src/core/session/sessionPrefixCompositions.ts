// Prefix reports and compositions of a session branch in one walk: each turn's composition
// (tokens by kind) is taken from the request and the segments the prefix analysis already has,
// instead of a second walk that rebuilds and re-segments every turn's request
// (sessionComposition.ts), and carried from turn to turn (composition-sums.ts). Both use the same tokenizer and segment cache, so the figures are the
// ones the two walks give.
import type { PipelineOptions, Session } from "../model";
import type { SessionAnalysis } from "./pipeline";
import { CompositionCarry } from "../prefix/composition-sums";
import type { PrefixTurnReport } from "../prefix/analyze";
import type { SegmentCache } from "../prefix/segment-builder";
import { counterForApi, type TokenCounter, type TokenizerChoice } from "../tokens/counters";
import type { TurnComposition } from "./sessionComposition";
import { iterateSessionPrefixesWithRequests } from "./sessionPrefixes";
import type { PipelineHooks } from "../pipeline/types";

export interface SessionPrefixCompositionOptions {
  tokenizer: TokenizerChoice;
  segmentCache?: SegmentCache;
  /** The branch's analysis when the caller already has it. */
  analysis?: SessionAnalysis;
  hooks?: PipelineHooks;
  /** Where o200k counts come from (CounterOptions.o200kSource), for the reports and the compositions alike. */
  o200kSource?: TokenCounter;
  /** Where the Claude vocabulary's counts come from (CounterOptions.claudeSource), likewise. */
  claudeSource?: TokenCounter;
}

export interface PrefixComposition {
  report: PrefixTurnReport;
  composition: TurnComposition;
}

/** Every turn's prefix report with its composition, one turn at a time. */
export function* iterateSessionPrefixCompositions(
  session: Session,
  options: PipelineOptions,
  extra: SessionPrefixCompositionOptions,
): Generator<PrefixComposition> {
  const { tokenizer, segmentCache, analysis, hooks, o200kSource, claudeSource } = extra;
  const sourced = { ...(o200kSource ? { o200kSource } : {}), ...(claudeSource ? { claudeSource } : {}) };
  const prefix = { tokenizer, ...sourced, ...(segmentCache ? { segmentCache } : {}) };
  // Each turn's request is read here and by the prefix analysis before the next: none is kept.
  const walkHooks: PipelineHooks = { ...hooks, reuseRequestLists: true };
  const walk = iterateSessionPrefixesWithRequests(session, options, { prefix, ...(analysis ? { analysis } : {}), hooks: walkHooks });
  const carry = new CompositionCarry();
  const counterOptions = { tokenizer, ...sourced };
  for (const { report, request, segmented } of walk) {
    const sums = carry.next(segmented, request.messages, counterForApi(request.api, counterOptions));
    yield { report, composition: { turn: report.turn, byKind: sums.byKind, total: sums.total, exact: sums.exact } };
  }
}
