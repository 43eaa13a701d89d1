// Whole-session replay: run a policy's automatic trigger at every turn and mark
// where compaction would have fired; compare two policies (compactions, tokens sent, estimated
// cache reads).
//
// Every turn after a simulated compaction is re-serialized on top of it: for a policy whose
// compaction is a session entry (pi, senpi: `sessionAfter`) the replay continues on the session
// with the simulated entry, so later turns and later compactions see the summary; for the others
// the later turns are the compaction's own rebuilt following turns (the next compaction is again
// simulated on the recorded context). Tokens sent = chars/4 of each request as re-serialized. The
// trigger still reads the policy's operand at that turn (recorded usage), minus what this turn's
// re-serialized request saves against the recorded one. Estimated cache read per turn: the byte
// prefix the request shares with the previous one sent. Cost: one simulation per turn plus one
// request rebuild (O(turns × context)); use `toTurn` for long sessions. [INF]
import { findAgent } from "../agents";
import { getPolicy } from "./policies";
import type { PipelineOptions, Session } from "../../model";
import { buildTurnRequest, countTurns, TURN_PIPELINE } from "../pipeline";
import { followingTurnsFromPrefix } from "../../simulate/following";
import { commonPrefixLength, prefixText } from "../../simulate/prefix";
import { simulateCompaction } from "./simulate";
import { estimateTextTokens } from "../../simulate/text-tokens";
import type { CompactionPolicy, FollowingTurn, LimitOverrides, PolicyId, PolicyParameters, SimulationInput, SimulationResult, TriggerDecision } from "../../simulate/types";

interface ReplayTurn {
  turn: number;
  /** Policy trigger operand minus what this turn's re-serialized request saves. */
  contextTokens: number;
  threshold: number;
  fired: boolean;
  verdict: string;
  /** Estimated tokens (chars/4) of this turn's request as sent after earlier simulated compactions. */
  tokensSent: number;
  /** The recorded request's estimate minus `tokensSent`. */
  savedTokens: number;
  /** False when a later turn could not be rebuilt on top of the compaction (its recorded request is counted). */
  reserialized: boolean;
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

/** Where this turn's request comes from once a simulated compaction has fired. */
type After =
  | { kind: "none" }
  | { kind: "session"; session: Session }
  | { kind: "following"; turns: Map<number, FollowingTurn> };

export function replaySession(session: Session, options: PipelineOptions, policyId: PolicyId, replay: ReplayOptions = {}): ReplayResult {
  const policy = getPolicy(policyId);
  const base = withoutRecordedCompactions(session);
  const total = countTurns(base, options);
  const from = Math.max(1, replay.fromTurn ?? 1);
  const to = Math.min(total, replay.toTurn ?? total);
  const turns: ReplayTurn[] = [];
  let after: After = { kind: "none" };
  let previousText: string | null = null;
  for (let turn = from; turn <= to; turn++) {
    const recordedText = prefixText(buildTurnRequest(base, options, turn).body);
    let text = recordedText;
    let sent = estimateTextTokens(text);
    let reserialized = true;
    let cacheRead = previousText !== null ? Math.ceil(commonPrefixLength(previousText, text) / 4) : 0;
    if (after.kind === "session") {
      text = prefixText(buildTurnRequest(after.session, options, turn).body);
      sent = estimateTextTokens(text);
      cacheRead = previousText !== null ? Math.ceil(commonPrefixLength(previousText, text) / 4) : 0;
    } else if (after.kind === "following") {
      // The policy's rebuilt turn: its tokens, and the prefix it shares with the request before it.
      const rebuilt = after.turns.get(turn);
      if (rebuilt) {
        sent = rebuilt.simulatedTokens;
        cacheRead = rebuilt.prefixBreak?.sharedPrefixTokens ?? cacheRead;
      } else reserialized = false;
    }
    const saved = estimateTextTokens(recordedText) - sent;
    const current = after.kind === "session" ? after.session : base;
    const input = { session: current, options, turn, policyId, parameters: replay.parameters, limits: replay.limits, followingTurns: 0, providerCount: false };
    const result = simulateCompaction(input);
    const left = result.trigger.left - saved;
    const fired = result.trigger.evaluated && fires(result.trigger, left) && result.verdict.verdict !== "nothing-to-compact" && result.verdict.verdict !== "failed";
    turns.push({
      turn,
      contextTokens: left,
      threshold: result.trigger.right,
      fired,
      verdict: fired ? result.verdict.verdict : "not-triggered",
      tokensSent: sent,
      savedTokens: saved,
      reserialized,
      estimatedCacheRead: Math.min(cacheRead, sent),
      savedByThisCompaction: fired ? Math.max(0, result.tokens.saved) : 0,
    });
    if (fired) after = continueAfter(policy, input, result, turn, after);
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

/** The source of the later turns' requests after a compaction fired at `turn`. */
function continueAfter(policy: CompactionPolicy, input: SimulationInput, result: SimulationResult, turn: number, previous: After): After {
  const session = policy.sessionAfter?.(input, result, `contextscope-replay-compaction-${turn}`) ?? null;
  if (session) return { kind: "session", session };
  // The policy's own rebuild of the following turns on top of the compacted context.
  const full = simulateCompaction({ ...input, followingTurns: undefined });
  // A policy that rebuilds no following turns itself: the generic rebuild on its after-context.
  const following =
    full.after.followingTurns.length > 0 || full.after.messages.length === 0
      ? full.after.followingTurns
      : followingTurnsFromPrefix(TURN_PIPELINE, input.session, input.options, turn, full.after.messages, full.after.request?.body ?? null, undefined, full.after.request?.api ?? null);
  const turns = new Map<number, FollowingTurn>(following.map((item) => [item.turn, item]));
  if (turns.size === 0 && previous.kind === "following") return previous;
  return { kind: "following", turns };
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
