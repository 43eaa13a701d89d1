// Turns of a session trace: one per model call (conversation.ts), each with the usage and model
// its answer records, and its approximated request (request.ts).
import type { BranchInfo, BuiltRequest, ContextMessage, PipelineOptions, Session, TimelineItem, TurnSummary } from "../../model";
import { resolveModel } from "../../models/catalogue";
import type { SessionAnalysis, TurnContext } from "../../pipeline/types";
import { getStsIndex, type StsCall, type StsIndex } from "./conversation";
import { stsNotRecorded, stsRequestBody, stsWireMessage } from "./request";

const API = "openai-completions" as const;

function selectedCall(index: StsIndex, turn: number): StsCall {
  const found = Number.isInteger(turn) ? index.calls[turn - 1] : undefined;
  if (!found) throw new RangeError(`turn ${turn} does not exist: the session has ${index.calls.length} model calls`);
  return found;
}

function sentMessages(index: StsIndex, call: StsCall): ContextMessage[] {
  return index.messages.slice(0, call.historyLength);
}

function turnSummary(index: StsIndex, call: StsCall, modelSwitched: boolean): TurnSummary {
  const messages = sentMessages(index, call);
  const chars = messages.reduce((sum, message) => sum + JSON.stringify(stsWireMessage(message)).length, 0);
  return {
    turn: call.turn,
    entryId: call.entry.id,
    timestamp: call.entry.timestamp,
    model: call.model,
    api: API,
    thinkingLevel: "off",
    messageCount: messages.length,
    estimatedTokens: Math.ceil(chars / 4),
    chars,
    usage: call.usage,
    stopReason: null,
    afterCompaction: false,
    modelSwitched,
    hasNote: false,
    hasDropped: false,
  };
}

export function analyzeStsSession(session: Session): SessionAnalysis {
  const index = getStsIndex(session);
  const turns: TurnSummary[] = [];
  const timeline: TimelineItem[] = [];
  let previousModel: string | null = null;
  for (const call of index.calls) {
    timeline.push({ kind: "turn", turn: call.turn });
    turns.push(turnSummary(index, call, call.turn > 1 && previousModel !== (call.model?.modelId ?? null)));
    previousModel = call.model?.modelId ?? null;
  }
  const last = session.entries[session.entries.length - 1];
  const branches: BranchInfo[] = last ? [{ leafId: last.id, turns: index.calls.length, timestamp: last.timestamp, label: null, isDefault: true }] : [];
  return { branches, leafId: last?.id ?? null, turns, timeline, warnings: index.warnings.slice(), events: [] };
}

export function countStsTurns(session: Session): number {
  return getStsIndex(session).calls.length;
}

export function buildStsTurnContext(session: Session, _options: PipelineOptions, turnNumber: number): TurnContext {
  const index = getStsIndex(session);
  const call = selectedCall(index, turnNumber);
  const messages = sentMessages(index, call);
  return {
    turn: call.turn,
    entryId: call.entry.id,
    messages,
    dropped: [],
    model: call.model,
    thinkingLevel: "off",
    api: API,
    pathEntryIds: [...new Set(messages.flatMap((m) => (m.provenance.entryId ? [m.provenance.entryId] : [])))],
    compactionId: null,
    warnings: [],
  };
}

export function buildStsTurnRequest(session: Session, options: PipelineOptions, turnNumber: number): BuiltRequest {
  const index = getStsIndex(session);
  const call = selectedCall(index, turnNumber);
  const messages = sentMessages(index, call);
  return {
    api: API,
    body: stsRequestBody(call.model?.modelId ?? null, messages),
    messages,
    dropped: [],
    model: resolveModel(call.model, API, options.modelOverrides),
    notRecorded: stsNotRecorded(messages, call.answered),
  };
}
