// Turns of an opencode session (FM-OC-12): the k-th assistant message that is not a summary and
// has a `finish` answers main request k; its conversation is the model scope (./scope.ts) of the
// messages stored before it, each converted once (./convert.ts). Also the timeline: the recorded
// compactions (CP-OC-24) as compaction events, and the auxiliary requests the session implies
// (title request FM-OC-15, summariser requests CP-OC-17) in `SessionAnalysis.auxiliary`.
import type {
  AuxiliaryRequestEvent,
  BranchInfo,
  CompactionEvent,
  ContextMessage,
  ModelRef,
  RecordedUsage,
  PipelineOptions,
  ReaderWarning,
  Session,
  TimelineItem,
  TurnSummary,
} from "../../model";
import type { SessionAnalysis, TurnContext } from "../../pipeline/types";
import { convertRecord, type ChatMessage } from "./convert";
import {
  assistantText,
  compactionPartOf,
  isSummaryMessage,
  isTurnAnswer,
  isUserInfo,
  type OpencodeMessageRecord,
} from "./records";
import { modelScope } from "./scope";
import { opencodeRecordsOf } from "./session";
import { isoFromEpochMs } from "../../util/iso-time";

/** Per-session index, computed once (keyed by the session's entry list). */
export interface OpencodeIndex {
  records: OpencodeMessageRecord[];
  /** Record index of each turn's answer, in turn order. */
  answers: number[];
  /** Per record index: the chars of what it sends (cached per record via convertRecord). */
  chars: number[];
}

const indexCache = new WeakMap<object, OpencodeIndex>();

function chatChars(messages: readonly ChatMessage[]): number {
  let total = 0;
  for (const message of messages) {
    if (typeof message.content === "string") total += message.content.length;
    else for (const part of message.content) total += part.type === "text" ? part.text.length : 0;
    if (message.role === "assistant" && message.tool_calls) {
      for (const call of message.tool_calls) total += call.function.name.length + call.function.arguments.length;
    }
  }
  return total;
}

export function opencodeIndex(session: Session): OpencodeIndex {
  const cached = indexCache.get(session.entries);
  if (cached) return cached;
  const records = opencodeRecordsOf(session);
  const answers: number[] = [];
  const chars: number[] = [];
  records.forEach((record, index) => {
    if (isTurnAnswer(record)) answers.push(index);
    chars.push(chatChars(convertRecord(record).chat));
  });
  const built = { records, answers, chars };
  indexCache.set(session.entries, built);
  return built;
}

function modelOf(record: OpencodeMessageRecord): ModelRef | null {
  const info = record.info;
  if (typeof info.providerID === "string" && typeof info.modelID === "string") return { provider: info.providerID, modelId: info.modelID };
  if (info.model && typeof info.model.providerID === "string" && typeof info.model.modelID === "string") {
    return { provider: info.model.providerID, modelId: info.model.modelID };
  }
  return null;
}

function usageOf(record: OpencodeMessageRecord): RecordedUsage | null {
  const tokens = record.info.tokens;
  if (!tokens) return null;
  const input = tokens.input ?? 0;
  const output = tokens.output ?? 0;
  const cacheRead = tokens.cache?.read ?? 0;
  const cacheWrite = tokens.cache?.write ?? 0;
  return { input, output, cacheRead, cacheWrite, totalTokens: tokens.total ?? input + output + cacheRead + cacheWrite };
}

const isoOf = isoFromEpochMs;

function turnPosition(index: OpencodeIndex, turn: number): number {
  const position = Number.isInteger(turn) ? index.answers[turn - 1] : undefined;
  if (position === undefined) throw new RangeError(`turn ${turn} does not exist: the session has ${index.answers.length} turns`);
  return position;
}

/** Record indexes (in send order) of the conversation of `turn`. */
function turnScope(session: Session, turn: number): { indexes: number[]; compactionIndex: number; answer: number } {
  const index = opencodeIndex(session);
  const answer = turnPosition(index, turn);
  return { ...modelScope(index.records, answer), answer };
}

