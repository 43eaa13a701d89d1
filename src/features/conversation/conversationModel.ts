// The Conversation tab's view of a turn: the messages of its request as readable text, in order —
// what the user wrote, the assistant's text, its thinking and tool calls, the tool results — each
// marked with whether the session holds it or a pipeline step inserted or rewrote it. Built in the
// worker from the turn's context messages (every agent's pipeline makes the same shape), so it
// works the same for every agent. Where a request in the Anthropic Messages shape sends tool results
// inside a user message (Claude Code keeps them there), they are split out of it again, from the
// request body. Very long texts are cut here (the Request tab has them whole).
import type { BuiltRequest, ContextMessage, ImageBlock, TextBlock } from "../../core/model";
import { NOTE_RULE, noteExplanation, synthesizedExplanation } from "../../app/explain";
import { isText, textString, textUnits, type Text } from "../../core/text/text";

/** Characters kept of one block of text the user reads unfolded (user and assistant text). */
const SHOWN_TEXT_CHARS = 100_000;
/** Characters kept of a folded block (tool arguments, tool results, thinking). */
const FOLDED_TEXT_CHARS = 20_000;

export type ConversationBlock =
  /** `cut`: characters left out at the end (0 when whole). */
  | { kind: "text"; text: string; cut: number }
  | { kind: "thinking"; text: string; cut: number; redacted: boolean }
  | { kind: "tool-call"; name: string; id: string; arguments: string; cut: number }
  /** A tool result sent inside a user message (Anthropic `tool_result` blocks); `name`: its call's tool, when found. */
  | { kind: "tool-result"; callId: string; name: string | null; isError: boolean; text: string; cut: number }
  | { kind: "image"; mimeType: string };

export interface ConversationMessage {
  /** Position in the request's messages (the Messages tab's #). */
  index: number;
  role: "user" | "assistant" | "toolResult";
  /** Taken from the session ("entry"), inserted or rewritten by a pipeline step, or a reply-language note. */
  origin: "session" | "pipeline" | "note";
  /** The pipeline step's name (`wrap:compaction-summary`, …); "entry" for the session's own. */
  rule: string;
  /** Why the pipeline inserted or rewrote it; null for the session's own messages. */
  explanation: string | null;
  entryId: string | null;
  /** Tool results: the tool, its call and whether it failed. */
  tool?: { name: string; callId: string; isError: boolean };
  /** Assistant messages: the model and how the response ended, when recorded. */
  model?: string;
  stopReason?: string;
  errorMessage?: string;
  blocks: ConversationBlock[];
}

export interface ConversationResult {
  turn: number;
  messages: ConversationMessage[];
}

/** The text to show (a stored text decoded: the view is where its characters are needed), cut at `limit`. */
function cut(stored: Text, limit: number): { text: string; cut: number } {
  const text = textString(stored);
  return textUnits(stored) > limit ? { text: text.slice(0, limit), cut: text.length - limit } : { text, cut: 0 };
}

function contentBlocks(content: Text | (TextBlock | ImageBlock)[], limit: number): ConversationBlock[] {
  if (isText(content)) return [{ kind: "text", ...cut(content, limit) }];
  return content.map((block) => (block.type === "text" ? { kind: "text", ...cut(block.text, limit) } : { kind: "image", mimeType: block.mimeType }));
}

/** The arguments of a tool call as indented JSON, the way a reader scans them. */
function argumentsText(args: unknown): string {
  try {
    return JSON.stringify(args ?? {}, null, 2) ?? "{}";
  } catch {
    return String(args);
  }
}

/** The text of an Anthropic block's `content` (a string, or text and image blocks). */
function anthropicContentText(content: unknown): string {
  if (isText(content)) return textString(content);
  if (!Array.isArray(content)) return "";
  return content
    .map((block: unknown) => {
      if (typeof block !== "object" || block === null) return "";
      const item = block as Record<string, unknown>;
      if (item.type === "text" && isText(item.text)) return textString(item.text);
      if (item.type === "image") return "[image]";
      return "";
    })
    .join("\n");
}

/**
 * The blocks of a user message sent in the Anthropic Messages shape, its `tool_result` blocks as
 * tool results; null when it holds none (the message's own blocks are then used).
 */
