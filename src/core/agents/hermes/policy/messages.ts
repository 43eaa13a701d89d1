// The message list hermes-agent's compressor works on (formats.md FM-HA-1): OpenAI-style chat
// messages with roles system/user/assistant/tool, tool calls with string arguments, replay fields
// (reasoning) and the compressor's own metadata on summary messages. Turn contexts of any session
// (pi-shaped LlmMessages) are adapted to it here, keeping the index of the context message each
// one came from so partitions can point back into the turn.
import type { ContextMessage, LlmMessage } from "../../../model";
import { isText, textString, type Text } from "../../../text/text";

type HermesRole = "system" | "user" | "assistant" | "tool";

/** A content part: `text`, `image_url`, or another type rendered as `[type]` (CP-HA-12). */
export interface HermesPart {
  type: string;
  text?: string;
  url?: string;
}

interface HermesToolCall {
  id: string;
  name: string;
  /** JSON text of the arguments, as OpenAI-style messages carry them. */
  arguments: string;
}

export interface HermesMessage {
  role: HermesRole;
  content: string | HermesPart[];
  toolCalls?: HermesToolCall[];
  toolCallId?: string;
  /** Replay fields (reasoning blobs) counted by the tail estimate (CP-HA-10). */
  reasoning?: string;
  /** `_compressed_summary` metadata of a summary message the compressor inserted (CP-HA-29). */
  compressedSummary?: boolean;
  compressedSummaryHasUserTurn?: boolean;
  /** Index of the turn-context message it came from; null for messages the simulator made. */
  contextIndex: number | null;
}

function textOfBlocks(blocks: readonly { type: string; text?: Text }[]): string {
  return blocks
    .filter((block) => block.type === "text" && isText(block.text))
    .map((block) => textString(block.text as Text))
    .join("");
}

/** One pi-shaped message as hermes would hold it. */
function hermesMessageOf(message: LlmMessage, contextIndex: number | null): HermesMessage {
  switch (message.role) {
    case "user":
      if (isText(message.content)) return { role: "user", content: textString(message.content), contextIndex };
      return {
        role: "user",
        content: message.content.map((block): HermesPart =>
          block.type === "text" ? { type: "text", text: textString(block.text) } : { type: "image_url", url: `data:${block.mimeType};base64,` },
        ),
        contextIndex,
      };
    case "assistant": {
      const text = textOfBlocks(message.content);
      const calls: HermesToolCall[] = [];
      const reasoning: string[] = [];
      for (const block of message.content) {
        if (block.type === "toolCall") calls.push({ id: block.id, name: block.name, arguments: JSON.stringify(block.arguments ?? {}) });
        else if (block.type === "thinking") reasoning.push(textString(block.thinking));
      }
      const out: HermesMessage = { role: "assistant", content: text, contextIndex };
      if (calls.length > 0) out.toolCalls = calls;
      if (reasoning.length > 0) out.reasoning = reasoning.join("\n");
      return out;
    }
    case "toolResult":
      return {
        role: "tool",
        toolCallId: message.toolCallId,
        content: message.content.map((block): HermesPart =>
          block.type === "text" ? { type: "text", text: textString(block.text) } : { type: "image_url", url: `data:${block.mimeType};base64,` },
        ),
        contextIndex,
      };
  }
}

/** A turn context as hermes' message list. */
export function hermesMessagesOf(context: readonly ContextMessage[]): HermesMessage[] {
  return context.map((item, index) => hermesMessageOf(item.message, index));
}

/** Text content of a message, multimodal parts joined with `\n` (CP-HA-12). */
export function hermesContentText(message: HermesMessage): string {
  if (typeof message.content === "string") return message.content;
  return message.content
    .map((part) => {
      if (part.type === "text") return part.text ?? "";
      if (part.type === "image_url") return /^https?:\/\//i.test(part.url ?? "") ? `[image: ${part.url}]` : "[image]";
      return `[${part.type}]`;
    })
    .join("\n");
}

/** A real user turn: a user message that is not a compressor summary. */
export function isRealUserTurn(message: HermesMessage): boolean {
  return message.role === "user" && message.compressedSummary !== true && !startsWithSummaryPrefix(hermesContentText(message));
}

/** Fixed opening of hermes' SUMMARY_PREFIX paragraph, and the legacy one (CP-HA-29). */
const SUMMARY_PREFIX_OPENING = "[CONTEXT COMPACTION — REFERENCE ONLY]";
const LEGACY_SUMMARY_PREFIX = "[CONTEXT SUMMARY]:";
/** The closing line of a summary message (CP-HA-29, byte-exact). */
export const SUMMARY_END_MARKER = "--- END OF CONTEXT SUMMARY — respond to the message below, not the summary above ---";

function startsWithSummaryPrefix(text: string): boolean {
  return text.startsWith(SUMMARY_PREFIX_OPENING) || text.startsWith(LEGACY_SUMMARY_PREFIX);
}

/** A handoff summary the compressor inserted earlier (metadata, or its fixed prefix). */
export function isHandoffSummary(message: HermesMessage): boolean {
  if (message.compressedSummary === true) return true;
  return (message.role === "user" || message.role === "assistant") && startsWithSummaryPrefix(hermesContentText(message));
}

/**
 * The body of a handoff summary (CP-HA-11): the text between the prefix paragraph and the end
 * marker. The prefix paragraph ends at the first newline after its opening. [INF: HA-INF-SUMMARY-BODY]
 */
export function handoffSummaryBody(message: HermesMessage): string {
  let text = hermesContentText(message);
  const end = text.lastIndexOf(`\n\n${SUMMARY_END_MARKER}`);
  if (end >= 0) text = text.slice(0, end);
  if (text.startsWith(LEGACY_SUMMARY_PREFIX)) return text.slice(LEGACY_SUMMARY_PREFIX.length).replace(/^\s+/, "");
  const newline = text.indexOf("\n");
  return newline >= 0 ? text.slice(newline + 1) : "";
}