/** The chat messages (without the system message) of `turn`, as sent. */
export function turnChatMessages(session: Session, turn: number): ChatMessage[] {
  const { records } = opencodeIndex(session);
  return turnScope(session, turn).indexes.flatMap((i) => convertRecord(records[i] as OpencodeMessageRecord).chat);
}

export function countOpencodeTurns(session: Session): number {
  return opencodeIndex(session).answers.length;
}

export function buildOpencodeTurnContext(session: Session, options: PipelineOptions, turn: number): TurnContext {
  const index = opencodeIndex(session);
  const scope = turnScope(session, turn);
  const answer = index.records[scope.answer] as OpencodeMessageRecord;
  const messages: ContextMessage[] = [];
  const warnings: ReaderWarning[] = [];
  for (const i of scope.indexes) {
    const converted = convertRecord(index.records[i] as OpencodeMessageRecord);
    messages.push(...converted.context);
    if (converted.skipped) warnings.push({ line: 0, reason: `message ${(index.records[i] as OpencodeMessageRecord).info.id}: ${converted.skipped}` });
  }
  return {
    turn,
    entryId: answer.info.id,
    messages,
    dropped: [],
    model: modelOf(answer),
    thinkingLevel: "off",
    api: options.api ?? "openai-completions",
    pathEntryIds: scope.indexes.map((i) => (index.records[i] as OpencodeMessageRecord).info.id),
    compactionId: scope.compactionIndex >= 0 ? (index.records[scope.compactionIndex] as OpencodeMessageRecord).info.id : null,
    warnings,
  };
}

/** The summary message answering the compaction user message at `compactionIndex`, or -1. */
function summaryIndexFor(records: readonly OpencodeMessageRecord[], compactionIndex: number): number {
  const id = (records[compactionIndex] as OpencodeMessageRecord).info.id;
  for (let i = compactionIndex + 1; i < records.length; i++) {
    const record = records[i] as OpencodeMessageRecord;
    if (isSummaryMessage(record) && record.info.parentID === id) return i;
  }
  return -1;
}

/** Index of the first turn whose answer comes after record `position`, as a turn number. */
function nextTurnAfter(answers: readonly number[], position: number): number | null {
  const k = answers.findIndex((answer) => answer > position);
  return k < 0 ? null : k + 1;
}

