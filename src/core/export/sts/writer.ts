// A session as a Hugging Face session trace (STS, docs/formats/sts.md): the header line, then one
// message envelope per message of the conversation the agent's requests carried. The requests are
// walked in order and each adds the messages the one before it did not hold (after a compaction:
// its summary, not again the messages it kept), so the trace is every message the provider was
// sent, once, in order; the system prompt of the first request comes first when the agent sends
// it apart from the messages. An answer carries the model and usage its call recorded. The answer
// of the last call is in no request and is not written. Redacted unless asked otherwise.
import type { ContextMessage, PipelineOptions, Session, TurnSummary } from "../../model";
import { secretDetector } from "../../check/secretDetector";
import { redactJson } from "../../redact/json";
import type { RedactionFinding } from "../../redact/types";
import { analyzeSession } from "../../session/pipeline";
import { iterateTurnRequests } from "../../session/turnRequests";
import { textString, withTextsDecoded } from "../../text/text";
import { systemTexts } from "../otlp/content";

type StsMessage = Record<string, unknown>;

export interface StsExportOptions {
  pipeline: PipelineOptions;
  redact: boolean;
  unmasked: string[];
}

export interface StsTrace {
  /** The JSONL text, one line per record, ending with a newline. */
  text: string;
  messages: number;
  findings: RedactionFinding[];
}

function blockText(block: { type: string; text?: unknown; mimeType?: string }): string {
  if (block.type === "text") return textString(block.text as string);
  return block.type === "image" ? `[image ${block.mimeType ?? ""}]` : "";
}

/**
 * One context message as an STS message, its texts still in parts (a block each) and its tool
 * arguments still objects: redaction looks at each on its own, as the agent sent it, before
 * `written` joins them into the format's strings.
 */
function stsMessage(context: ContextMessage): StsMessage {
  const message = context.message;
  const stamp = typeof message.timestamp === "number" && Number.isFinite(message.timestamp) ? { timestamp: message.timestamp } : {};
  if (message.role === "user") {
    const content = Array.isArray(message.content) ? message.content.map(blockText) : [textString(message.content)];
    return { role: context.provenance.sentAsSystem ? "system" : "user", content, ...stamp };
  }
  if (message.role === "toolResult") return { role: "tool", toolCallId: message.toolCallId, content: message.content.map(blockText), ...stamp };
  const reasoning = message.content.flatMap((block) => (block.type === "thinking" ? [textString(block.thinking)] : []));
  const calls = message.content.flatMap((block) => (block.type === "toolCall" ? [{ id: block.id, function: { name: block.name, arguments: block.arguments } }] : []));
  return {
    role: "assistant",
    content: message.content.flatMap((block) => (block.type === "text" ? [textString(block.text)] : [])),
    ...(reasoning.length > 0 ? { reasoningContent: reasoning } : {}),
    ...(calls.length > 0 ? { toolCalls: calls } : {}),
    ...stamp,
  };
}

/** The message as the format writes it: texts joined (reasoning blocks a line apart), tool arguments a JSON string. */
function written(message: StsMessage): StsMessage {
  const joined: StsMessage = { ...message, content: (message.content as string[]).join("") };
  if (Array.isArray(message.reasoningContent)) joined.reasoningContent = (message.reasoningContent as string[]).join("\n");
  if (Array.isArray(message.toolCalls)) {
    joined.toolCalls = (message.toolCalls as { id: string; function: { name: string; arguments: unknown } }[]).map((call) => ({ id: call.id, function: { name: call.function.name, arguments: JSON.stringify(call.function.arguments) } }));
  }
  return joined;
}

/** What makes two messages the same message: everything but the call facts added to an answer. */
function keyOf(message: StsMessage): string {
  const { timestamp: _t, model: _m, usage: _u, ...rest } = message;
  return JSON.stringify(rest);
}

/** The messages of `next` that `previous` did not hold, in order (a repeated message counted as often as it occurs). */
function added(previous: readonly StsMessage[], next: readonly StsMessage[]): StsMessage[] {
  const held = new Map<string, number>();
  for (const message of previous) held.set(keyOf(message), (held.get(keyOf(message)) ?? 0) + 1);
  return next.filter((message) => {
    const left = held.get(keyOf(message)) ?? 0;
    if (left === 0) return true;
    held.set(keyOf(message), left - 1);
    return false;
  });
}

/** The answer of a call gets the model and usage the call recorded. */
function withCallFacts(message: StsMessage, summary: TurnSummary | undefined): StsMessage {
  if (!summary) return message;
  const usage = summary.usage ? { input: summary.usage.input, output: summary.usage.output, cacheRead: summary.usage.cacheRead, cacheWrite: summary.usage.cacheWrite, totalTokens: summary.usage.totalTokens } : null;
  // The provider is kept as a prefix ("openai/gpt-4.1"), as the reader takes it back.
  const ref = summary.model;
  const prefixed = ref !== null && ref.provider !== "" && ref.provider !== "unknown" && !ref.modelId.startsWith(`${ref.provider}/`);
  const model = ref === null ? null : prefixed ? `${ref.provider}/${ref.modelId}` : ref.modelId;
  return { ...message, ...(model !== null ? { model } : {}), ...(usage ? { usage } : {}) };
}

function conversation(session: Session, pipeline: PipelineOptions): StsMessage[] {
  const summaries = new Map(analyzeSession(session, pipeline).turns.map((summary) => [summary.turn, summary]));
  const written: StsMessage[] = [];
  let previous: StsMessage[] = [];
  for (const { turn, request } of iterateTurnRequests(session, pipeline)) {
    const messages = request.messages.map(stsMessage);
    if (turn === 1 && !request.messages.some((message) => message.provenance.sentAsSystem)) {
      const system = systemTexts(request, withTextsDecoded(request.body)).join("\n\n");
      if (system !== "") messages.unshift({ role: "system", content: [system] });
    }
    const fresh = added(previous, messages);
    // The first new answer in a request is the previous call's: it came before whatever else is
    // new (a compaction's summary placed ahead of it).
    const answerAt = turn > 1 ? fresh.findIndex((message) => message.role === "assistant") : -1;
    if (answerAt >= 0) written.push(withCallFacts(fresh[answerAt]!, summaries.get(turn - 1)));
    written.push(...fresh.filter((_, at) => at !== answerAt));
    previous = messages;
  }
  return written;
}

function headerOf(session: Session): Record<string, unknown> {
  const header = session.header ?? {};
  const harness = typeof header.harness === "string" && header.harness !== "" ? header.harness : session.formatId;
  const id = ["id", "sessionId", "session_id"].map((key) => header[key]).find((value): value is string => typeof value === "string" && value !== "") ?? session.fileName;
  const name = ["name", "title"].map((key) => header[key]).find((value): value is string => typeof value === "string" && value !== "");
  return { type: "session", harness, id, ...(name !== undefined ? { name } : {}), exportedBy: "contextscope" };
}

/** The main thread of a session as STS text. */
export function sessionStsTrace(session: Session, options: StsExportOptions): StsTrace {
  const messages = conversation(session, { ...options.pipeline, thread: null });
  const trace = { header: headerOf(session), messages };
  const redacted = options.redact ? redactJson(trace, { unmasked: options.unmasked, catalogue: secretDetector(), path: "sts" }) : { value: trace, findings: [] };
  const lines = [JSON.stringify(redacted.value.header), ...redacted.value.messages.map((message) => JSON.stringify({ type: "message", message: written(message) }))];
  return { text: `${lines.join("\n")}\n`, messages: messages.length, findings: redacted.findings };
}
