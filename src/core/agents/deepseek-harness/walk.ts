// Every conversation request of a deepseek-harness session in one walk (design §3 "never
// quadratic"): the surface is carried from request to request (surfaceCarry.ts), so is the native
// body's wire list (each message's wire form made once, providers/carried-wire.ts), and a reader
// that keeps no request past the turn after (PipelineHooks.reuseRequestLists) is handed each
// request's context messages and wire messages in one of two lists used in turn
// (providers/alternating-lists.ts) instead of a copy of the whole context per request. Each
// request equals the one built on its own (pipeline.ts buildTurnRequest).
import type { BuiltRequest, ContextMessage, LlmMessage, ModelInfo, PipelineOptions, Session } from "../../model";
import type { PipelineHooks } from "../../pipeline/types";
import { AlternatingLists } from "../../providers/alternating-lists";
import { CarriedWire } from "../../providers/carried-wire";
import { recordSharedHead } from "../../util/list-lineage";
import { buildHarnessRequest, conversationParts, headerAt, modelInfoOf, requestModelRef } from "./pipeline";
import { harnessIndex } from "./sessionIndex";
import { SurfaceCarry } from "./surfaceCarry";
import { systemWireMessage } from "./wire";

type Wire = Record<string, unknown>;

export function* iterateHarnessTurnRequests(session: Session, options: PipelineOptions, hooks: PipelineHooks): Generator<{ turn: number; request: BuiltRequest }> {
  const index = harnessIndex(session);
  const reuseWalk = hooks.reuseRequestLists === true ? {} : undefined;
  const messageLists = new AlternatingLists<ContextMessage>();
  const wire = new CarriedWire<Wire>();
  let carry: SurfaceCarry | null = null;
  // One wire message per context message, kept by the carry of the list (`list` is that carry's
  // messages or their first ones, so the places are the carry's).
  const wireStep = (list: readonly LlmMessage[], start: number, out: Wire[]): number => {
    out.push(carry!.wireAt(start));
    return start + 1;
  };
  let lastMessages: ContextMessage[] | null = null;
  // Consecutive requests to the same model under the same header and window share its facts.
  let lastModelKey: string | null = null;
  let lastModel: ModelInfo | null = null;
  // The system message of the requests before: the same object while the prompt stays the same.
  let lastSystem: { text: string; message: Wire } | null = null;
  const systemMessage = (text: string): Wire => {
    if (lastSystem?.text !== text) lastSystem = { text, message: systemWireMessage(text) };
    return lastSystem.message;
  };
  for (const request of index.requests) {
    const sameSurface = carry !== null && carry.surface === request.surface;
    if (!carry || !sameSurface) carry = new SurfaceCarry(request.surface, carry);
    carry.extend(session, index, request.surfaceLength);
    const count = carry.countAt(request.surfaceLength);
    // In order, a request's surface is its list's nodes taken so far: the carried lists are its context.
    const whole = count === carry.messages.length;
    const source = whole ? carry.messages : carry.messages.slice(0, count);
    const llm = whole ? carry.llm : carry.llm.slice(0, count);
    const messages = reuseWalk && whole ? messageLists.next(source, reuseWalk) : source.slice();
    if (lastMessages && sameSurface && whole) recordSharedHead(messages, lastMessages, Math.min(lastMessages.length, count));
    lastMessages = messages;
    const header = headerAt(session, request.header);
    const modelRef = requestModelRef(session, request, header);
    const modelKey = `${modelRef?.provider ?? ""}\u0000${modelRef?.modelId ?? ""}\u0000${request.header ?? ""}\u0000${request.contextWindow ?? ""}\u0000${modelRef === null}`;
    if (modelKey !== lastModelKey || lastModel === null) {
      lastModel = modelInfoOf(modelRef, header, request.contextWindow, options);
      lastModelKey = modelKey;
    }
    const wireOf = (system: string | null) =>
      wire.build("", llm, wireStep, { head: system === null ? [] : [systemMessage(system)], growing: whole, ...(reuseWalk ? { reuseWalk } : {}) });
    yield { turn: request.turn, request: buildHarnessRequest(conversationParts(request, header, modelRef, lastModel, messages), options, wireOf) };
  }
}
