// A session trace's call as a request, approximated (docs/formats/sts.md): the trace records the
// conversation the harness kept, not what it sent. The messages are written in the Chat
// Completions shape the trace's own fields follow (`toolCalls` with JSON-string arguments, `tool`
// messages answering a call id); what the trace does not hold — tool definitions, request
// parameters and, when it has no system message, the system prompt — is marked "not recorded".
import type { ContextMessage } from "../../model";
import { notRecorded } from "../../model";
import { textString, type Text } from "../../text/text";

/** What the request view says first about every request of a session trace. */
const APPROXIMATED =
  "approximated: a session trace records the conversation, not the requests; each request is every message before the answer, in the Chat Completions shape, and what the harness added on the way is unknown";

function textOf(content: Text | readonly { type: string; text?: Text }[]): string {
  if (!Array.isArray(content)) return textString(content as Text);
  return content.map((block) => (block.type === "text" && block.text !== undefined ? textString(block.text) : "")).join("");
}

/** One context message as a Chat Completions message. */
export function stsWireMessage(context: ContextMessage): Record<string, unknown> {
  const message = context.message;
  if (message.role === "assistant") {
    const calls = message.content.flatMap((block) => (block.type === "toolCall" ? [{ id: block.id, type: "function", function: { name: block.name, arguments: JSON.stringify(block.arguments) } }] : []));
    const content = textOf(message.content);
    return calls.length > 0 ? { role: "assistant", content: content === "" ? null : content, tool_calls: calls } : { role: "assistant", content };
  }
  if (message.role === "toolResult") return { role: "tool", tool_call_id: message.toolCallId, content: textOf(message.content) };
  return { role: context.provenance.sentAsSystem ? "system" : "user", content: textOf(message.content) };
}

export function stsRequestBody(modelId: string | null, messages: readonly ContextMessage[]): Record<string, unknown> {
  const hasSystem = messages.some((message) => message.provenance.sentAsSystem);
  return {
    model: modelId ?? notRecorded("model"),
    messages: [...(hasSystem ? [] : [{ role: "system", content: notRecorded("the harness's system prompt") }]), ...messages.map(stsWireMessage)],
    tools: notRecorded("the harness's tool definitions"),
  };
}

/** What the body does not hold, in words, the approximation first. */
export function stsNotRecorded(messages: readonly ContextMessage[], answered: boolean): string[] {
  return [
    APPROXIMATED,
    ...(answered ? [] : ["the answer: the trace ends before it"]),
    ...(messages.some((message) => message.provenance.sentAsSystem) ? [] : ["system prompt"]),
    "tools",
    "request parameters (max_tokens, temperature, …)",
  ];
}
