// One stored Crush message as it goes out on the Chat Completions wire (docs/formats/crush.md):
// Crush's `Message.ToAIMessage` (internal/message/content.go) turns the row into fantasy messages,
// and fantasy's OpenAI provider (`DefaultToPrompt`) into openai-go's message params, whose keys
// are written in openai-go's field order (`content` before `role`). Reasoning is not sent on this
// wire; an assistant row with neither text nor tool calls is dropped (Crush skips it, and fantasy
// drops an empty assistant message). Also the message in the shape the Messages view shows.
import type { LlmMessage, TextBlock, ToolCallBlock } from "../../model";
import { decodeBase64Url } from "../../share/base64url";
import { isObject } from "../../util/is-object";
import { utf8Decode } from "../../util/utf8";
import type { CrushMessageRow, CrushPart } from "./session";

type Wire = Record<string, unknown>;

function str(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function partsOf(row: CrushMessageRow, type: string): Record<string, unknown>[] {
  return row.parts.filter((part: CrushPart) => part.type === type).map((part) => part.data);
}

/** The first text part's text, as `Message.Content()` returns it. */
function firstText(row: CrushMessageRow): string {
  return str(partsOf(row, "text")[0]?.text);
}

/** A binary part's bytes: Go writes `[]byte` as base64. */
function binaryBytes(part: Record<string, unknown>): string {
  try {
    // Standard base64 (Go's) as base64url, padding dropped.
    const url = str(part.Data).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    return utf8Decode(decodeBase64Url(url));
  } catch {
    return "";
  }
}

/**
 * The user message's text: its text (trimmed when read back from the database, as it is sent
 * written when it is this run's own prompt), text attachments in Crush's `<file>` blocks, and
 * bang-mode shell commands with their output.
 */
function userText(row: CrushMessageRow, trim: boolean): string {
  let text = trim ? firstText(row).trim() : firstText(row);
  const attachments = partsOf(row, "binary").filter((part) => str(part.MIMEType).startsWith("text/"));
  if (attachments.length > 0) {
    text += "\n<system_info>The files below have been attached by the user, consider them in your response</system_info>\n";
    for (const file of attachments) {
      text += str(file.Path) !== "" ? `<file path='${str(file.Path)}'>\n` : "<file>\n";
      text += `\n${binaryBytes(file)}\n</file>\n`;
    }
  }
  for (const shell of partsOf(row, "shell_command")) {
    // Crush strips ANSI escapes from the output; stored output is taken as written.
    const shellText = `$ ${str(shell.command)}\n${str(shell.output)}\n(exit code ${typeof shell.exit_code === "number" ? shell.exit_code : 0})`;
    text = text !== "" ? `${text}\n\n${shellText}` : shellText;
  }
  return text;
}

function userWire(row: CrushMessageRow, trim: boolean): Wire[] {
  const text = userText(row, trim);
  const images = partsOf(row, "binary").filter((part) => str(part.MIMEType).startsWith("image/"));
  if (images.length === 0) return text === "" ? [] : [{ content: text, role: "user" }];
  const content: Wire[] = [];
  if (text !== "") content.push({ text, type: "text" });
  for (const image of images) content.push({ image_url: { url: `data:${str(image.MIMEType)};base64,${str(image.Data)}` }, type: "image_url" });
  return [{ content, role: "user" }];
}

function assistantWire(row: CrushMessageRow, trim: boolean): Wire[] {
  const text = trim ? firstText(row).trim() : firstText(row);
  const calls = partsOf(row, "tool_call").map((call) => ({
    id: str(call.id),
    function: { arguments: str(call.input), name: str(call.name) },
    type: "function",
  }));
  if (text === "" && calls.length === 0) return [];
  const message: Wire = {};
  if (text !== "") message.content = text;
  if (calls.length > 0) message.tool_calls = calls;
  message.role = "assistant";
  return [message];
}

function toolWire(row: CrushMessageRow, knownCalls: ReadonlySet<string>): Wire[] {
  // Results whose call is in no assistant message are dropped, as Crush's filterOrphanedToolResults does.
  return partsOf(row, "tool_result")
    .filter((result) => knownCalls.has(str(result.tool_call_id)))
    .map((result) => ({ content: str(result.content), tool_call_id: str(result.tool_call_id), role: "tool" }));
}

/**
 * The wire messages of one stored row. `trim`: read back from the database (texts trimmed by
 * ToAIMessage) rather than carried within the run that wrote it. `knownCalls`: the tool call ids
 * of the assistant messages sent.
 */
export function crushWireMessages(row: CrushMessageRow, trim: boolean, knownCalls: ReadonlySet<string>): Wire[] {
  if (row.parts.length === 0) return [];
  if (row.role === "user") return userWire(row, trim);
  if (row.role === "assistant") return assistantWire(row, trim);
  if (row.role === "tool") return toolWire(row, knownCalls);
  return [];
}

/** The tool call ids of a stored row (assistant rows only). */
export function crushToolCallIds(row: CrushMessageRow): string[] {
  return row.role === "assistant" ? partsOf(row, "tool_call").map((call) => str(call.id)) : [];
}

/** The ids of the tool calls that have a result among `rows`. */
export function crushToolResultIds(rows: readonly CrushMessageRow[]): Set<string> {
  return new Set(rows.flatMap((row) => (row.role === "tool" ? partsOf(row, "tool_result").map((result) => str(result.tool_call_id)) : [])));
}

function parsedInput(input: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(input);
    return isObject(value) ? value : { input: value };
  } catch {
    return { input };
  }
}

/** The row in the shape the Messages view and the size estimates take: one message, or one per tool result. */
export function crushMessageViews(row: CrushMessageRow): LlmMessage[] {
  if (row.role === "assistant") {
    const content: (TextBlock | ToolCallBlock | { type: "thinking"; thinking: string })[] = [];
    const thinking = str(partsOf(row, "reasoning")[0]?.thinking);
    if (thinking !== "") content.push({ type: "thinking", thinking });
    const text = firstText(row);
    if (text !== "") content.push({ type: "text", text });
    for (const call of partsOf(row, "tool_call")) content.push({ type: "toolCall", id: str(call.id), name: str(call.name), arguments: parsedInput(str(call.input)) });
    return [{ role: "assistant", api: "openai-completions", model: row.model ?? undefined, provider: row.provider ?? undefined, content }];
  }
  if (row.role === "tool") {
    return partsOf(row, "tool_result").map((result) => ({
      role: "toolResult",
      toolCallId: str(result.tool_call_id),
      toolName: str(result.name),
      content: [{ type: "text", text: str(result.content) }],
      isError: result.is_error === true,
    }));
  }
  return [{ role: "user", content: [{ type: "text", text: userText(row, true) }] }];
}

/** Whether Crush leaves the row out of a request: no parts, or an assistant row with nothing sent (cancelled before it answered). */
export function crushSkipsRow(row: CrushMessageRow): boolean {
  if (row.parts.length === 0) return true;
  return row.role === "assistant" && partsOf(row, "tool_call").length === 0 && firstText(row) === "" && str(partsOf(row, "reasoning")[0]?.thinking) === "";
}