export function analyzeOpencodeSession(session: Session, options: PipelineOptions): SessionAnalysis {
  const index = opencodeIndex(session);
  const { records, answers } = index;
  const turns: TurnSummary[] = [];
  const timeline: TimelineItem[] = [];
  const auxiliary: AuxiliaryRequestEvent[] = [];
  const warnings: ReaderWarning[] = [];

  // Title request (FM-OC-15): before the first main request, for the session's first prompt.
  const firstUser = records.findIndex((record) => isUserInfo(record.info) && !compactionPartOf(record));
  if (firstUser >= 0) {
    const record = records[firstUser] as OpencodeMessageRecord;
    auxiliary.push({
      kind: "auxiliary",
      index: auxiliary.length,
      purpose: "title",
      entryId: record.info.id,
      beforeTurn: nextTurnAfter(answers, firstUser),
      timestamp: isoOf(record.info.time?.created),
      rule: "synth:title",
      ruleId: "FM-OC-15",
      label: "title request",
    });
  }

  // Compaction events, in record order, each placed before the next main request.
  const compactionsBefore = new Map<number, CompactionEvent[]>();
  const trailing: CompactionEvent[] = [];
  let lastAnswerBefore = -1;
  records.forEach((record, position) => {
    if (isTurnAnswer(record)) lastAnswerBefore = position;
    const part = compactionPartOf(record);
    if (!part) return;
    const summaryIndex = summaryIndexFor(records, position);
    const summary = summaryIndex >= 0 ? (records[summaryIndex] as OpencodeMessageRecord) : null;
    const beforeTurn = nextTurnAfter(answers, summaryIndex >= 0 ? summaryIndex : position);
    const trigger = lastAnswerBefore >= 0 ? (records[lastAnswerBefore] as OpencodeMessageRecord) : null;
    const event: CompactionEvent = {
      kind: "compaction",
      entryId: record.info.id,
      beforeTurn,
      timestamp: isoOf(record.info.time?.created),
      tokensBefore: trigger ? (usageOf(trigger)?.totalTokens ?? null) : null,
      firstKeptEntryId: typeof part.tail_start_id === "string" ? part.tail_start_id : null,
      summaryChars: summary ? assistantText(summary).length : 0,
    };
    if (beforeTurn === null) trailing.push(event);
    else compactionsBefore.set(beforeTurn, [...(compactionsBefore.get(beforeTurn) ?? []), event]);
    if (summary) {
      auxiliary.push({
        kind: "auxiliary",
        index: auxiliary.length,
        purpose: "summary",
        entryId: summary.info.id,
        beforeTurn,
        timestamp: isoOf(summary.info.time?.created),
        rule: "synth:compaction-summary",
        ruleId: "CP-OC-17",
        label: part.auto === true ? "compaction request (automatic)" : "compaction request",
        // The summary message records the summariser call's tokens: priced with the session.
        usage: usageOf(summary),
        model: modelOf(summary),
      });
    } else {
      warnings.push({ line: 0, reason: `compaction ${record.info.id} has no summary message (failed or interrupted compaction)` });
    }
  });

  let previousModel: ModelRef | null = null;
  let previousCompaction = -1;
  // Running scope sizes: between two answers the scope only grows by the new records, unless a
  // compaction row or a summary arrives (then the scope is recomputed). Linear without compactions.
  let scopeEnd = 0;
  let scope = { indexes: [] as number[], compactionIndex: -1 };
  let chars = 0;
  let messageCount = 0;
  answers.forEach((answer, k) => {
    const turn = k + 1;
    const record = records[answer] as OpencodeMessageRecord;
    let recompute = false;
    for (let i = scopeEnd; i < answer && !recompute; i++) {
      const candidate = records[i] as OpencodeMessageRecord;
      recompute = compactionPartOf(candidate) !== null || isSummaryMessage(candidate);
    }
    const added: number[] = [];
    if (recompute) {
      scope = modelScope(records, answer);
      chars = 0;
      messageCount = 0;
      added.push(...scope.indexes);
    } else {
      for (let i = scopeEnd; i < answer; i++) added.push(i);
      scope.indexes.push(...added);
    }
    scopeEnd = answer;
    for (const i of added) {
      chars += index.chars[i] as number;
      messageCount += convertRecord(records[i] as OpencodeMessageRecord).chat.length;
    }
    const model = modelOf(record);
    for (const event of compactionsBefore.get(turn) ?? []) timeline.push(event);
    timeline.push({ kind: "turn", turn });
    turns.push({
      turn,
      entryId: record.info.id,
      timestamp: isoOf(record.info.time?.created),
      model,
      api: options.api ?? "openai-completions",
      thinkingLevel: "off",
      messageCount,
      estimatedTokens: Math.ceil(chars / 4),
      chars,
      usage: usageOf(record),
      stopReason: record.info.finish ?? null,
      afterCompaction: scope.compactionIndex !== previousCompaction && scope.compactionIndex >= 0,
      modelSwitched: turn > 1 && (previousModel?.provider !== model?.provider || previousModel?.modelId !== model?.modelId),
      hasNote: false,
      hasDropped: false,
    });
    previousModel = model;
    previousCompaction = scope.compactionIndex;
  });
  timeline.push(...trailing);

  const last = records[records.length - 1];
  const branch: BranchInfo = {
    leafId: last?.info.id ?? "",
    turns: turns.length,
    timestamp: isoOf(last?.info.time?.created),
    label: null,
    isDefault: true,
  };
  return {
    branches: last ? [branch] : [],
    leafId: last?.info.id ?? null,
    turns,
    timeline,
    warnings,
    auxiliary,
  };
}
