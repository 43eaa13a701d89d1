// One Kimi Code request rebuilt from the fold's history (history.ts), as 2.1.0 sends it to an
// OpenAI Chat Completions provider (docs/formats/kimi-code.md): the history projected the way its
// context projector does (agent/contextProjector/projection.ts: partial messages left out, blank
// texts dropped, each tool call followed by its result, tool results rendered with their error
// and empty-output notes, consecutive prompts typed by the user merged), then lowered to Chat
// Completions messages (requester/bases/openai/lower.ts in the 2.1.0 bundle) after the system
// message, in the body `{model, messages, tools, stream, stream_options, prompt_cache_key,
// max_tokens}`.
import type { ContextMessage, LlmMessage, Provenance } from "../../model";
import { notRecorded } from "../../model";
import { valueOrNotRecorded } from "../../captures/headerField";
import { isObject } from "../../util/is-object";
import type { KimiMessage, KimiTool, KimiTurn } from "./history";

const TOOL_ERROR_STATUS = "<system>ERROR: Tool execution failed.</system>";
const TOOL_EMPTY_STATUS = "<system>Tool output is empty.</system>";
const TOOL_EMPTY_ERROR_STATUS = "<system>ERROR: Tool execution failed. Tool output is empty.</system>";
const TOOL_NOT_AVAILABLE = "Tool result is not available in the current context. Do not assume the tool completed successfully.";
/** Chat Completions' ceiling on max_tokens in Kimi Code's OpenAI requester. */
const MAX_OUTPUT_CEILING = 128 * 1024;

type Part = Record<string, unknown>;

/** A projected message: Kimi Code's wire Message with the history messages it came from. */
interface Projected {
  role: string;
  content: Part[];
  toolCalls: KimiMessage["toolCalls"];
  toolCallId?: string;
  name?: string;
  sources: KimiMessage[];
}

function text(value: string): Part {
  return { type: "text", text: value };
}

function isBlankText(part: Part): boolean {
  return part.type === "text" && (typeof part.text !== "string" || part.text.trim().length === 0);
}

function isVacuous(part: Part): boolean {
  if (part.type === "text") return isBlankText(part);
  if (part.type === "think") return part.encrypted === undefined && (typeof part.think !== "string" || part.think.trim().length === 0);
  return false;
}

/** A tool result as the model reads it (toolResultRender.ts; 2.1 adds the wall time of tools that record it). */
function renderToolResult(message: KimiMessage): Part[] {
  const only = message.content[0];
  const single = message.content.length === 1 && only?.type === "text" && typeof only.text === "string" ? only.text : undefined;
  let rendered: Part[];
  if (single !== undefined) {
    if (message.isError === true) rendered = [text(single.length === 0 ? TOOL_EMPTY_ERROR_STATUS : `${TOOL_ERROR_STATUS}\n${single}`)];
    else rendered = [text(single.trim().length === 0 || single.trim() === "Tool output is empty." ? TOOL_EMPTY_STATUS : single)];
  } else if (message.content.every((part) => part.type === "text" && (typeof part.text !== "string" || part.text.trim().length === 0))) {
    rendered = [text(message.isError === true ? TOOL_EMPTY_ERROR_STATUS : TOOL_EMPTY_STATUS)];
  } else rendered = message.isError === true ? [text(TOOL_ERROR_STATUS), ...message.content] : message.content.slice();
  if (message.durationMs !== undefined) {
    const header = `Wall time: ${(message.durationMs / 1000).toFixed(3)} seconds`;
    const head = rendered[0];
    if (head?.type === "text") rendered[0] = text(`${header}\n${String(head.text)}`);
    else rendered.unshift(text(header));
  }
  if (message.note === undefined || message.note.length === 0) return rendered;
  const first = rendered[0];
  if (rendered.length === 1 && first?.type === "text") return [text(`${String(first.text)}\n${message.note}`)];
  return [...rendered, text(message.note)];
}

function projectedContent(message: KimiMessage): Part[] {
  const content = message.role === "tool" ? renderToolResult(message) : message.content;
  return content.filter((part) => !isBlankText(part));
}

function wire(message: KimiMessage, content: Part[], sources: KimiMessage[] = [message]): Projected {
  const projected: Projected = { role: message.role, content, toolCalls: message.toolCalls, sources };
  if (message.toolCallId !== undefined) projected.toolCallId = message.toolCallId;
  if (message.name !== undefined) projected.name = message.name;
  return projected;
}

function interrupted(callId: string, owner: KimiMessage): Projected {
  return { role: "tool", content: [text(TOOL_NOT_AVAILABLE)], toolCalls: [], toolCallId: callId, sources: [owner] };
}

