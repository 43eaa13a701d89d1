// Turns of a Copilot CLI session: one per model call of the main thread (an `assistant.message`),
// each with the usage its `session.usage_record` holds, the recorded compactions before it and
// its approximated request (request.ts). The analysis also lists the session's own events (model
// changes, truncations, notices) and, for a log without usage per call, nothing else: the
// session's totals then come from its `session.shutdown` records (agent.ts, sessionUsageTotals).
import type { BranchInfo, BuiltRequest, CompactionEvent, ContextMessage, PipelineOptions, Session, TimelineItem, TurnSummary } from "../../model";
import { resolveModel } from "../../models/catalogue";
import type { SessionAnalysis, TurnContext } from "../../pipeline/types";
import { getCopilotIndex, turnHistory, type CopilotIndex, type CopilotTurn } from "./history";
import { approximatedBody, notRecordedParts, textOf, wireMessage } from "./request";

const API = "openai-completions" as const;

function selectedTurn(index: CopilotIndex, turn: number): CopilotTurn {
  const found = Number.isInteger(turn) ? index.turns[turn - 1] : undefined;
  if (!found) throw new RangeError(`turn ${turn} does not exist: the session has ${index.turns.length} model calls`);
  return found;
}

const wireChars = new WeakMap<object, number>();

/** The characters of the call's messages as JSON, for the chars/4 estimate (each message measured once). */
function historyChars(turn: CopilotTurn): number {
  let total = turn.system ? JSON.stringify(textOf(turn.system.message.content)).length : 0;
  for (const message of turnHistory(turn)) {
    let chars = wireChars.get(message);
    if (chars === undefined) {
      chars = JSON.stringify(wireMessage(message)).length;
      wireChars.set(message, chars);
    }
    total += chars;
  }
  return total;
}

function compactionEvent(index: CopilotIndex, position: number): CompactionEvent {
  const compaction = index.compactions[position]!;
  const next = index.turns[compaction.turnsBefore];
  return {
    kind: "compaction",
    entryId: compaction.entry.id,
    beforeTurn: next ? next.turn : null,
    timestamp: compaction.entry.timestamp,
    tokensBefore: compaction.tokensBefore,
    firstKeptEntryId: compaction.firstKeptEntryId,
    summaryChars: compaction.summaryChars,
    usage: compaction.usage,
    model: compaction.model,
    ...(compaction.failure !== null ? { failed: compaction.failure } : {}),
  };
}

function turnSummary(turn: CopilotTurn, modelSwitched: boolean): TurnSummary {
  const chars = historyChars(turn);
  const callId = turn.callIds[0];
  return {
    turn: turn.turn,
    entryId: turn.answer.id,
    timestamp: turn.answer.timestamp,
    model: turn.model,
    api: API,
    thinkingLevel: "off",
    messageCount: turn.historyLength + (turn.system ? 1 : 0),
    estimatedTokens: Math.ceil(chars / 4),
    chars,
    usage: turn.usage,
    ...(callId !== undefined ? { callId } : {}),
    stopReason: null,
    afterCompaction: turn.afterCompaction,
    modelSwitched,
    hasNote: false,
    hasDropped: false,
  };
}

export function analyzeCopilotSession(session: Session): SessionAnalysis {
  const index = getCopilotIndex(session);
  const turns: TurnSummary[] = [];
  const timeline: TimelineItem[] = [];
  let compactionAt = 0;
  let previousModel: string | null = null;
  for (const turn of index.turns) {
    while (compactionAt < index.compactions.length && index.compactions[compactionAt]!.turnsBefore < turn.turn) {
      timeline.push(compactionEvent(index, compactionAt));
      compactionAt += 1;
    }
    timeline.push({ kind: "turn", turn: turn.turn });
    turns.push(turnSummary(turn, turn.turn > 1 && previousModel !== (turn.model?.modelId ?? null)));
    previousModel = turn.model?.modelId ?? null;
  }
  for (; compactionAt < index.compactions.length; compactionAt++) timeline.push(compactionEvent(index, compactionAt));
  const last = session.entries[session.entries.length - 1];
  const branches: BranchInfo[] = last ? [{ leafId: last.id, turns: index.turns.length, timestamp: last.timestamp, label: null, isDefault: true }] : [];
  return { branches, leafId: last?.id ?? null, turns, timeline, warnings: index.warnings.slice(), events: index.events.slice() };
}

export function countCopilotTurns(session: Session): number {
  return getCopilotIndex(session).turns.length;
}

function compactionIdOf(index: CopilotIndex, turn: CopilotTurn): string | null {
  let id: string | null = null;
  for (const compaction of index.compactions) if (compaction.success && compaction.turnsBefore < turn.turn) id = compaction.entry.id;
  return id;
}

export function buildCopilotTurnContext(session: Session, _options: PipelineOptions, turnNumber: number): TurnContext {
  const index = getCopilotIndex(session);
  const turn = selectedTurn(index, turnNumber);
  const messages = sentMessages(turn);
  return {
    turn: turn.turn,
    entryId: turn.answer.id,
    messages,
    dropped: [],
    model: turn.model,
    thinkingLevel: "off",
    api: API,
    pathEntryIds: [...new Set(messages.flatMap((m) => (m.provenance.entryId ? [m.provenance.entryId] : [])))],
    compactionId: compactionIdOf(index, turn),
    warnings: [],
  };
}

/** The context messages of a call: the recorded system prompt first, then the conversation. */
function sentMessages(turn: CopilotTurn): ContextMessage[] {
  return [...(turn.system ? [turn.system] : []), ...turnHistory(turn)];
}

export function buildCopilotTurnRequest(session: Session, options: PipelineOptions, turnNumber: number): BuiltRequest {
  const turn = selectedTurn(getCopilotIndex(session), turnNumber);
  // A captured Chat Completions request of the CLI holds what the log does not: tools and settings.
  const header = options.header?.api === API ? options.header : null;
  return {
    api: API,
    body: approximatedBody(turn.copilotModel, turn.system, turnHistory(turn), header),
    messages: sentMessages(turn),
    dropped: [],
    model: resolveModel(turn.model, API, options.modelOverrides),
    notRecorded: notRecordedParts(turn.system !== null || Boolean(header?.systemPrompt), header !== null),
  };
}
