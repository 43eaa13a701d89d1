// Every turn's provider request of a branch, in one pass (design §3 "never quadratic"). For pi and
// senpi the branch is walked once (src/core/pi/turnContexts.ts) and each message's wire form comes
// from the serializers' per-message caches (src/core/providers/wire-cache.ts), so a turn costs one
// reference per message instead of re-serializing the whole context. Other formats build each
// turn with their own `buildTurnRequest`. Bodies share message objects between turns: read them,
// never mutate them (the cached parts are frozen).
import { serializeTurnContext } from "./contextRequest";
import type { BuiltRequest, PipelineOptions, Session } from "../model";
import { buildTurnRequest, countTurns, type PipelineHooks } from "./index";
import { iteratePiTurnContexts } from "../agents/pi/turnContexts";

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
  if (session.formatId === "pi") {
    for (const context of iteratePiTurnContexts(session, options, hooks, { pathEntryIds: false })) {
      yield { turn: context.turn, request: serializeTurnContext(context, options) };
    }
    return;
  }
  const count = countTurns(session, options);
  for (let turn = 1; turn <= count; turn++) yield { turn, request: buildTurnRequest(session, options, turn, hooks) };
}

/** Every turn's request as an array (holds them all: prefer the iterator for long sessions). */
export function buildAllTurnRequests(session: Session, options: PipelineOptions, hooks: PipelineHooks = {}): BuiltRequest[] {
  const requests: BuiltRequest[] = [];
  for (const { request } of iterateTurnRequests(session, options, hooks)) requests.push(request);
  return requests;
}
