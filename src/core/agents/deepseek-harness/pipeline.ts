// The deepseek-harness pipeline: every request the agent loop sent is the latest logged
// `request/header` (config, rendered system prompt, tool schemas: all stored) plus the messages the
// surface derives to at that moment, serialized by the route's adapter. The native DeepSeek route
// gets the adapter's own body (./wire.ts); a route through the pi-ai library (another provider)
// goes through the generic serializer of the model's wire shape, marked as inferred. Nothing of a
// conversation request is "not recorded".
import type { BuiltRequest, CompactionEvent, ContextMessage, ModelInfo, ModelRef, PipelineOptions, RecordedUsage, RequestHeader, Session, TimelineItem, ToolDefinition, TurnSummary } from "../../model";
import { resolveModel } from "../../models/catalogue";
import type { FormatPipeline, SessionAnalysis, TurnContext } from "../../pipeline/types";
import { getSerializer } from "../../providers";
import { isObject } from "../../util/is-object";
import { isText, textUnits } from "../../text/text";
import { contentOf, dataOf, num, str, timestampOf } from "./events";
import { deriveContextMessages } from "./messages";
import { harnessIndex, type HarnessIndex, type StepRequest } from "./sessionIndex";
import { surfaceCarryOf } from "./surfaceCarry";
import { deepseekBody, recordedHeader, type RecordedHeader } from "./wire";

/** The route the harness's native DeepSeek adapter serves; others go through pi-ai (DH-47). */
const NATIVE_DEEPSEEK_ROUTE = "deepseek-official";

/** The context messages of a list of surface nodes (entry indices), in order. */
export function surfaceMessages(session: Session, index: HarnessIndex, nodes: readonly number[]): ContextMessage[] {
  return nodes.flatMap((node) => deriveContextMessages(session.entries[node]!, index.toolNames));
}

export function headerAt(session: Session, position: number | null): RecordedHeader {
  return recordedHeader(position === null ? null : dataOf(session.entries[position]!).header);
}

function modelRefOf(header: RecordedHeader, answer: Record<string, unknown> | null): ModelRef | null {
  const source = answer && isObject(answer.source) ? answer.source : {};
  const provider = str(header.config.provider) ?? str(source.provider);
  const model = str(header.config.model) ?? str(source.model);
  return provider !== null && model !== null ? { provider, modelId: model } : null;
}

/** The model facts of a request: the catalogue's, with the output cap the header sends and the window the route logged. */
export function modelInfoOf(ref: ModelRef | null, header: RecordedHeader, contextWindow: number | null, options: PipelineOptions): ModelInfo {
  const model = resolveModel(ref, "openai-completions", options.modelOverrides);
  const overridden = ref ? options.modelOverrides?.[`${ref.provider}/${ref.modelId}`] : undefined;
  const maxTokens = num(header.config.maxTokens);
  return {
    ...model,
    ...(contextWindow !== null && overridden?.contextWindow === undefined ? { contextWindow, source: `${model.source}; context window from the session's request/context` } : {}),
    ...(maxTokens !== null && overridden?.maxTokens === undefined ? { maxTokens } : {}),
    reasoning: true,
    maxTokensField: "max_tokens",
  };
}

function checkedRequest(session: Session, turn: number): StepRequest {
  const requests = harnessIndex(session).requests;
  const request = requests[turn - 1];
  if (!Number.isInteger(turn) || !request) throw new RangeError(`turn ${turn} does not exist: the session has ${requests.length} requests`);
  return request;
}

function answerMessage(session: Session, request: StepRequest): Record<string, unknown> | null {
  if (request.answer === null) return null;
  const data = dataOf(session.entries[request.answer]!);
  return isObject(data.message) ? data.message : null;
}

/** The harness's disjoint usage counts in the shared shape. */
function usageOf(session: Session, request: StepRequest): RecordedUsage | null {
  if (request.answer === null) return null;
  const usage = dataOf(session.entries[request.answer]!).usage;
  if (!isObject(usage)) return null;
  const input = num(usage.inputTokens) ?? 0;
  const output = num(usage.outputTokens) ?? 0;
  const cacheRead = num(usage.cacheReadTokens) ?? 0;
  const cacheWrite = num(usage.cacheWriteTokens) ?? 0;
  return { input, output, cacheRead, cacheWrite, totalTokens: input + output + cacheRead + cacheWrite };
}

function stopReasonOf(session: Session, request: StepRequest): string | null {
  if (request.answer === null) return request.failure === null ? null : "error";
  if (dataOf(session.entries[request.answer]!).interrupted === true) return "aborted";
  // The step's finish chunk, when logged (stop, tool-calls, max-tokens, …).
  for (let at = request.answer - 1; at >= 0 && at >= request.answer - 64; at--) {
    const entry = session.entries[at]!;
    if (entry.type !== "assistant/chunk") break;
    const chunk = dataOf(entry).chunk;
    if (isObject(chunk) && chunk.type === "finish" && isObject(chunk.reason)) return str(chunk.reason.kind);
  }
  return null;
}

