// Presents the contents of a Gemini CLI request as context messages (pi-ai shapes with
// provenance) for the Messages tab, the search and the token estimates; the request body itself
// is built from the contents (contents.ts). One context message per content, in the same order,
// so `contents[i]` and message i describe the same thing. A content that merged several messages
// says so, and so do the tool results a resume sends twice and the CLI's own snapshot message.
import type { ContextMessage, LlmMessage, Provenance, TextBlock, ToolCallBlock } from "../../model";
import { isObject } from "../../util/is-object";
import { isText, type Text } from "../../text/text";
import type { Part, SourcedContent } from "./contents";
import { joinedTextsStartWith } from "./history";

const SNAPSHOT_OPEN = "<state_snapshot>";

function responseText(response: unknown): Text {
  if (isObject(response) && isText(response.output)) return response.output;
  if (isObject(response) && typeof response.error === "string") return response.error;
  return JSON.stringify(response ?? null);
}

function partText(part: Part): Text {
  if (isText(part.text)) return part.text;
  if (isObject(part.functionResponse)) return responseText(part.functionResponse.response);
  if (isObject(part.inlineData)) return `[${String(part.inlineData.mimeType ?? "inline data")}]`;
  if (isObject(part.fileData)) return `[file ${String(part.fileData.fileUri ?? "")}]`;
  return `[${Object.keys(part)[0] ?? "part"}]`;
}

function view(content: SourcedContent): LlmMessage {
  if (content.role === "model") {
    const blocks: (TextBlock | ToolCallBlock)[] = content.parts.map((part) => {
      if (isObject(part.functionCall)) {
        const call = part.functionCall;
        return { type: "toolCall", id: String(call.id ?? ""), name: String(call.name ?? ""), arguments: isObject(call.args) ? call.args : {} };
      }
      return { type: "text", text: partText(part) };
    });
    return { role: "assistant", api: "google-generative-ai", content: blocks };
  }
  const responses = content.parts.filter((part) => isObject(part.functionResponse));
  if (responses.length === content.parts.length && responses.length > 0) {
    const first = responses[0]!.functionResponse as Record<string, unknown>;
    const names = [...new Set(responses.map((part) => String((part.functionResponse as Record<string, unknown>).name ?? "")))];
    return {
      role: "toolResult",
      toolCallId: String(first.id ?? ""),
      toolName: names.join(", "),
      content: responses.map((part): TextBlock => ({ type: "text", text: partText(part) })),
      isError: false,
    };
  }
  return { role: "user", content: content.parts.map((part): TextBlock => ({ type: "text", text: partText(part) })) };
}

/** The ids of tool results already sent earlier in the same content: what a resume sends twice. */
function repeatedResults(content: SourcedContent): number {
  const seen = new Set<string>();
  let repeated = 0;
  for (const part of content.parts) {
    if (!isObject(part.functionResponse)) continue;
    const id = String(part.functionResponse.id ?? "");
    if (seen.has(id)) repeated++;
    seen.add(id);
  }
  return repeated;
}

function provenance(content: SourcedContent): Provenance {
  const entryId = content.entryIds[content.entryIds.length - 1] ?? null;
  const texts = content.parts.map((part) => (isText(part.text) ? part.text : ""));
  const repeated = repeatedResults(content);
  if (repeated > 0) {
    return {
      rule: "gemini-cli:resume-results-resent",
      entryId,
      ruleId: "FM-GM-5",
      explanation: `A resumed session sends each earlier tool result twice in this content (${repeated} repeated): the resume rebuilds a result message from the answer's toolCalls and keeps the recorded one too (convertSessionToClientHistory). Requests before the resume sent it once, so their cached prefix ends here.`,
    };
  }
  if (content.sources.some((m) => m.id.endsWith("_response"))) {
    return { rule: "gemini-cli:results-from-tool-calls", entryId, ruleId: "FM-GM-5", explanation: "Tool results rebuilt from the answer's toolCalls, as a resume does." };
  }
  if (joinedTextsStartWith(texts, SNAPSHOT_OPEN) || texts.some((text) => joinedTextsStartWith([text], SNAPSHOT_OPEN))) {
    return { rule: "wrap:compaction-summary", entryId, ruleId: "FM-GM-7", explanation: "The chat compression's <state_snapshot> (the verified summary), sent as a user message after the session context." };
  }
  if (content.sources.length > 1) {
    return { rule: "wrap:consecutive-messages", entryId, ruleId: "FM-GM-4", explanation: `${content.sources.length} consecutive ${content.role} messages of the chat file sent as one content (coalesceConsecutiveRoles).` };
  }
  return { rule: "entry", entryId };
}

const cache = new WeakMap<SourcedContent, ContextMessage>();

export function contentMessage(content: SourcedContent): ContextMessage {
  let message = cache.get(content);
  if (!message) {
    message = { message: view(content), provenance: provenance(content) };
    cache.set(content, message);
  }
  return message;
}