type Block = { kind: "message"; message: KimiMessage; content: Part[] } | { kind: "exchange"; message: KimiMessage; content: Part[]; results: Map<string, { message: KimiMessage; content: Part[] } | null> };

/** Messages and tool exchanges (a call with its results), in order (pairBlocks). */
function pairBlocks(history: readonly KimiMessage[]): Block[] {
  const sizing = !history.some((message) => message.partial !== true && message.role === "assistant");
  const blocks: Block[] = [];
  const open = new Map<string, Extract<Block, { kind: "exchange" }>>();
  for (const message of history) {
    if (message.partial === true) continue;
    if (message.role === "tool" && !sizing) {
      const exchange = message.toolCallId !== undefined ? open.get(message.toolCallId) : undefined;
      if (exchange === undefined) continue;
      open.delete(message.toolCallId!);
      exchange.results.set(message.toolCallId!, { message, content: projectedContent(message) });
      continue;
    }
    const content = projectedContent(message);
    if (message.toolCalls.length === 0) {
      if (content.length === 0 || content.every(isVacuous)) continue;
      blocks.push({ kind: "message", message, content });
      continue;
    }
    const exchange: Extract<Block, { kind: "exchange" }> = { kind: "exchange", message, content, results: new Map() };
    for (const call of message.toolCalls) {
      const superseded = open.get(call.id);
      if (superseded) superseded.results.set(call.id, null);
      exchange.results.set(call.id, null);
      open.set(call.id, exchange);
    }
    blocks.push(exchange);
  }
  return blocks;
}

function partsText(content: readonly Part[]): { text: string; others: Part[] } {
  let joined = "";
  const others: Part[] = [];
  for (const part of content) {
    if (part.type === "text" && typeof part.text === "string") joined += part.text;
    else others.push(part);
  }
  return { text: joined, others };
}

/** The projected history (project in projection.ts): prompts typed by the user in a row become one message, texts joined by a blank line. */
function projectHistory(history: readonly KimiMessage[]): Projected[] {
  const out: Projected[] = [];
  let group: { blocks: Extract<Block, { kind: "message" }>[] } | null = null;
  const flush = () => {
    if (group === null) return;
    if (group.blocks.length === 1) out.push(wire(group.blocks[0]!.message, group.blocks[0]!.content));
    else {
      const texts: string[] = [];
      const parts: Part[] = [];
      for (const block of group.blocks) {
        const { text: joined, others } = partsText(block.content);
        if (joined.length > 0) texts.push(joined);
        parts.push(...others);
      }
      const content = texts.length > 0 ? [text(texts.join("\n\n")), ...parts] : parts;
      out.push({ role: "user", content, toolCalls: [], sources: group.blocks.map((block) => block.message) });
    }
    group = null;
  };
  for (const block of pairBlocks(history)) {
    if (block.kind === "message") {
      if (block.message.role === "user" && block.message.origin?.kind === "user") {
        group ??= { blocks: [] };
        group.blocks.push(block);
        continue;
      }
      flush();
      out.push(wire(block.message, block.content));
      continue;
    }
    flush();
    out.push(wire(block.message, block.content));
    for (const [callId, result] of block.results) out.push(result === null ? interrupted(callId, block.message) : wire(result.message, result.content));
  }
  flush();
  return out;
}

function chatContent(content: readonly Part[]): unknown {
  const nonThink = content.filter((part) => part.type !== "think");
  const only = nonThink[0];
  if (nonThink.length === 1 && only?.type === "text") return only.text;
  if (nonThink.length === 0) return undefined;
  return nonThink.map((part) => (part.type === "text" ? { type: "text", text: part.text } : part));
}

/** One projected message as a Chat Completions message (lowerMessage in the 2.1.0 bundle). */
function lower(message: Projected): Record<string, unknown> {
  const thinks = message.content.filter((part) => part.type === "think");
  const reasoning = thinks.map((part) => (part.hidden === true || typeof part.think !== "string" ? "" : part.think)).join("");
  let content = chatContent(message.content);
  let out: Record<string, unknown>;
  if (message.role === "assistant") {
    out = { role: "assistant", content: content !== undefined ? content : thinks.length > 0 && message.toolCalls.length === 0 ? "" : null };
    if (message.toolCalls.length > 0) out.tool_calls = message.toolCalls.map((call) => ({ id: call.id, type: "function", function: { name: call.name, arguments: call.arguments ?? "" } }));
  } else if (message.role === "tool") {
    content = message.content.filter((part) => part.type === "text").map((part) => String(part.text ?? "")).join("");
    out = { role: "tool", tool_call_id: message.toolCallId, content };
  } else out = { role: message.role, content: content ?? "" };
  if (thinks.length > 0) out.reasoning_content = reasoning;
  return out;
}

