// A session as one trace (OpenTelemetry GenAI semantic conventions): an `invoke_agent` span per
// thread (a sub-agent's under the `execute_tool` span of the call that started it), a `chat` span
// per provider call of the thread with the recorded usage, and an `execute_tool` span per tool
// call answered in the next request. Our own findings ride along as `contextscope.*` attributes:
// where and why the cached prefix broke, the provider's own cache verdict, the cost in dollars.
// Times come from the file: a call ends at its reply's timestamp and starts at the newest message
// time its request carries (tool calls run between two calls).
import type { BuiltRequest, PipelineOptions, Session, TurnSummary } from "../../model";
import type { PrefixTurnReport } from "../../prefix/analyze";
import { costInputOfReport } from "../../pricing/fromPrefix";
import { turnCost } from "../../pricing/turns";
import type { PriceTable } from "../../pricing/types";
import type { RedactionFinding } from "../../redact/types";
import { analyzeSession } from "../../session/pipeline";
import { iterateSessionPrefixesWithRequests } from "../../session/sessionPrefixes";
import { requestContents } from "./content";
import { auxiliarySpans } from "./auxiliary";
import { FAILED_STOP_REASONS, finishReason, providerName, spanIdOf, traceIdOf } from "./names";
import type { SessionTrace, TraceAttributes, TraceSpan } from "./types";

export interface TraceOptions {
  pipeline: PipelineOptions;
  prices: PriceTable;
  /** Opt-in: write each request's messages, system instructions and tool definitions (redacted unless `redact` is false). */
  contents: { redact: boolean; unmasked: string[] } | null;
}

/** One thread as the walk sees it: the main session (id null) or a sub-agent's. */
interface ThreadInput {
  id: string | null;
  label: string;
  session: Session;
  parentThreadId: string | null;
  spawnedByToolCall: string | null;
}

/** The session's own id when its header has one, else its file name. */
function conversationIdOf(session: Session): string {
  for (const key of ["id", "sessionId", "session_id"]) {
    const value = session.header?.[key];
    if (typeof value === "string" && value !== "") return value;
  }
  return session.fileName;
}

function timeOf(timestamp: string | null | undefined): number | null {
  if (!timestamp) return null;
  const ms = Date.parse(timestamp);
  return Number.isFinite(ms) ? ms : null;
}

/** The newest message time a request carries (agents that stamp their messages), or null. */
function newestMessageTime(request: BuiltRequest): number | null {
  let newest: number | null = null;
  for (const { message } of request.messages) {
    const at = message.timestamp;
    if (typeof at === "number" && Number.isFinite(at) && (newest === null || at > newest)) newest = at;
  }
  return newest;
}

/**
 * When a call started: the newest message time its request carries, else the previous call's end;
 * never after the reply (clocks of a resumed session may disagree).
 */
function callStart(carried: number | null, previousEnd: number | null, end: number): number {
  const candidates = [carried, previousEnd].filter((at): at is number => at !== null && at <= end);
  return candidates.length > 0 ? Math.max(...candidates) : end;
}

/**
 * The tool calls a request answers: the calls of its last assistant message, when messages follow
 * it (the results; some agents send them as user text, so the result's failure is known only
 * from a `toolResult` message).
 */
function answeredToolCalls(request: BuiltRequest): { id: string; name: string; isError: boolean }[] {
  const messages = request.messages.map((item) => item.message);
  let at = messages.length - 1;
  while (at >= 0 && messages[at]!.role !== "assistant") at--;
  const assistant = messages[at];
  if (at === messages.length - 1 || assistant?.role !== "assistant") return [];
  const failed = new Set(messages.slice(at + 1).flatMap((message) => (message.role === "toolResult" && message.isError ? [message.toolCallId] : [])));
  return assistant.content.flatMap((block) => (block.type === "toolCall" ? [{ id: block.id, name: block.name, isError: failed.has(block.id) }] : []));
}

/** The provider's id of the reply: an id recorded as `message:request` (the answer's and the HTTP request's) gives the first. */
function responseIdOf(callId: string): string {
  return callId.split(":")[0]!;
}