function thinkingLevelOf(header: RecordedHeader): string {
  return str(header.config.reasoningEffort) ?? "high";
}

/** The model a request went to: the header's route, else the answer's source. */
export function requestModelRef(session: Session, request: StepRequest, header: RecordedHeader): ModelRef | null {
  return modelRefOf(header, answerMessage(session, request));
}

function requestContext(session: Session, options: PipelineOptions, request: StepRequest): TurnContext {
  const index = harnessIndex(session);
  const header = headerAt(session, request.header);
  const length = request.surfaceLength;
  const carry = surfaceCarryOf(session, index, request);
  const messages = carry.messages.slice(0, carry.countAt(length));
  // The newest compaction whose checkpoint is among the request's nodes.
  const newest = carry.newestCompactionAt(length);
  const checkpoint = newest < 0 ? null : index.compactions[newest]!.checkpoint;
  return {
    turn: request.turn,
    entryId: session.entries[request.entry]!.id,
    messages,
    dropped: [],
    model: requestModelRef(session, request, header),
    thinkingLevel: thinkingLevelOf(header),
    api: options.api ?? "openai-completions",
    pathEntryIds: carry.ids.slice(0, length),
    compactionId: checkpoint !== null ? session.entries[checkpoint]!.id : null,
    warnings: request.header === null ? [{ line: 0, reason: `request ${request.turn}: no request/header before it (a log from before 2026-07-06?): system prompt, tools and settings are not recorded` }] : [],
  };
}

/** The pi-ai-shaped header a generic serializer takes, from the stored one. */
function genericHeader(header: RecordedHeader, maxTokens: unknown): RequestHeader {
  return {
    api: "openai-completions",
    ...(header.system !== null ? { systemPrompt: header.system } : {}),
    ...(header.tools ? { tools: header.tools.map((tool): ToolDefinition => ({ name: String(tool.name), description: String(tool.description ?? ""), parameters: tool.parameters })) } : {}),
    ...(typeof maxTokens === "number" ? { maxTokens } : {}),
    extraSettings: {},
    source: "the session's request/header",
  };
}

export interface RequestParts {
  header: RecordedHeader;
  messages: ContextMessage[];
  model: ModelInfo;
  modelRef: ModelRef | null;
  /** Effort from the header (conversation requests) or the adapter default (compaction). */
  effortFromHeader: boolean;
  maxTokens: unknown;
  /** The header's temperature and stop, sent on conversation requests only. */
  sendSampling: boolean;
  notRecorded: string[];
}

/**
 * A request body by the route's adapter: DeepSeek's own for the native route, else the generic
 * shape. `wireOf`: the native body's wire messages for this system prompt when the caller carries
 * them (walk.ts), else they are made from `parts.messages`.
 */
export function buildHarnessRequest(parts: RequestParts, options: PipelineOptions, wireOf?: (system: string | null) => Record<string, unknown>[]): BuiltRequest {
  const provider = parts.modelRef?.provider ?? str(parts.header.config.provider);
  if (provider === NATIVE_DEEPSEEK_ROUTE || provider === null) {
    const body = deepseekBody({
      model: parts.modelRef?.modelId ?? str(parts.header.config.model) ?? "unknown",
      system: parts.header.system,
      messages: parts.messages,
      tools: parts.header.tools,
      effort: parts.effortFromHeader ? { kind: "config", effort: parts.header.config.reasoningEffort } : { kind: "config", effort: undefined },
      ...(parts.sendSampling && parts.header.config.temperature !== undefined ? { temperature: parts.header.config.temperature } : {}),
      ...(parts.maxTokens !== undefined ? { maxTokens: parts.maxTokens } : {}),
      ...(parts.sendSampling && parts.header.config.stop !== undefined ? { stop: parts.header.config.stop } : {}),
    }, wireOf?.(parts.header.system));
    return { api: "openai-completions", body, messages: parts.messages, dropped: [], model: parts.model, notRecorded: parts.notRecorded };
  }
  // Another provider through the pi-ai library: its wire shape is pi-ai's (not read in the harness).
  const api = options.api ?? parts.model.api;
  const serialized = getSerializer(api).serialize({
    model: parts.model,
    messages: parts.messages.map((item) => item.message),
    header: genericHeader(parts.header, parts.maxTokens),
    thinkingLevel: thinkingLevelOf(parts.header),
  });
  return { api, body: serialized.body, messages: parts.messages, dropped: [], model: parts.model, notRecorded: parts.notRecorded };
}