function provenance(message: Projected): Provenance {
  const first = message.sources[0];
  if (message.sources.length > 1) return { rule: "merge:user-prompts", entryId: first?.entryId ?? null, explanation: "prompts and texts typed by the user in a row, sent as one message joined by blank lines" };
  const origin = first?.origin?.kind;
  if (origin === "compaction_summary") return { rule: "summary:compaction", entryId: first?.entryId ?? null };
  if (message.role === "tool" && message.content.length === 1 && message.content[0]!.text === TOOL_NOT_AVAILABLE) return { rule: "synthesized:tool-result", entryId: first?.entryId ?? null, explanation: "a tool call without a recorded result, sent with Kimi Code's placeholder" };
  return { rule: "entry", entryId: first?.entryId ?? null };
}

/** The projected message in the shared message shape, for the Messages and Tokens tabs. */
function sharedMessage(message: Projected, timestamp: number): LlmMessage {
  const textParts = message.content.filter((part) => part.type === "text").map((part) => ({ type: "text" as const, text: String(part.text ?? "") }));
  if (message.role === "assistant") {
    return {
      role: "assistant",
      content: [...textParts, ...message.toolCalls.map((call) => ({ type: "toolCall" as const, id: call.id, name: call.name, arguments: parseArguments(call.arguments) }))],
      timestamp,
    };
  }
  if (message.role === "tool") return { role: "toolResult", toolCallId: message.toolCallId ?? "", toolName: "", content: textParts, isError: false, timestamp };
  return { role: "user", content: textParts, timestamp };
}

function parseArguments(value: string | null): Record<string, unknown> {
  if (value === null) return {};
  try {
    const parsed = JSON.parse(value) as unknown;
    return isObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

/** The tool list as Chat Completions tools. */
function wireTools(tools: readonly KimiTool[]): Record<string, unknown>[] {
  return tools.map((tool) => ({ type: "function", function: { name: tool.name, description: tool.description, parameters: tool.parameters } }));
}

/** max_tokens: the record's cap, lowered to the room the context window leaves after the measured context (resolveMaxCompletionCap). */
function maxTokensOf(turn: KimiTurn): number | null {
  const cap = turn.request.raw.maxTokens;
  if (typeof cap !== "number") return null;
  // The window is the cap itself when the model names no output size (completion-budget.ts): the record holds no other.
  const lowered = turn.usedTokens > 0 ? Math.min(cap, cap - turn.usedTokens) : cap;
  return Math.max(1, Math.min(Math.max(1, lowered), MAX_OUTPUT_CEILING));
}

export interface KimiRequest {
  body: Record<string, unknown>;
  messages: ContextMessage[];
  /** The projected messages without the system message (what `llm.request`'s messageCount counts). */
  projectedCount: number;
  notRecorded: string[];
}

export function buildKimiRequest(turn: KimiTurn, sessionId: string | null): KimiRequest {
  const projected = projectHistory(turn.history);
  const missing: string[] = [];
  const timestamp = typeof turn.request.raw.time === "number" ? turn.request.raw.time : 0;
  const systemMessage = valueOrNotRecorded(turn.systemPrompt === null ? undefined : { role: "system", content: turn.systemPrompt }, "system prompt", "system prompt", missing);
  const messages: unknown[] = turn.systemPrompt === "" ? [] : [systemMessage];
  messages.push(...projected.map(lower));
  const body: Record<string, unknown> = { model: typeof turn.request.raw.model === "string" ? turn.request.raw.model : notRecorded("model") };
  body.messages = messages;
  // An empty tool list leaves `tools` out of the body.
  if (turn.tools === null || turn.tools.length > 0) body.tools = valueOrNotRecorded(turn.tools === null ? undefined : wireTools(turn.tools), "tool schemas", "tools", missing);
  body.stream = true;
  body.stream_options = { include_usage: true };
  body.prompt_cache_key = valueOrNotRecorded(sessionId ?? undefined, "prompt_cache_key (the session folder's name)", "prompt_cache_key", missing);
  const maxTokens = maxTokensOf(turn);
  if (maxTokens !== null) body.max_tokens = maxTokens;
  const context: ContextMessage[] = [];
  if (turn.systemPrompt !== null && turn.systemPrompt !== "") context.push({ message: { role: "user", content: [{ type: "text", text: turn.systemPrompt }], timestamp }, provenance: { rule: "system-prompt", entryId: null, sentAsSystem: true } });
  for (const message of projected) context.push({ message: sharedMessage(message, timestamp), provenance: provenance(message) });
  return { body, messages: context, projectedCount: projected.length, notRecorded: missing };
}
