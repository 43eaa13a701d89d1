// Every turn's context messages of the selected branch, in order, for passes that read messages and
// not provider bodies (the session search index). An agent whose pipeline walks its contexts
// without serializing (`iterateTurnMessages`, pi and senpi) is walked that way; any other agent's
// messages are taken from its requests, so both give exactly the requests' `messages`.
import { agentOf } from "./agents";
import type { ContextMessage, PipelineOptions, Session } from "../model";
import { iterateTurnRequests } from "./turnRequests";
import type { PipelineHooks } from "../pipeline/types";

export interface TurnMessages {
  /** 1-based turn number on the selected branch. */
  turn: number;
  /** The turn's request messages (shared between turns: read, never mutate). */
  messages: readonly ContextMessage[];
}

export function* iterateTurnMessages(session: Session, options: PipelineOptions, hooks: PipelineHooks = {}): Generator<TurnMessages> {
  if (session.entries.length === 0) return;
  const walk = agentOf(session).pipeline.iterateTurnMessages;
  if (walk) {
    yield* walk(session, options, hooks);
    return;
  }
  for (const { turn, request } of iterateTurnRequests(session, options, hooks)) yield { turn, messages: request.messages };
}