function usageAttributes(report: PrefixTurnReport): TraceAttributes {
  const usage = report.recordedUsage;
  if (!usage) return {};
  const attributes: TraceAttributes = {
    // The convention counts every input token, cached or not (Anthropic's input_tokens does not).
    "gen_ai.usage.input_tokens": usage.totalInput,
    "gen_ai.usage.output_tokens": usage.output,
    "gen_ai.usage.cache_read.input_tokens": usage.cacheRead,
    "gen_ai.usage.cache_write.input_tokens": usage.cacheWrite,
    // The name before the conventions' 1.41 rename, still read by backends built on the older registry.
    "gen_ai.usage.cache_creation.input_tokens": usage.cacheWrite,
  };
  if (usage.reasoningOutput !== undefined) attributes["gen_ai.usage.reasoning.output_tokens"] = usage.reasoningOutput;
  return attributes;
}

/** Our findings about the call: the prefix break, the server's verdict, the cost. */
function findingAttributes(report: PrefixTurnReport, dollars: number | null, rebilled: number): TraceAttributes {
  const attributes: TraceAttributes = { "contextscope.turn": report.turn, "contextscope.request.bytes": report.bytes };
  if (report.cause !== null) {
    attributes["contextscope.break.cause"] = report.cause;
    attributes["contextscope.break.offset_bytes"] = report.sharedBytes;
    if (report.breakPath !== null) attributes["contextscope.break.path"] = report.breakPath;
    attributes["contextscope.break.rebilled_tokens"] = rebilled;
  }
  if (report.serverVerdict !== null) {
    attributes["contextscope.server.verdict"] = report.serverVerdict;
    if (report.serverMissedTokens !== null) attributes["contextscope.server.missed_tokens"] = report.serverMissedTokens;
    attributes["contextscope.server.agreement"] = report.serverAgreement;
  }
  if (dollars !== null) attributes["contextscope.cost.dollars"] = dollars;
  return attributes;
}

interface ThreadSpans {
  spans: TraceSpan[];
  /** The `execute_tool` span of each tool call id of the thread. */
  toolSpans: Map<string, string>;
}

function chatAttributes(request: BuiltRequest, summary: TurnSummary | null, conversationId: string, compacted: boolean): TraceAttributes {
  const requestModel = typeof request.body.model === "string" ? request.body.model : request.model.id;
  const attributes: TraceAttributes = {
    "gen_ai.operation.name": "chat",
    "gen_ai.provider.name": providerName(summary?.model ?? null, request.api),
    "gen_ai.request.model": requestModel,
    "gen_ai.conversation.id": conversationId,
  };
  if (summary?.model) attributes["gen_ai.response.model"] = summary.model.modelId;
  if (summary?.callId) attributes["gen_ai.response.id"] = responseIdOf(summary.callId);
  if (summary?.stopReason) attributes["gen_ai.response.finish_reasons"] = [finishReason(summary.stopReason)];
  // The convention sets it only when true.
  if (compacted) attributes["gen_ai.conversation.compacted"] = true;
  return attributes;
}

