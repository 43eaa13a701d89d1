// Serialization of the turns for hermes-agent's summariser (compaction-policies.md CP-HA-12 …
// CP-HA-14): per message text with strict redaction, media and think-block handling, role
// labels, per-body and per-argument caps, then the aggregate cap over the whole transcript.
// Lengths are code points (Python).
import { cpHead, cpLength, cpTail, pyInt } from "./codepoints";
import { hermesContentText, type HermesMessage } from "./messages";
import { hermesRedact, type HermesRedactOptions, type RedactionSpan } from "./redact";

/** CP-HA-13 caps. */
const BODY_CAP = 6000;
const BODY_HEAD = 4000;
const BODY_TAIL = 1500;
const BODY_TRUNCATION_MARKER = "\n...[truncated]...\n";
const ARGUMENT_CAP = 1500;
const ARGUMENT_HEAD = 1200;
/** CP-HA-14 aggregate cap and split. */
const AGGREGATE_CAP = 160000;
const AGGREGATE_HEAD_SHARE = 0.45;

/** Inline reasoning blocks stripped from assistant text (CP-HA-12). */
const THINK_BLOCK = /<(think|thinking|reasoning|thought)>[\s\S]*?<\/\1>\s*/gi;
const MEDIA_REFERENCE = /MEDIA:\S+/g;

/** CP-HA-13: bodies over 6000 chars → first 4000 + marker + last 1500. */
export function capBody(text: string): string {
  if (cpLength(text) <= BODY_CAP) return text;
  return cpHead(text, BODY_HEAD) + BODY_TRUNCATION_MARKER + cpTail(text, BODY_TAIL);
}

/** CP-HA-13: tool-call arguments over 1500 chars → first 1200 + `...`. */
function capArguments(text: string): string {
  return cpLength(text) > ARGUMENT_CAP ? `${cpHead(text, ARGUMENT_HEAD)}...` : text;
}

export function aggregateMarker(omitted: number): string {
  return `...[summary input truncated: omitted ${omitted} chars from the middle to keep compression prompt bounded]...`;
}

export interface AggregateCapResult {
  text: string;
  omitted: number;
}

/**
 * CP-HA-14: over 160000 chars, keep the first int(160000 × 0.45) = 72000 and the last 88000
 * with the marker between them (N = omitted chars, the marker is extra). The marker is joined
 * with blank lines. [INF: HA-INF-CAP-JOIN]
 */
export function capAggregate(text: string, cap = AGGREGATE_CAP): AggregateCapResult {
  const length = cpLength(text);
  if (length <= cap) return { text, omitted: 0 };
  const head = pyInt(cap * AGGREGATE_HEAD_SHARE);
  const tail = cap - head;
  const omitted = length - head - tail;
  return { text: `${cpHead(text, head)}\n\n${aggregateMarker(omitted)}\n\n${cpTail(text, tail)}`, omitted };
}

export interface SerializedTurns {
  text: string;
  /** Redactions applied, with the index (in the input list) of the message they were in. */
  redactions: (RedactionSpan & { messageIndex: number })[];
  omitted: number;
}

/** CP-HA-12: the cleaned text of one message (redacted, media replaced, think blocks stripped). */
function cleanMessageText(message: HermesMessage, redactOptions: HermesRedactOptions): { text: string; spans: RedactionSpan[] } {
  const redacted = hermesRedact(hermesContentText(message), redactOptions);
  let text = redacted.text.replace(MEDIA_REFERENCE, "[media attachment]");
  if (message.role === "assistant") text = text.replace(THINK_BLOCK, "");
  return { text, spans: redacted.spans };
}

/** CP-HA-13: one message's block. */
export function serializeHermesMessage(message: HermesMessage, redactOptions: HermesRedactOptions = {}): { text: string; spans: RedactionSpan[] } {
  const cleaned = cleanMessageText(message, redactOptions);
  const spans = [...cleaned.spans];
  const body = capBody(cleaned.text);
  if (message.role === "tool") return { text: `[TOOL RESULT ${message.toolCallId ?? ""}]: ${body}`, spans };
  if (message.role === "assistant") {
    let text = `[ASSISTANT]: ${body}`;
    if (message.toolCalls && message.toolCalls.length > 0) {
      const lines = message.toolCalls.map((call) => {
        const args = hermesRedact(call.arguments, redactOptions);
        spans.push(...args.spans);
        return `  ${call.name}(${capArguments(args.text)})`;
      });
      text += `\n[Tool calls:\n${lines.join("\n")}\n]`;
    }
    return { text, spans };
  }
  return { text: `[${message.role.toUpperCase()}]: ${body}`, spans };
}

/** CP-HA-13/14: the whole transcript of the turns to summarise. */
export function serializeHermesTurns(messages: readonly HermesMessage[], redactOptions: HermesRedactOptions = {}): SerializedTurns {
  const blocks: string[] = [];
  const redactions: SerializedTurns["redactions"] = [];
  messages.forEach((message, messageIndex) => {
    const serialized = serializeHermesMessage(message, redactOptions);
    blocks.push(serialized.text);
    for (const span of serialized.spans) redactions.push({ ...span, messageIndex });
  });
  const capped = capAggregate(blocks.join("\n\n"));
  return { text: capped.text, redactions, omitted: capped.omitted };
}