function anthropicUserBlocks(wire: unknown, toolNames: ReadonlyMap<string, string>): ConversationBlock[] | null {
  if (typeof wire !== "object" || wire === null) return null;
  const content = (wire as Record<string, unknown>).content;
  if (!Array.isArray(content) || !content.some((block: unknown) => typeof block === "object" && block !== null && (block as Record<string, unknown>).type === "tool_result")) return null;
  return content.map((block: unknown): ConversationBlock => {
    const item = typeof block === "object" && block !== null ? (block as Record<string, unknown>) : {};
    if (item.type === "tool_result") {
      const callId = typeof item.tool_use_id === "string" ? item.tool_use_id : "";
      return { kind: "tool-result", callId, name: toolNames.get(callId) ?? null, isError: item.is_error === true, ...cut(anthropicContentText(item.content), FOLDED_TEXT_CHARS) };
    }
    if (item.type === "image") return { kind: "image", mimeType: typeof item.source === "object" && item.source !== null && typeof (item.source as Record<string, unknown>).media_type === "string" ? String((item.source as Record<string, unknown>).media_type) : "image" };
    return { kind: "text", ...cut(isText(item.text) ? item.text : anthropicContentText(item.content), SHOWN_TEXT_CHARS) };
  });
}

function conversationMessage(context: ContextMessage, index: number, toolNames: ReadonlyMap<string, string>, wire: unknown): ConversationMessage {
  const { message, provenance } = context;
  const origin = provenance.rule === NOTE_RULE ? "note" : provenance.rule === "entry" ? "session" : "pipeline";
  const explanation = origin === "session" ? (provenance.note ? noteExplanation(provenance) : null) : origin === "note" ? noteExplanation(provenance) : synthesizedExplanation(context);
  const base = { index, role: message.role, origin, rule: provenance.rule, explanation, entryId: provenance.entryId } as const;
  if (message.role === "user") return { ...base, blocks: anthropicUserBlocks(wire, toolNames) ?? contentBlocks(message.content ?? [], SHOWN_TEXT_CHARS) };
  if (message.role === "toolResult") {
    return {
      ...base,
      tool: { name: message.toolName || toolNames.get(message.toolCallId) || "", callId: message.toolCallId, isError: message.isError },
      blocks: contentBlocks(message.content ?? [], FOLDED_TEXT_CHARS),
    };
  }
  const blocks: ConversationBlock[] = (message.content ?? []).map((block) => {
    if (block.type === "text") return { kind: "text", ...cut(block.text, SHOWN_TEXT_CHARS) };
    if (block.type === "thinking") return { kind: "thinking", redacted: block.redacted === true, ...cut(block.thinking, FOLDED_TEXT_CHARS) };
    const args = cut(argumentsText(block.arguments), FOLDED_TEXT_CHARS);
    return { kind: "tool-call", name: block.name, id: block.id, arguments: args.text, cut: args.cut };
  });
  const out: ConversationMessage = { ...base, blocks };
  if (message.model) out.model = message.model;
  if (message.stopReason) out.stopReason = message.stopReason;
  if (message.errorMessage) out.errorMessage = message.errorMessage;
  return out;
}

/**
 * The wire messages of an Anthropic Messages body, when they line up one to one with the context
 * messages (the agent sent each context message as one wire message); else none.
 */
function anthropicWireMessages(built: Pick<BuiltRequest, "api" | "body" | "messages">): readonly unknown[] {
  if (built.api !== "anthropic-messages") return [];
  const wire = built.body.messages;
  return Array.isArray(wire) && wire.length === built.messages.length ? wire : [];
}

export function conversationView(turn: number, built: Pick<BuiltRequest, "api" | "body" | "messages">): ConversationResult {
  // Tool results name their tool by the call they answer.
  const toolNames = new Map<string, string>();
  for (const { message } of built.messages) {
    if (message.role !== "assistant") continue;
    for (const block of message.content ?? []) if (block.type === "toolCall") toolNames.set(block.id, block.name);
  }
  const wire = anthropicWireMessages(built);
  return { turn, messages: built.messages.map((context, index) => conversationMessage(context, index, toolNames, wire[index])) };
}
