// Builders for converted contexts (ContextMessage[]) used by the reply-language note tests.
import { isText, textString } from "../../../src/core/text/text";
import type { ContextMessage, LlmMessage } from "../../../src/core/model";

let clock = 1_000;
function tick(): number {
  clock += 1;
  return clock;
}

export function user(text: string, entryId: string | null = null): ContextMessage {
  return { message: { role: "user", content: [{ type: "text", text }], timestamp: tick() }, provenance: { rule: "entry", entryId } };
}
export function assistant(entryId: string | null = null, text = ""): ContextMessage {
  const content: Extract<LlmMessage, { role: "assistant" }>["content"] = text
    ? [{ type: "text", text }]
    : [{ type: "toolCall", id: `call-${clock}`, name: "read", arguments: {} }];
  return { message: { role: "assistant", content, timestamp: tick() }, provenance: { rule: "entry", entryId } };
}
export function tool(chars: number, entryId: string | null = null, fill = "x"): ContextMessage {
  return {
    message: {
      role: "toolResult",
      toolCallId: `call-${clock}`,
      toolName: "read",
      content: [{ type: "text", text: fill.repeat(chars) }],
      isError: false,
      timestamp: tick(),
    },
    provenance: { rule: "entry", entryId },
  };
}
/** A converted user-role message produced by a pipeline rule (render:custom, render:bash, …). */
export function rendered(rule: string, chars: number, entryId: string | null = null): ContextMessage {
  return {
    message: { role: "user", content: [{ type: "text", text: "y".repeat(chars) }], timestamp: tick() },
    provenance: { rule, entryId },
  };
}
export const COMPACTION_PREFIX =
  "The conversation history before this point was compacted into the following summary:\n\n<summary>\n";
export const COMPACTION_SUFFIX = "\n</summary>";
export function summary(text: string, entryId = "cmp1"): ContextMessage {
  return {
    message: { role: "user", content: [{ type: "text", text: COMPACTION_PREFIX + text + COMPACTION_SUFFIX }], timestamp: tick() },
    provenance: { rule: "wrap:compaction-summary", entryId, ruleId: "PI-C5" },
  };
}

export function noteTexts(messages: readonly ContextMessage[]): string[] {
  return messages.filter((m) => m.provenance.rule === "note:reply-language").map((m) => textOf(m.message));
}
export function textOf(message: LlmMessage): string {
  if (isText(message.content)) return textString(message.content);
  return message.content.map((b) => (b.type === "text" ? textString(b.text) : "")).join("");
}
/** Index of every note, as positions in the output. */
export function noteIndexes(messages: readonly ContextMessage[]): number[] {
  const out: number[] = [];
  messages.forEach((m, i) => {
    if (m.provenance.rule === "note:reply-language") out.push(i);
  });
  return out;
}
