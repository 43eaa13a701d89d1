// A Copilot CLI call's request, approximated (docs/formats/copilot-cli.md): the CLI's request
// builder is not public and the event log records neither its system prompt, nor its tool list,
// nor its request parameters. What it does record — the conversation — is written here in the
// Chat Completions shape Copilot's API takes (`messages` with `tool_calls` and `tool` results),
// one wire message per context message, in the same order. The request says in words that it is
// an approximation, and marks each missing part "not recorded".
import type { ContextMessage, RequestHeader } from "../../model";
import { notRecorded } from "../../model";
import { textString, type Text } from "../../text/text";

/** What the request view says about every Copilot CLI request, first among what is not recorded. */
const APPROXIMATED =
  "approximated: GitHub Copilot CLI's request builder is not public, so these messages are rebuilt from its event log; what the CLI adds or drops on the way is unknown";

const wireCache = new WeakMap<ContextMessage, Record<string, unknown>>();

/** A message the CLI read back from its log after a resume, with the tool's name and intent for a tool result. */
interface ResumedForm {
  tool: { name: string; summary: string | null } | null;
}

const resumedForms = new WeakMap<ContextMessage, ResumedForm>();

/**
 * Marks a message as one a resumed CLI rebuilt from its log (history.ts): 1.0.102 then sends an
 * answer with tool calls without `refusal` and a tool result with the tool's name and intent in
 * `__copilotMessageSource`, where the run that made them sent neither.
 */
export function markResumed(context: ContextMessage, tool: ResumedForm["tool"]): void {
  resumedForms.set(context, { tool });
}

export function textOf(content: Text | readonly { type: string; text?: Text }[]): string {
  if (!Array.isArray(content)) return textString(content as Text);
  return content.map((block) => (block.type === "text" && block.text !== undefined ? textString(block.text) : "")).join("");
}

/** One context message as a Chat Completions message. */
export function wireMessage(context: ContextMessage): Record<string, unknown> {
  let wire = wireCache.get(context);
  if (wire) return wire;
  const message = context.message;
  if (message.role === "assistant") {
    const calls = message.content.flatMap((block) => (block.type === "toolCall" ? [{ id: block.id, type: "function", function: { name: block.name, arguments: JSON.stringify(block.arguments) } }] : []));
    // As Copilot CLI 1.0.102 sends an answer with tool calls: no text is null, with `refusal: null`.
    const content = textOf(message.content);
    const refusal = resumedForms.has(context) ? {} : { refusal: null };
    wire = calls.length > 0 ? { role: "assistant", content: content === "" ? null : content, ...refusal, tool_calls: calls } : { role: "assistant", content };
  } else if (message.role === "toolResult") {
    const tool = resumedForms.get(context)?.tool;
    const source = tool ? { __copilotMessageSource: { kind: "tool", name: tool.name, ...(tool.summary !== null ? { summary: tool.summary } : {}) } } : {};
    wire = { role: "tool", tool_call_id: message.toolCallId, content: textOf(message.content), ...source };
  } else {
    wire = { role: "user", content: textOf(message.content) };
  }
  wireCache.set(context, wire);
  return wire;
}

/**
 * The request body of a call: the system prompt the CLI recorded (else a captured one, else a
 * marker), the recorded conversation, and what only a captured request of the CLI holds — its
 * sampling settings, `max_tokens` and tool list — in the order the CLI sends them, else markers.
 */
export function approximatedBody(modelId: string | null, system: ContextMessage | null, history: readonly ContextMessage[], header: RequestHeader | null): Record<string, unknown> {
  const captured = header?.api === "openai-completions" ? header : null;
  const systemMessage = system
    ? { role: "system", content: textOf(system.message.content) }
    : { role: "system", content: captured?.systemPrompt ? captured.systemPrompt : notRecorded("Copilot CLI's system prompt") };
  const body: Record<string, unknown> = { model: modelId ?? notRecorded("model"), messages: [systemMessage, ...history.map(wireMessage)] };
  for (const [key, value] of Object.entries(captured?.extraSettings ?? {})) if (key !== "__proto__" && !(key in body)) body[key] = value;
  if (captured?.maxTokens !== undefined) body.max_tokens = captured.maxTokens;
  body.tools = captured?.tools
    ? captured.tools.map((tool) => ({ type: "function", function: { name: tool.name, description: tool.description, parameters: tool.parameters } }))
    : notRecorded("Copilot CLI's tool definitions");
  body.stream = true;
  body.stream_options = { include_usage: true };
  return body;
}

/** What the body does not hold, in words, the approximation first. */
export function notRecordedParts(systemKnown: boolean, captured: boolean): string[] {
  return [APPROXIMATED, ...(systemKnown ? [] : ["system prompt"]), ...(captured ? [] : ["tools", "request parameters (max_tokens, temperature, …)"])];
}
