// Token composition of one request (the Tokens tab): how many tokens the tool
// definitions, the system prompt and each kind of context message take. Tools and system come
// from the request's cache segments (PR-2, counted as the prefix analysis counts them); messages
// are counted on their decoded text leaves (TK-8), once per message object and counter.
import { isCompactionSummaryRule, type BuiltRequest, type ContextMessage } from "../model";
import { NOTE_RULE } from "../notes/insert";
import { counterForApi, type TokenCounter } from "../tokens/counters";
import { countTokenText } from "./canonical";
import { segmentRequest, type SegmentOptions } from "./segment-request";
import type { SegmentedRequest } from "./types";
import { carryOf } from "./segment-builder";

export type CompositionKind = "tools" | "system" | "user" | "assistant" | "tool-result" | "note" | "summary" | "synthesized";

export const COMPOSITION_LABELS: Readonly<Record<CompositionKind, string>> = {
  tools: "tool definitions",
  system: "system prompt",
  user: "user messages",
  assistant: "assistant messages",
  "tool-result": "tool results",
  note: "notes",
  summary: "summaries (compaction, branch)",
  synthesized: "other synthesized (bash, custom, user words, folds)",
};

interface CompositionRow {
  kind: CompositionKind;
  label: string;
  /** Segments (tools, system) or messages of this kind. */
  count: number;
  tokens: number;
}

interface MessageTokens {
  /** Index in the turn's context messages. */
  index: number;
  kind: CompositionKind;
  role: string;
  tokens: number;
}

export interface TokenComposition {
  rows: CompositionRow[];
  messages: MessageTokens[];
  total: number;
  /** Exact for OpenAI shapes with o200k (TK-1); estimates otherwise. */
  exact: boolean;
  counterLabel: string;
  /** Parts the session does not record (system, tools): counted as 0. */
  notRecorded: string[];
}

/**
 * How many messages the request's system segments are made of: the leading system or developer
 * messages a Chat Completions or Responses request starts with (none when the system prompt is a
 * field of its own: Anthropic's `system`, Google's `systemInstruction`, Responses' `instructions`).
 */
export function systemSegmentMessages(segmented: SegmentedRequest): number {
  const indexes = new Set<number>();
  // Segments from the message part on (segment-builder.ts `carryMessages`) are all messages.
  const segments = segmented.segments;
  const end = carryOf(segmented)?.from ?? segments.length;
  for (let i = 0; i < end; i++) {
    const segment = segments.at(i)!;
    if (segment.level === "system" && segment.view !== "header" && segment.messageIndex !== null) indexes.add(segment.messageIndex);
  }
  return indexes.size;
}

/**
 * Whether the context message at `index` (of kind `kind`, every message before it one of these)
 * is among the messages the request's system segments are made of: they are already counted as
 * the "system prompt" row, so adding them again would count the prompt twice.
 */
export function countedAsSystemSegment(kind: CompositionKind, index: number, systemMessages: number, afterLeadingSystem: boolean): boolean {
  return afterLeadingSystem && kind === "system" && index < systemMessages;
}

/** The composition kind of a context message, from its provenance and role. */
export function compositionKind(item: ContextMessage): CompositionKind {
  const rule = item.provenance.rule;
  if (item.provenance.sentAsSystem) return "system";
  if (rule === NOTE_RULE) return "note";
  // A compaction's summary, or pi's summary of the branch left behind.
  if (isCompactionSummaryRule(rule) || rule.startsWith("wrap:branch")) return "summary";
  if (rule !== "entry") return "synthesized";
  const role = item.message.role;
  return role === "assistant" ? "assistant" : role === "toolResult" ? "tool-result" : "user";
}

const messageTokenCache = new Map<string, WeakMap<object, number>>();

/** A context message's tokens (its text leaves), counted once per message object and counter. */
export function messageTokens(item: ContextMessage, counter: TokenCounter): number {
  let cache = messageTokenCache.get(counter.id);
  if (!cache) {
    cache = new WeakMap();
    messageTokenCache.set(counter.id, cache);
  }
  let tokens = cache.get(item.message);
  if (tokens === undefined) {
    const content = (item.message as { content?: unknown }).content ?? "";
    // A counter that needs only the length (chars/4), or keys its counts by the texts' parts,
    // reads no text kept as bytes.
    tokens = countTokenText(counter, content);
    cache.set(item.message, tokens);
  }
  return tokens;
}

/** `options.cache`: the session's segment cache, so a whole-session pass measures each content once. */
export function tokenComposition(built: BuiltRequest, options: SegmentOptions = {}): TokenComposition {
  return compositionOfSegments(segmentRequest(built.api, built.body, options), built.messages, counterForApi(built.api, options));
}

/**
 * The composition of a request already segmented (the prefix pass's own segments, so a pass that
 * reports both does not segment the request twice). `segmented` must come from the same
 * tokenizer as `counter` for tools and system to be counted as the messages are.
 */
function compositionOfSegments(
  segmented: SegmentedRequest,
  contextMessages: readonly ContextMessage[],
  counter: TokenCounter,
): TokenComposition {
  const sums = new Map<CompositionKind, { count: number; tokens: number }>();
  const add = (kind: CompositionKind, tokens: number) => {
    const sum = sums.get(kind) ?? { count: 0, tokens: 0 };
    sum.count += 1;
    sum.tokens += tokens;
    sums.set(kind, sum);
  };
  for (const segment of segmented.segments) {
    if (segment.level === "tools" || segment.level === "schema") add("tools", segment.tokens);
    else if (segment.level === "system" && segment.view !== "header") add("system", segment.tokens);
  }
  const systemMessages = systemSegmentMessages(segmented);
  let leading = true;
  const messages = contextMessages.map((item, index) => {
    const kind = compositionKind(item);
    const tokens = messageTokens(item, counter);
    leading = countedAsSystemSegment(kind, index, systemMessages, leading);
    if (!leading) add(kind, tokens);
    return { index, kind, role: item.message.role, tokens };
  });
  const order = Object.keys(COMPOSITION_LABELS) as CompositionKind[];
  const rows = order.flatMap((kind) => {
    const sum = sums.get(kind);
    return sum ? [{ kind, label: COMPOSITION_LABELS[kind], count: sum.count, tokens: sum.tokens }] : [];
  });
  return {
    rows,
    messages,
    total: rows.reduce((total, row) => total + row.tokens, 0),
    exact: counter.exact,
    counterLabel: counter.label,
    notRecorded: segmented.notRecorded,
  };
}
