// Whole-session replay: run a policy's automatic trigger at every turn and mark
// where compaction would have fired; compare two policies (compactions, tokens sent, estimated
// cache reads).
//
// Approximation, documented in docs/compaction-simulator.md: every turn is simulated on the
// recorded context (recorded compactions removed for pi/senpi sessions, so the policy decides
// alone), and the tokens saved by earlier simulated compactions are subtracted from the trigger's
// left operand and from the tokens sent. Estimated cache reads per turn: the byte prefix shared
// with the previous request (chars/4) — after a simulated compaction, the prefix the compacted
// request shares with the last pre-compaction request; otherwise the recorded requests' shared
// prefix minus the savings. Cost: one simulation per turn (O(turns × context)); use `toTurn` for
// long sessions. [INF]
import { findAgent } from "../agents/registry";
import type { PipelineOptions, Session } from "../model";
import { buildTurnRequest, countTurns } from "../pipeline/index";
import { commonPrefixLength, prefixText } from "./prefix";
import { simulateCompaction } from "./simulate";
import { estimateTextTokens } from "./text-tokens";
import type { LimitOverrides, PolicyId, PolicyParameters, SimulationResult, TriggerDecision } from "./types";

export interface ReplayTurn {
  turn: number;
  /** Policy trigger operand minus earlier savings. */
  contextTokens: number;
  threshold: number;
  fired: boolean;
  verdict: string;
  /** Estimated tokens sent in this turn's request (after earlier simulated compactions). */
  tokensSent: number;
  /** Estimated cached prefix tokens read (see the file header). */
  estimatedCacheRead: number;
  savedByThisCompaction: number;
}

export interface ReplayResult {
  policyId: PolicyId;
  turns: ReplayTurn[];
  compactions: number[];
  totals: { compactions: number; tokensSent: number; estimatedCacheRead: number };
}

export interface ReplayOptions {
  parameters?: PolicyParameters;
  limits?: LimitOverrides;
  fromTurn?: number;
  toTurn?: number;
}

/** The session without its recorded compactions, for agents that can take them out (pi: children re-attached to the compaction's parent). */
export function withoutRecordedCompactions(session: Session): Session {
  return findAgent(session.formatId)?.recorded?.withoutCompactions?.(session) ?? session;
}

function fires(trigger: TriggerDecision, left: number): boolean {
  switch (trigger.operator) {
    case ">":
      return left > trigger.right;
    case ">=":
      return left >= trigger.right;
    case "<":
      return left < trigger.right;
    default:
      return left <= trigger.right;
  }
}

export function replaySession(session: Session, options: PipelineOptions, policyId: PolicyId, replay: ReplayOptions = {}): ReplayResult {
  const base = withoutRecordedCompactions(session);
  const total = countTurns(base, options);
  const from = Math.max(1, replay.fromTurn ?? 1);
  const to = Math.min(total, replay.toTurn ?? total);
  const turns: ReplayTurn[] = [];
  let saved = 0;
  let previousText: string | null = null;
  let afterCompaction: SimulationResult | null = null;
  for (let turn = from; turn <= to; turn++) {
    const text = prefixText(buildTurnRequest(base, options, turn).body);
    const sent = Math.max(0, estimateTextTokens(text) - saved);
    let cacheRead = 0;
    if (afterCompaction?.after.prefixBreak) cacheRead = afterCompaction.after.prefixBreak.sharedPrefixTokens;
    else if (previousText !== null) cacheRead = Math.max(0, Math.ceil(commonPrefixLength(previousText, text) / 4) - saved);
    afterCompaction = null;
    const result = simulateCompaction({ session: base, options, turn, policyId, parameters: replay.parameters, limits: replay.limits, followingTurns: 0, providerCount: false });
    const left = result.trigger.left - saved;
    const fired = result.trigger.evaluated && fires(result.trigger, left) && result.verdict.verdict !== "nothing-to-compact" && result.verdict.verdict !== "failed";
    const thisSaved = fired ? Math.max(0, result.tokens.saved) : 0;
    turns.push({ turn, contextTokens: left, threshold: result.trigger.right, fired, verdict: fired ? result.verdict.verdict : "not-triggered", tokensSent: sent, estimatedCacheRead: Math.min(cacheRead, sent), savedByThisCompaction: thisSaved });
    if (fired) {
      saved += thisSaved;
      afterCompaction = result;
    }
    previousText = text;
  }
  const compactions = turns.filter((t) => t.fired).map((t) => t.turn);
  return {
    policyId,
    turns,
    compactions,
    totals: {
      compactions: compactions.length,
      tokensSent: turns.reduce((a, t) => a + t.tokensSent, 0),
      estimatedCacheRead: turns.reduce((a, t) => a + t.estimatedCacheRead, 0),
    },
  };
}

export interface PolicyComparison {
  a: ReplayResult["totals"] & { policyId: PolicyId; compactionTurns: number[] };
  b: ReplayResult["totals"] & { policyId: PolicyId; compactionTurns: number[] };
  /** b − a. */
  difference: { compactions: number; tokensSent: number; estimatedCacheRead: number };
}

export function comparePolicies(a: ReplayResult, b: ReplayResult): PolicyComparison {
  return {
    a: { policyId: a.policyId, compactionTurns: a.compactions, ...a.totals },
    b: { policyId: b.policyId, compactionTurns: b.compactions, ...b.totals },
    difference: {
      compactions: b.totals.compactions - a.totals.compactions,
      tokensSent: b.totals.tokensSent - a.totals.tokensSent,
      estimatedCacheRead: b.totals.estimatedCacheRead - a.totals.estimatedCacheRead,
    },
  };
}
