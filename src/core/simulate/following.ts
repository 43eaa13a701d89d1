// The following turns of the session rebuilt on top of a compacted context: their
// new requests, the tokens they save compared with the recorded ones, and where each stops being a
// byte-prefix continuation of the previous request (the prefix break compaction causes).
import type { ApiId, ContextMessage, PipelineOptions, Session } from "../model";
import type { TurnPipeline } from "../pipeline/types";
import { resolveModel } from "../models/catalogue";
import { getSerializer } from "../providers";
import { findPrefixBreak, prefixText } from "./prefix";
import { estimateTextTokens } from "./text-tokens";
import type { FollowingTurn } from "./types";

function bodyTokens(body: Record<string, unknown>): number {
  return estimateTextTokens(prefixText(body));
}

/**
 * Turns `from`…`to` of `original` compared with the same turns of `rebuilt` (a session copy with
 * the simulated compaction in it). `previous` is the request before `from` (turn N's), for the
 * first prefix break.
 */
export function compareFollowingTurns(
  pipeline: TurnPipeline,
  original: Session,
  rebuilt: Session,
  options: PipelineOptions,
  from: number,
  limit: number | undefined,
  previous: Record<string, unknown> | null,
  includeBodies = false,
): FollowingTurn[] {
  const total = pipeline.countTurns(original, options);
  const last = limit === undefined ? total : Math.min(total, from + limit - 1);
  const out: FollowingTurn[] = [];
  let before = previous;
  for (let turn = from; turn <= last; turn++) {
    const originalBody = pipeline.buildTurnRequest(original, options, turn).body;
    const built = pipeline.buildTurnRequest(rebuilt, options, turn);
    const originalTokens = bodyTokens(originalBody);
    const simulatedTokens = bodyTokens(built.body);
    const item: FollowingTurn = {
      turn,
      originalTokens,
      simulatedTokens,
      savedTokens: originalTokens - simulatedTokens,
      messageCount: built.messages.length,
      prefixBreak: before ? findPrefixBreak(before, built.body, turn === from ? "compaction replaced the summarised messages" : "new break after compaction") : null,
    };
    if (includeBodies) item.body = built.body;
    out.push(item);
    before = built.body;
  }
  return out;
}

/**
 * Generic following turns for policies that do not edit the session (hermes, opencode, …): turn M's
 * context, when it starts with turn N's context messages (by entry), becomes `afterMessages` plus
 * the rest of turn M's messages, serialized with the pi-ai serializers. Stops at the first turn
 * whose context does not extend turn N's (a recorded compaction or a rewrite).
 */
export function followingTurnsFromPrefix(
  pipeline: TurnPipeline,
  session: Session,
  options: PipelineOptions,
  turn: number,
  afterMessages: readonly ContextMessage[],
  previous: Record<string, unknown> | null,
  limit?: number,
  api?: ApiId | null,
): FollowingTurn[] {
  const base = pipeline.buildTurnContext(session, options, turn);
  const key = (m: ContextMessage) => `${m.provenance.entryId ?? ""}|${m.provenance.rule}|${m.message.role}`;
  const baseKeys = base.messages.map(key);
  const total = pipeline.countTurns(session, options);
  const last = limit === undefined ? total : Math.min(total, turn + limit);
  const out: FollowingTurn[] = [];
  let before = previous;
  for (let m = turn + 1; m <= last; m++) {
    const context = pipeline.buildTurnContext(session, options, m);
    const extends_ = baseKeys.every((k, i) => context.messages[i] !== undefined && key(context.messages[i]!) === k);
    if (!extends_) break;
    const messages = [...afterMessages, ...context.messages.slice(base.messages.length)];
    const model = resolveModel(context.model, context.api, options.modelOverrides);
    const shape: ApiId = api ?? context.api ?? model.api;
    const serializer = getSerializer(shape);
    const body = serializer.serialize({ model, messages: messages.map((x) => x.message), header: options.header ?? null, thinkingLevel: context.thinkingLevel }).body;
    const original = pipeline.buildTurnRequest(session, options, m).body;
    const originalTokens = bodyTokens(original);
    const simulatedTokens = bodyTokens(body);
    out.push({
      turn: m,
      originalTokens,
      simulatedTokens,
      savedTokens: originalTokens - simulatedTokens,
      messageCount: messages.length,
      prefixBreak: before ? findPrefixBreak(before, body, m === turn + 1 ? "compaction replaced the summarised messages" : "new break after compaction") : null,
    });
    before = body;
  }
  return out;
}
