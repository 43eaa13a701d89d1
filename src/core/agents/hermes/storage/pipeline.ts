// The pipeline of a Session read from hermes-agent storage (./session.ts). One turn per API call
// (HS-48): every assistant message that is a new answer ends one, and its request holds the
// system prompt plus the messages of its segment before it. A segment is one stored session of
// the compression chain (or schema 30's archived rows); a continuation's first messages are the
// compacted history (head + summary + tail), so its copied assistant messages answer nothing. A
// compaction event sits between the segments. A segment that does not end with an answer and is
// not continued gets a last turn: the request that was sent without a stored answer (an error
// dump is the usual witness, HS-34). Requests are built by ./request.ts.
import type {
  BuiltRequest,
  CompactionEvent,
  ContextMessage,
  ModelRef,
  PipelineOptions,
  Provenance,
  Session,
  TimelineItem,
  TurnSummary,
} from "../../../model";
import { notRecorded } from "../../../model";
import { resolveModel } from "../../../models/catalogue";
import type { SessionAnalysis, TurnContext } from "../../../pipeline/types";
import { llmMessageChars } from "../../pi/convert";
import { HERMES_SUMMARY_RULE, HERMES_SYSTEM_PROMPT_RULE, messageView } from "../pipeline";
import { hermesApiMessages } from "./request";
import { hermesStorageHeaderOf, isSummaryMessage, type HermesSegment, type HermesStorageHeader } from "./session";

export interface StorageTurn {
  turn: number;
  segment: number;
  /** Entry index of the answer, or null for a request without a stored answer. */
  answer: number | null;
  /** Entry indexes the request sends, in order. */
  context: number[];
}

interface StorageIndex {
  header: HermesStorageHeader;
  turns: StorageTurn[];
  events: CompactionEvent[];
}

const indexCache = new WeakMap<Session, StorageIndex>();

function storageHeader(session: Session): HermesStorageHeader {
  const header = hermesStorageHeaderOf(session);
  if (!header) throw new Error("not a session read from hermes-agent storage");
  return header;
}

/** The model of a segment as provider + id: OpenRouter when the base URL says so, else the slug's prefix. */
export function modelRef(segment: Pick<HermesSegment, "model" | "baseUrl">): ModelRef | null {
  if (segment.model === null) return null;
  const base = (segment.baseUrl ?? "").toLowerCase();
  const slash = segment.model.indexOf("/");
  const provider = base.includes("openrouter") ? "openrouter" : slash > 0 ? segment.model.slice(0, slash) : "unknown";
  return { provider, modelId: segment.model };
}

function continues(next: HermesSegment | undefined): boolean {
  return next !== undefined && next.compacted !== null;
}

export function storageIndex(session: Session): StorageIndex {
  let index = indexCache.get(session);
  if (index) return index;
  const header = storageHeader(session);
  const excluded = new Set(header.excluded);
  const turns: StorageTurn[] = [];
  const events: CompactionEvent[] = [];
  header.segments.forEach((segment, s) => {
    const copiedEnd = segment.compacted ? segment.compacted.end : segment.start;
    const visible: number[] = [];
    let lastAnswered = true;
    for (let p = segment.start; p < segment.end; p++) {
      if (excluded.has(p)) continue;
      const raw = session.entries[p]!.raw;
      const answers = p >= copiedEnd && raw.role === "assistant" && !isSummaryMessage(raw);
      if (answers) turns.push({ turn: turns.length + 1, segment: s, answer: p, context: visible.slice() });
      lastAnswered = answers;
      visible.push(p);
    }
    if (segment.compacted) {
      const summary = segment.compacted.summary;
      const eventEntry = session.entries[summary ?? segment.start];
      if (eventEntry) {
        events.push({
          kind: "compaction",
          entryId: eventEntry.id,
          beforeTurn: null,
          timestamp: eventEntry.timestamp,
          tokensBefore: null,
          firstKeptEntryId: segment.compacted.end > segment.compacted.tailStart ? session.entries[segment.compacted.tailStart]!.id : null,
          summaryChars: summary === null ? 0 : llmMessageChars(messageView(session.entries[summary]!.raw)),
        });
      }
    }
    if (visible.length > 0 && !lastAnswered && !continues(header.segments[s + 1])) {
      turns.push({ turn: turns.length + 1, segment: s, answer: null, context: visible.slice() });
    }
  });
  // An event precedes the first turn of its segment.
  for (const event of events) {
    const segment = header.segments.findIndex((seg) => session.entries.slice(seg.start, seg.end).some((e) => e.id === event.entryId));
    event.beforeTurn = turns.find((t) => t.segment >= segment)?.turn ?? null;
  }
  index = { header, turns, events };
  indexCache.set(session, index);
  return index;
}