function threadSpans(thread: ThreadInput, agentSpanId: string, traceId: string, conversationId: string, options: TraceOptions, findings: RedactionFinding[]): ThreadSpans {
  const pipeline = thread.id === null ? options.pipeline : { ...options.pipeline, leafId: null };
  const analysis = analyzeSession(thread.session, pipeline);
  const threadKey = thread.id ?? "main";
  const spans: TraceSpan[] = [];
  const toolSpans = new Map<string, string>();
  let previousEnd: number | null = null;
  let previousTokens: number | null = null;
  let compacted = false;
  const startOfTurn = new Map<number, number>();
  const walk = iterateSessionPrefixesWithRequests(thread.session, pipeline, { analysis, prefix: { tokenizer: "estimate" } });
  for (const { report, request, summary } of walk) {
    compacted ||= summary?.afterCompaction ?? false;
    const recordedEnd = timeOf(summary?.timestamp);
    const carried = newestMessageTime(request);
    const end: number = recordedEnd ?? carried ?? previousEnd ?? 0;
    const start = callStart(carried, previousEnd, end);
    for (const call of answeredToolCalls(request)) {
      const spanId = spanIdOf(traceId, `tool ${threadKey} ${call.id}`);
      toolSpans.set(call.id, spanId);
      spans.push({
        spanId,
        parentSpanId: agentSpanId,
        name: `execute_tool ${call.name}`,
        kind: "internal",
        startMs: Math.min(previousEnd ?? start, start),
        endMs: start,
        attributes: { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": call.name, "gen_ai.tool.call.id": call.id, "gen_ai.tool.type": "function" },
        events: [],
        error: call.isError ? "tool_error" : null,
      });
    }
    const cost = turnCost({ ...costInputOfReport(report, previousTokens, summary?.model ?? null), at: summary?.timestamp ?? null }, options.prices);
    previousTokens = report.tokens;
    const attributes = {
      ...chatAttributes(request, summary, conversationId, compacted),
      ...usageAttributes(report),
      ...findingAttributes(report, cost.recorded.dollars, cost.rebilledTokens),
    };
    if (options.contents) {
      const contents = requestContents(request, `${threadKey}.turn${report.turn}`, options.contents);
      Object.assign(attributes, contents.attributes);
      findings.push(...contents.findings);
    }
    const failed = summary?.stopReason && FAILED_STOP_REASONS.has(summary.stopReason) ? summary.stopReason : null;
    if (failed) attributes["error.type"] = failed;
    spans.push({
      spanId: spanIdOf(traceId, `chat ${threadKey} ${report.turn}`),
      parentSpanId: agentSpanId,
      name: `chat ${attributes["gen_ai.request.model"]}`,
      kind: "client",
      startMs: start,
      endMs: end,
      attributes,
      events: [],
      error: failed,
    });
    startOfTurn.set(report.turn, start);
    previousEnd = end;
  }
  const lastEnd = previousEnd ?? 0;
  spans.push(
    ...auxiliarySpans(
      {
        session: thread.session,
        pipeline,
        events: analysis.auxiliary ?? [],
        traceId,
        agentSpanId,
        conversationId,
        threadKey,
        contents: options.contents,
        timeBefore: (turn) => (turn !== null ? (startOfTurn.get(turn) ?? lastEnd) : lastEnd),
      },
      findings,
    ),
  );
  return { spans, toolSpans };
}

function threadsOf(main: Session): ThreadInput[] {
  const mainThread: ThreadInput = { id: null, label: main.formatLabel, session: main, parentThreadId: null, spawnedByToolCall: null };
  const subAgents = (main.threads ?? []).map((thread) => ({
    id: thread.id,
    label: thread.label,
    session: thread.session,
    parentThreadId: thread.parentThreadId,
    spawnedByToolCall: thread.spawnedBy?.toolCallId ?? null,
  }));
  return [mainThread, ...subAgents];
}

/** The whole session (its main thread and every sub-agent thread) as one trace. */
export function sessionTrace(main: Session, options: TraceOptions): SessionTrace {
  const conversationId = conversationIdOf(main);
  const traceId = traceIdOf(conversationId);
  const findings: RedactionFinding[] = [];
  const agentSpanIdOf = (threadId: string | null) => spanIdOf(traceId, `agent ${threadId ?? "main"}`);
  const threads = threadsOf(main);
  const walked = threads.map((thread) => threadSpans(thread, agentSpanIdOf(thread.id), traceId, conversationId, options, findings));
  const spans: TraceSpan[] = [];
  threads.forEach((thread, index) => {
    const own = walked[index]!;
    const parentIndex = thread.id === null ? -1 : threads.findIndex((other) => other.id === thread.parentThreadId);
    const parentTool = thread.spawnedByToolCall !== null ? walked[parentIndex]?.toolSpans.get(thread.spawnedByToolCall) : undefined;
    const parentSpanId = thread.id === null ? null : (parentTool ?? agentSpanIdOf(parentIndex >= 0 ? threads[parentIndex]!.id : null));
    const starts = own.spans.map((span) => span.startMs);
    const ends = own.spans.map((span) => span.endMs);
    const dollars = own.spans.reduce((sum, span) => sum + (typeof span.attributes["contextscope.cost.dollars"] === "number" ? span.attributes["contextscope.cost.dollars"] : 0), 0);
    const attributes: TraceAttributes = {
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": thread.label,
      "gen_ai.agent.id": thread.id ?? conversationId,
      "gen_ai.conversation.id": conversationId,
      "contextscope.calls": own.spans.filter((span) => span.kind === "client").length,
      "contextscope.cost.dollars": dollars,
    };
    spans.push({
      spanId: agentSpanIdOf(thread.id),
      parentSpanId,
      name: `invoke_agent ${thread.label}`,
      kind: "internal",
      startMs: starts.length > 0 ? Math.min(...starts) : 0,
      endMs: ends.length > 0 ? Math.max(...ends) : 0,
      attributes,
      events: [],
      error: null,
    });
    spans.push(...own.spans);
  });
  return { traceId, resource: { "service.name": "contextscope", "gen_ai.agent.name": main.formatLabel }, spans, findings };
}
