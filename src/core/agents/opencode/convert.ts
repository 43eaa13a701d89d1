// One stored opencode message → the Chat Completions messages opencode sends for it (FM-OC-9,
// through @ai-sdk/openai-compatible), plus the same content as pi-shaped LlmMessages with
// provenance for the shared views. Converted once per distinct record (design.md §3: requests
// repeat their predecessors, so per-message work is cached) and shared by every turn.
//
// Recorded in the fixture: user text → `{role, content: string}`; compaction part → user
// `What did we do so far?` (FM-OC-13); assistant text → `{role, content}`; tool parts →
// `{role:"assistant", content:"", tool_calls}` then one `{role:"tool", tool_call_id, content}` per
// part; step-start/step-finish not sent. Not in the fixture, marked [INF] (rule ids below):
// several user parts, files, reasoning, errored/interrupted tools, errored assistant messages.
import type { ContextMessage, LlmMessage, TextBlock, ToolCallBlock } from "../../model";
import { assistantText, compactionPartOf, isCompactionContinue, isSummaryMessage, type OpencodeMessageRecord, type OpencodePart } from "./records";
import { asObject } from "../../util/is-object";

/** Text sent for a `compaction` part (FM-OC-13, CP-OC-24). */
const COMPACTION_PROMPT_TEXT = "What did we do so far?";
/** Text of a pruned tool output (CP-OC-26). */
export const PRUNED_TOOL_OUTPUT_TEXT = "[Old tool result content cleared]";
/** [INF: OC-INF-INTERRUPTED] Result sent for a tool part that never completed. */
const INTERRUPTED_TOOL_TEXT = "[Tool execution was interrupted]";
/** [INF: OC-INF-SUBTASK] Text sent for a `subtask` part. */
const SUBTASK_TEXT = "The following tool was executed by the user";

/** A Chat Completions message as opencode sends it (key order as written, FM-OC-9). */
export type ChatMessage =
  | { role: "user"; content: string | ChatContentPart[] }
  | { role: "assistant"; content: string; tool_calls?: ChatToolCall[] }
  | { role: "tool"; tool_call_id: string; content: string };
type ChatContentPart = { type: "text"; text: string } | { type: "image_url"; image_url: { url: string } };
interface ChatToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export interface ConvertedRecord {
  chat: ChatMessage[];
  context: ContextMessage[];
  /** Why the record sends nothing, when it does not. */
  skipped: string | null;
  /** Conversion choices not pinned by the fixture ([INF] rule ids), for the UI. */
  inferred: string[];
}

const cache = new WeakMap<OpencodeMessageRecord, ConvertedRecord>();

function userContent(record: OpencodeMessageRecord, inferred: string[]): ChatContentPart[] {
  const items: ChatContentPart[] = [];
  for (const part of record.parts) {
    if (part.type === "text" && typeof part.text === "string" && part.ignored !== true) items.push({ type: "text", text: part.text });
    else if (part.type === "compaction") items.push({ type: "text", text: COMPACTION_PROMPT_TEXT });
    else if (part.type === "subtask") {
      inferred.push("OC-INF-SUBTASK");
      items.push({ type: "text", text: SUBTASK_TEXT });
    } else if (part.type === "file" && typeof part.url === "string" && typeof part.mime === "string" && part.mime.startsWith("image/")) {
      inferred.push("OC-INF-FILE");
      items.push({ type: "image_url", image_url: { url: part.url } });
    }
  }
  return items;
}

function toolResultText(part: OpencodePart, inferred: string[]): string {
  const state = part.state ?? {};
  if (state.status === "completed") {
    if (state.time?.compacted !== undefined) return PRUNED_TOOL_OUTPUT_TEXT;
    return typeof state.output === "string" ? state.output : "";
  }
  if (state.status === "error") {
    inferred.push("OC-INF-TOOL-ERROR");
    return typeof state.error === "string" ? state.error : "";
  }
  inferred.push("OC-INF-INTERRUPTED");
  return INTERRUPTED_TOOL_TEXT;
}

function provenanceRule(record: OpencodeMessageRecord): { rule: string; ruleId?: string; explanation?: string } {
  if (compactionPartOf(record)) {
    return {
      rule: "synth:compaction-prompt",
      ruleId: "FM-OC-13",
      explanation: "A compaction request row: opencode sends its `compaction` part as this fixed text.",
    };
  }
  if (isCompactionContinue(record)) {
    return {
      rule: "synthetic:compaction-continue",
      ruleId: "FM-OC-14",
      explanation: "Stored by opencode after an automatic compaction (synthetic text part), sent like any user message.",
    };
  }
  if (isSummaryMessage(record)) {
    return { rule: "summary:compaction", ruleId: "CP-OC-24", explanation: "The compaction summary, sent as an assistant message." };
  }
  return { rule: "entry" };
}