export function countStorageTurns(session: Session): number {
  return storageIndex(session).turns.length;
}

function checkedTurn(session: Session, turn: number): StorageTurn {
  const turns = storageIndex(session).turns;
  const found = turns[turn - 1];
  if (!Number.isInteger(turn) || !found) throw new RangeError(`turn ${turn} does not exist: the session has ${turns.length} turns`);
  return found;
}

function provenance(session: Session, header: HermesStorageHeader, position: number): Provenance {
  const entry = session.entries[position]!;
  const segment = header.segments.find((s) => position >= s.start && position < s.end);
  const region = segment?.compacted;
  if (isSummaryMessage(entry.raw)) {
    return { rule: HERMES_SUMMARY_RULE, entryId: entry.id, ruleId: "HS-44", explanation: "hermes-agent compression summary (stored in the continuation session)." };
  }
  if (region && position < region.headEnd) {
    return { rule: "entry", entryId: entry.id, ruleId: "HS-23", explanation: "protected head, copied by the compression from the previous session." };
  }
  if (region && position >= region.tailStart && position < region.end) {
    return { rule: "entry", entryId: entry.id, ruleId: "HS-23", explanation: "protected tail, copied by the compression from the previous session." };
  }
  const row = entry.raw._row as { apiContent?: string | null } | undefined;
  if (entry.raw.role === "user" && row?.apiContent) {
    return { rule: "entry", entryId: entry.id, ruleId: "HS-21", explanation: "sent as the stored api_content (what the model saw, memory / plugin context included)." };
  }
  return { rule: "entry", entryId: entry.id };
}

function contextMessages(session: Session, header: HermesStorageHeader, positions: readonly number[]): ContextMessage[] {
  return positions.map((p) => ({ message: messageView(session.entries[p]!.raw), provenance: provenance(session, header, p) }));
}

function turnEntryId(session: Session, turn: StorageTurn): string {
  const position = turn.answer ?? turn.context[turn.context.length - 1]!;
  return session.entries[position]!.id;
}

export function analyzeStorageSession(session: Session): SessionAnalysis {
  const { turns, events, header } = storageIndex(session);
  const timeline: TimelineItem[] = [];
  const summaries: TurnSummary[] = [];
  const afterCompaction = new Set(events.map((e) => e.beforeTurn));
  let eventAt = 0;
  for (const turn of turns) {
    while (eventAt < events.length && events[eventAt]!.beforeTurn === turn.turn) timeline.push(events[eventAt++]!);
    timeline.push({ kind: "turn", turn: turn.turn });
    const chars = turn.context.reduce((sum, p) => sum + llmMessageChars(messageView(session.entries[p]!.raw)), 0);
    const segment = header.segments[turn.segment]!;
    const previous = turns[turn.turn - 2];
    summaries.push({
      turn: turn.turn,
      entryId: turnEntryId(session, turn),
      timestamp: session.entries[turn.answer ?? turn.context[turn.context.length - 1]!]!.timestamp,
      model: modelRef(segment),
      api: "openai-completions",
      thinkingLevel: "off",
      messageCount: turn.context.length + (segment.systemPrompt ? 1 : 0),
      estimatedTokens: Math.ceil(chars / 4),
      chars,
      usage: null,
      stopReason: turn.answer === null ? null : ((session.entries[turn.answer]!.raw.finish_reason as string | undefined) ?? null),
      afterCompaction: afterCompaction.has(turn.turn),
      modelSwitched: previous !== undefined && header.segments[previous.segment]!.model !== segment.model,
      hasNote: false,
      hasDropped: false,
    });
  }
  while (eventAt < events.length) timeline.push(events[eventAt++]!);
  const last = session.entries[session.entries.length - 1];
  return {
    branches: last ? [{ leafId: last.id, turns: turns.length, timestamp: last.timestamp, label: null, isDefault: true }] : [],
    leafId: last?.id ?? null,
    turns: summaries,
    timeline,
    warnings: [],
  };
}