/** The parts of a conversation request: its header's settings, `messages` its context. */
export function conversationParts(request: StepRequest, header: RecordedHeader, modelRef: ModelRef | null, model: ModelInfo, messages: ContextMessage[]): RequestParts {
  return {
    header,
    messages,
    model,
    modelRef,
    effortFromHeader: true,
    maxTokens: header.config.maxTokens,
    sendSampling: true,
    notRecorded: request.header === null ? ["system", "tools", "settings"] : [],
  };
}

function buildTurnRequest(session: Session, options: PipelineOptions, turn: number): BuiltRequest {
  const request = checkedRequest(session, turn);
  const context = requestContext(session, options, request);
  const header = headerAt(session, request.header);
  return buildHarnessRequest(conversationParts(request, header, context.model, modelInfoOf(context.model, header, request.contextWindow, options), context.messages), options);
}

function compactionEvents(session: Session, index: HarnessIndex, count: number): CompactionEvent[] {
  return index.compactions.map((record) => {
    const summary = record.summary === null ? null : dataOf(session.entries[record.summary]!);
    const checkpoint = record.checkpoint === null ? null : session.entries[record.checkpoint]!;
    const firstKept = record.nodesAfter?.find((node) => node !== record.checkpoint);
    const anchor = session.entries[record.checkpoint ?? record.end ?? record.start]!;
    const summaryChars = summary ? contentOf({ content: summary.summary }).reduce((sum, block) => sum + (isText(block.text) ? textUnits(block.text) : 0), 0) : 0;
    const failed = record.error ?? (record.end === null ? "the compaction did not finish (no compaction/end in the log)" : record.checkpoint === null ? "no checkpoint message was written" : null);
    const event: CompactionEvent = {
      kind: "compaction",
      entryId: (checkpoint ?? anchor).id,
      beforeTurn: record.afterRequests < count ? record.afterRequests + 1 : null,
      timestamp: anchor.timestamp,
      tokensBefore: summary ? num(summary.shadowedTokenCount) : null,
      firstKeptEntryId: firstKept === undefined ? null : session.entries[firstKept]!.id,
      summaryChars,
      ...(failed !== null ? { failed } : {}),
    };
    return event;
  });
}

function analyze(session: Session, options: PipelineOptions): SessionAnalysis {
  const index = harnessIndex(session);
  const count = index.requests.length;
  const events = compactionEvents(session, index, count);
  const turns: TurnSummary[] = [];
  const timeline: TimelineItem[] = [];
  let previousModel: string | null = null;
  let eventAt = 0;
  const ordered = [...events].sort((a, b) => (a.beforeTurn ?? Infinity) - (b.beforeTurn ?? Infinity));
  for (const request of index.requests) {
    while (eventAt < ordered.length && ordered[eventAt]!.beforeTurn === request.turn) timeline.push(ordered[eventAt++]!);
    timeline.push({ kind: "turn", turn: request.turn });
    // The request's figures from the carried surface (running totals), not from a copy of its context.
    const carry = surfaceCarryOf(session, index, request);
    const chars = carry.charsAt(request.surfaceLength);
    const header = headerAt(session, request.header);
    const model = requestModelRef(session, request, header);
    const modelKey = model ? `${model.provider}/${model.modelId}` : null;
    const entry = session.entries[request.entry]!;
    turns.push({
      turn: request.turn,
      entryId: entry.id,
      timestamp: entry.timestamp ?? timestampOf(entry.raw),
      model,
      api: "openai-completions",
      thinkingLevel: thinkingLevelOf(header),
      messageCount: carry.countAt(request.surfaceLength),
      estimatedTokens: Math.ceil(chars / 4),
      chars,
      usage: usageOf(session, request),
      stopReason: stopReasonOf(session, request),
      afterCompaction: request.afterCompaction,
      modelSwitched: previousModel !== null && modelKey !== previousModel,
      hasNote: false,
      hasDropped: false,
    });
    previousModel = modelKey;
  }
  while (eventAt < ordered.length) timeline.push(ordered[eventAt++]!);
  const last = session.entries[session.entries.length - 1];
  return {
    branches: last ? [{ leafId: last.id, turns: count, timestamp: last.timestamp, label: null, isDefault: true }] : [],
    leafId: last?.id ?? null,
    turns,
    timeline,
    warnings: [...index.warnings],
  };
}

export const deepseekHarnessPipeline: FormatPipeline = {
  analyze: (session, options) => analyze(session, options),
  countTurns: (session) => harnessIndex(session).requests.length,
  buildTurnContext: (session, options, turn) => requestContext(session, options, checkedRequest(session, turn)),
  buildTurnRequest: (session, options, turn) => buildTurnRequest(session, options, turn),
};