function convertUser(record: OpencodeMessageRecord, inferred: string[]): ConvertedRecord {
  const items = userContent(record, inferred);
  if (items.length === 0) return { chat: [], context: [], skipped: "user message without sendable parts", inferred };
  const single = items.length === 1 && items[0]?.type === "text" ? items[0].text : null;
  if (single === null) inferred.push("OC-INF-USER-PARTS");
  const chat: ChatMessage = { role: "user", content: single ?? items };
  const llm: LlmMessage = {
    role: "user",
    content:
      single ??
      items.map((item): TextBlock => (item.type === "text" ? { type: "text", text: item.text } : { type: "text", text: `[image ${item.image_url.url.slice(0, 40)}]` })),
  };
  const provenance = { ...provenanceRule(record), entryId: record.info.id };
  return { chat: [chat], context: [{ message: llm, provenance }], skipped: null, inferred };
}

/** [INF: OC-INF-ERRORED] opencode leaves out errored assistant messages unless an abort left content. */
function skipsErroredAssistant(record: OpencodeMessageRecord): boolean {
  const error = record.info.error;
  if (!error) return false;
  const aborted = typeof error === "object" && error !== null && (error as Record<string, unknown>).name === "MessageAbortedError";
  const hasContent = record.parts.some((part) => part.type !== "step-start" && part.type !== "step-finish" && part.type !== "reasoning");
  return !(aborted && hasContent);
}

function convertAssistant(record: OpencodeMessageRecord, inferred: string[]): ConvertedRecord {
  if (skipsErroredAssistant(record)) {
    inferred.push("OC-INF-ERRORED");
    return { chat: [], context: [], skipped: "errored assistant message: not sent", inferred };
  }
  const text = assistantText(record);
  const toolParts = record.parts.filter((part) => part.type === "tool" && typeof part.callID === "string" && typeof part.tool === "string");
  if (record.parts.some((part) => part.type === "reasoning")) inferred.push("OC-INF-REASONING");
  if (text === "" && toolParts.length === 0) {
    return { chat: [], context: [], skipped: "assistant message without text or tool calls", inferred };
  }
  const provenance = { ...provenanceRule(record), entryId: record.info.id };
  const toolCalls: ChatToolCall[] = toolParts.map((part) => ({
    id: part.callID as string,
    type: "function",
    function: { name: part.tool as string, arguments: JSON.stringify(part.state?.input ?? {}) },
  }));
  const assistantChat: ChatMessage = toolCalls.length > 0 ? { role: "assistant", content: text, tool_calls: toolCalls } : { role: "assistant", content: text };
  const blocks: (TextBlock | ToolCallBlock)[] = [];
  if (text !== "") blocks.push({ type: "text", text });
  for (const part of toolParts) {
    const input = part.state?.input;
    blocks.push({
      type: "toolCall",
      id: part.callID as string,
      name: part.tool as string,
      arguments: asObject(input) ?? {},
    });
  }
  const chat: ChatMessage[] = [assistantChat];
  const context: ContextMessage[] = [
    {
      message: { role: "assistant", content: blocks, provider: record.info.providerID, model: record.info.modelID, stopReason: record.info.finish },
      provenance,
    },
  ];
  for (const part of toolParts) {
    const output = toolResultText(part, inferred);
    chat.push({ role: "tool", tool_call_id: part.callID as string, content: output });
    context.push({
      message: {
        role: "toolResult",
        toolCallId: part.callID as string,
        toolName: part.tool as string,
        content: [{ type: "text", text: output }],
        isError: part.state?.status === "error",
      },
      provenance:
        output === PRUNED_TOOL_OUTPUT_TEXT && part.state?.time?.compacted !== undefined
          ? { rule: "prune:tool-output", entryId: record.info.id, ruleId: "CP-OC-26", explanation: "Pruned tool output, sent as a placeholder." }
          : { rule: "entry", entryId: record.info.id },
    });
  }
  return { chat, context, skipped: null, inferred };
}

/** The messages one stored record sends. Cached per record object. */
export function convertRecord(record: OpencodeMessageRecord): ConvertedRecord {
  const cached = cache.get(record);
  if (cached) return cached;
  const inferred: string[] = [];
  let converted: ConvertedRecord;
  if (record.info.role === "user") converted = convertUser(record, inferred);
  else if (record.info.role === "assistant") converted = convertAssistant(record, inferred);
  else converted = { chat: [], context: [], skipped: `unknown role "${record.info.role}"`, inferred };
  converted.inferred = [...new Set(converted.inferred)];
  cache.set(record, converted);
  return converted;
}
