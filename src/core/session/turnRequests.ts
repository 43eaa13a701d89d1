// Every turn's provider request of a branch, in one pass (design §3 "never quadratic"). An agent
// whose pipeline has `iterateTurnRequests` walks the branch once (pi and senpi:
// src/core/agents/pi/turnContexts.ts, with each message's wire form from the serializers'
// per-message caches, src/core/providers/wire-cache.ts), so a turn costs one reference per message
// instead of re-serializing the whole context. Other agents build each turn on its own. Bodies share message objects between turns: read them,
// never mutate them (the cached parts are frozen).
import { agentOf } from "./agents";
import type { BuiltRequest, PipelineOptions, Session } from "../model";
import { buildTurnRequest, countTurns } from "./pipeline";
import type { PipelineHooks } from "../pipeline/types";

export interface TurnRequest {
  /** 1-based turn number on the selected branch. */
  turn: number;
  request: BuiltRequest;
}

/** The requests of every turn of the selected branch, in order, produced one at a time. */
export function* iterateTurnRequests(
  session: Session,
  options: PipelineOptions,
  hooks: PipelineHooks = {},
): Generator<TurnRequest> {
  if (session.entries.length === 0) return;
  const iterate = agentOf(session).pipeline.iterateTurnRequests;
  if (iterate) {
    yield* iterate(session, options, hooks);
    return;
  }
  const count = countTurns(session, options);
  for (let turn = 1; turn <= count; turn++) yield { turn, request: buildTurnRequest(session, options, turn, hooks) };
}

/** More turns than this after the ones kept are built in one walk of the branch rather than one by one. */
const ONE_BY_ONE_TURNS = 8;

/**
 * The requests of the turns after `afterTurn` up to `count` (the turns a grown session added):
 * built one by one when they are few (each at the cost of its own context, with the agent's
 * carried caches), else taken from one walk of the branch.
 */
export function* iterateTurnRequestsAfter(
  session: Session,
  options: PipelineOptions,
  afterTurn: number,
  count: number,
  hooks: PipelineHooks = {},
): Generator<TurnRequest> {
  if (count - afterTurn <= ONE_BY_ONE_TURNS) {
    for (let turn = afterTurn + 1; turn <= count; turn++) yield { turn, request: buildTurnRequest(session, options, turn, hooks) };
    return;
  }
  for (const item of iterateTurnRequests(session, options, hooks)) if (item.turn > afterTurn) yield item;
}

/** Every turn's request as an array (holds them all: prefer the iterator for long sessions). */
export function buildAllTurnRequests(session: Session, options: PipelineOptions, hooks: PipelineHooks = {}): BuiltRequest[] {
  const requests: BuiltRequest[] = [];
  for (const { request } of iterateTurnRequests(session, options, hooks)) requests.push(request);
  return requests;
}
