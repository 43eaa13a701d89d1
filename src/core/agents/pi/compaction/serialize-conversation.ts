// pi's `serializeConversation` (PI-K23): the converted messages a summariser reads, flattened to
// one plain-text transcript. Reproduced exactly, because the summariser request must equal the
// recorded one byte for byte. The transcript is one string built from the messages' texts, so
// each stored text is decoded here as it is appended.
import type { LlmMessage, TextBlock } from "../../../model";
import { isText, textString } from "../../../text/text";

/** Tool results longer than this are cut in the transcript (PI-K23). */
const TOOL_RESULT_TRANSCRIPT_CHARS = 2000;

function textOf(content: LlmMessage["content"], separator: string): string {
  if (isText(content)) return textString(content);
  const texts: string[] = [];
  for (const block of content ?? []) if (block.type === "text") texts.push(textString((block as TextBlock).text));
  return texts.join(separator);
}

/** `name(k1=<json>, k2=<json>)`, arguments in their stored key order. */
function renderToolCall(name: string, args: Record<string, unknown> | undefined): string {
  const parts = Object.entries(args ?? {}).map(([key, value]) => `${key}=${JSON.stringify(value)}`);
  return `${name}(${parts.join(", ")})`;
}

/** Cuts a tool result to its first 2000 characters with pi's note about the rest. */
export function truncateToolResultText(text: string, limit = TOOL_RESULT_TRANSCRIPT_CHARS): string {
  if (text.length <= limit) return text;
  return `${text.slice(0, limit)}\n\n[... ${text.length - limit} more characters truncated]`;
}

export function serializeConversation(messages: readonly LlmMessage[]): string {
  const parts: string[] = [];
  for (const message of messages) {
    if (message.role === "user") {
      const text = textOf(message.content, "");
      if (text) parts.push(`[User]: ${text}`);
    } else if (message.role === "assistant") {
      // Always thinking, then text, then tool calls, whatever the block order (PI-K23).
      const thinking: string[] = [];
      const texts: string[] = [];
      const calls: string[] = [];
      for (const block of message.content ?? []) {
        if (block.type === "thinking") thinking.push(textString(block.thinking));
        else if (block.type === "text") texts.push(textString(block.text));
        else if (block.type === "toolCall") calls.push(renderToolCall(block.name, block.arguments));
      }
      if (thinking.length > 0) parts.push(`[Assistant thinking]: ${thinking.join("\n")}`);
      if (texts.length > 0) parts.push(`[Assistant]: ${texts.join("\n")}`);
      if (calls.length > 0) parts.push(`[Assistant tool calls]: ${calls.join("; ")}`);
    } else if (message.role === "toolResult") {
      const text = textOf(message.content, "");
      if (text) parts.push(`[Tool result]: ${truncateToolResultText(text)}`);
    }
  }
  return parts.join("\n\n");
}
