// Claude Code's summariser request (FM-CC-16): the last main request before the compaction (same
// system, tools, parameters and messages), plus that request's assistant answer, plus one final
// user message whose content is a plain string — the compaction prompt. The message-level cache
// breakpoint moves to the last block of the answer, so the conversation is read from cache.
// Works on the rebuilt main request body of turn N (exact with api-request records, FM-CC-19).
import type { SessionEntry } from "../../../model";
import { contentBlocks, mergedAssistantMessage } from "../records";
import { isObject } from "../../../util/is-object";
import { isText, textString } from "../../../text/text";
import { normaliseSingleTextContent, stripCacheControl } from "../wire";
import { billingSuffix } from "../billing";

/** The assistant answer of an API message as Claude Code sends it back: its entries' blocks merged. */
export function answerMessage(group: readonly SessionEntry[]): Record<string, unknown> {
  return mergedAssistantMessage(group);
}

/** Text of a wire message (string content or text blocks), for finding inputs. */
export function wireText(message: unknown): string {
  if (!isObject(message)) return "";
  if (isText(message.content)) return textString(message.content);
  return contentBlocks(message.content)
    .map((block) => (isObject(block) && isText(block.text) ? textString(block.text) : isObject(block) && isText(block.content) ? textString(block.content) : ""))
    .join("");
}

export interface ClaudeSummariserParts {
  /** Turn N's main request body, as the pipeline rebuilt it. */
  mainBody: Record<string, unknown>;
  answer: Record<string, unknown>;
  prompt: string;
  /** Captured values of the request fields the transcript does not record (FM-CC-19). */
  billingHeader: string | null;
  metadataUserId: string | null;
}

/**
 * A captured billing header with its build suffix derived for these messages: the suffix depends
 * on the request's first user text (../billing.ts), so a header learnt from another compaction's
 * capture carries that request's suffix, not this one's. A header of another shape is kept.
 */
function withDerivedSuffix(header: string, messages: readonly unknown[]): string {
  const match = /cc_version=([^;]*)\.([0-9a-f]{3});/.exec(header);
  if (!match) return header;
  const suffix = billingSuffix(messages, match[1]!);
  return suffix === null ? header : header.replace(match[0], `cc_version=${match[1]}.${suffix};`);
}

/**
 * The summariser body: turn N's body with its message-level cache markers removed (a single text
 * block left without a marker goes out as a string again, FM-CC-19 step 4), the answer with the
 * marker on its last block, and the prompt as a string user message. Key order unchanged.
 */
export function buildClaudeSummariserBody(parts: ClaudeSummariserParts): Record<string, unknown> {
  const mainMessages = Array.isArray(parts.mainBody.messages) ? (parts.mainBody.messages as Record<string, unknown>[]) : [];
  const messages = mainMessages.map((message) => normaliseSingleTextContent(stripCacheControl(message)));
  const answerBlocks = contentBlocks(parts.answer.content).map((block) => stripCacheControl(block));
  const lastIndex = answerBlocks.length - 1;
  if (lastIndex >= 0 && isObject(answerBlocks[lastIndex])) answerBlocks[lastIndex] = { ...(answerBlocks[lastIndex] as Record<string, unknown>), cache_control: { type: "ephemeral" } };
  messages.push({ role: "assistant", content: answerBlocks });
  messages.push({ role: "user", content: parts.prompt });
  const body: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(parts.mainBody)) {
    if (key === "messages") body.messages = messages;
    else if (key === "system" && parts.billingHeader !== null && Array.isArray(value) && value.length > 0) {
      body.system = [{ ...(value[0] as Record<string, unknown>), text: withDerivedSuffix(parts.billingHeader, messages) }, ...value.slice(1)];
    } else if (key === "metadata" && parts.metadataUserId !== null && isObject(value)) body.metadata = { ...value, user_id: parts.metadataUserId };
    else body[key] = value;
  }
  return body;
}