export function buildStorageTurnContext(session: Session, options: PipelineOptions, turn: number): TurnContext {
  const found = checkedTurn(session, turn);
  const { header, events } = storageIndex(session);
  const segment = header.segments[found.segment]!;
  const event = segment.compacted ? events.find((e) => session.entries.slice(segment.start, segment.end).some((x) => x.id === e.entryId)) : undefined;
  return {
    turn,
    entryId: turnEntryId(session, found),
    messages: contextMessages(session, header, found.context),
    dropped: [],
    model: modelRef(segment),
    thinkingLevel: "off",
    api: options.api ?? "openai-completions",
    pathEntryIds: found.context.map((p) => session.entries[p]!.id),
    compactionId: event?.entryId ?? null,
    warnings: [],
  };
}

/** Turn `turn`'s Chat Completions body as hermes sends it, with the parts storage lacks marked. */
export function buildStorageTurnRequest(session: Session, options: PipelineOptions, turn: number): BuiltRequest {
  const found = checkedTurn(session, turn);
  const { header } = storageIndex(session);
  const segment = header.segments[found.segment]!;
  const labels: string[] = [];
  const headerOverride = options.header ?? null;
  const systemPrompt = segment.systemPrompt ?? headerOverride?.systemPrompt ?? null;
  const tools: unknown[] | null =
    segment.tools ??
    (headerOverride?.tools ? headerOverride.tools.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.parameters } })) : null);
  const raws = found.context.map((p) => session.entries[p]!.raw);
  const parts = hermesApiMessages({ model: segment.model, baseUrl: segment.baseUrl, systemPrompt, tools }, raws);
  const messages = contextMessages(session, header, found.context);
  const sent = parts.messages;
  if (systemPrompt) {
    const from = segment.systemPrompt ? `the ${segment.systemPromptFrom} of session ${segment.sessionId}` : `the request header ${headerOverride?.source ?? ""}`;
    messages.unshift({
      message: { role: "user", content: [{ type: "text", text: systemPrompt }] },
      provenance: {
        rule: HERMES_SYSTEM_PROMPT_RULE,
        sentAsSystem: true,
        entryId: null,
        ruleId: "HS-37",
        explanation: `System prompt stored once per session (${from}); an ephemeral addendum or prefill messages, which hermes never stores, would follow it (HS-49).`,
      },
    });
  } else {
    sent.unshift({ role: "system", content: notRecorded("system prompt (sessions.system_prompt is empty and no session_<id>.json snapshot was given)") });
    labels.push("system");
  }
  const body: Record<string, unknown> = { model: segment.model ?? notRecorded("model"), messages: sent };
  if (segment.model === null) labels.push("model");
  if (tools === null) {
    body.tools = notRecorded("tool definitions (only session_<id>.json snapshots and request dumps store them)");
    labels.push("tools");
  } else if (tools.length > 0) {
    body.tools = tools;
  }
  labels.push("settings (max_tokens, extra_body: reasoning, provider preferences)");
  return {
    api: "openai-completions",
    body,
    messages,
    dropped: [],
    model: resolveModel(modelRef(segment), "openai-completions", options.modelOverrides),
    notRecorded: labels,
  };
}

/** The stored turn of a hermes storage session, for request-dump matching (./dumps.ts). */
export function storageTurns(session: Session): readonly StorageTurn[] {
  return storageIndex(session).turns;
}
