// Helpers every provider serializer uses: text sanitising as pi-ai does it, the system prompt and
// tool definitions from the request header (or a not-recorded marker), the output cap, the
// thinking-level mapping, and appending the header's extra settings after the derived keys.
import { isNotRecorded, notRecorded } from "../model";
import type { ApiId, ModelInfo, NotRecorded, RequestHeader, TextBlock, ToolDefinition } from "../model";
import type { SerializeInput } from "./registry";
import { isObject } from "../util/is-object";
import { decodeStoredText } from "../text/storedText";
import { textString, type Text } from "../text/text";
import { isBlankText, joinTexts } from "../text/textTests";

/** Labels used in `SerializeOutput.notRecorded`. */
const NOT_RECORDED_SYSTEM = "system";
const NOT_RECORDED_TOOLS = "tools";

/** pi-ai's default output cap when no maxTokens option is passed (`buildBaseOptions`). */
export const DEFAULT_MAX_TOKENS_CAP = 32000;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const ANY_SURROGATE = /[\uD800-\uDFFF]/;

/** True when the text has no unpaired surrogate (native `isWellFormed` where the runtime has it). */
function isWellFormedText(text: string): boolean {
  const native = (text as { isWellFormed?: () => boolean }).isWellFormed;
  return typeof native === "function" ? native.call(text) : !ANY_SURROGATE.test(text);
}

/**
 * pi-ai removes unpaired UTF-16 surrogates from every text it sends. Almost no text has one, so
 * the (slow, lookaround) replacement runs only on texts that are not well-formed. A stored text
 * says whether it is (measured when it was stored): a well-formed one goes on as the same
 * reference, only one that is not is decoded and cleaned.
 */
export function sanitizeText(text: Text): Text {
  if (typeof text !== "string") return text.wellFormed ? text : sanitizeString(decodeStoredText(text));
  return sanitizeString(text);
}

function sanitizeString(text: string): string {
  if (isWellFormedText(text)) return text;
  return text.replace(LONE_SURROGATE, "");
}

/**
 * An image as a `data:` URL. The URL is one string made of the image's bytes, so a stored image
 * is decoded here: an image is sent whole or not at all, and no cheaper form of it exists.
 */
export function imageDataUrl(mimeType: string, data: Text): string {
  return `data:${mimeType};base64,${textString(data)}`;
}

/** Text of the text blocks of a content list, joined with `separator` (one block: its text itself). */
export function joinText(content: readonly { type: string }[], separator: string): Text {
  return joinTexts(
    content.filter((block): block is TextBlock => block.type === "text").map((block) => block.text),
    separator,
  );
}

export function isBlank(text: Text | undefined | null): boolean {
  return isBlankText(text);
}

/** The last system prompt sanitised: every turn of a session sends the same one. */
let lastSystemPrompt: { text: string; sanitized: string } | null = null;

function sanitizedSystemPrompt(text: string): string {
  if (lastSystemPrompt?.text !== text) lastSystemPrompt = { text, sanitized: sanitizeString(text) };
  return lastSystemPrompt.sanitized;
}

/**
 * The system prompt to send: the header's text, a marker when there is no header or the header
 * has no system prompt, or null when the header says the system prompt is empty (pi then sends
 * no system part at all).
 */
export function resolveSystemPrompt(
  header: RequestHeader | null,
  notRecordedLabels: string[],
): string | NotRecorded | null {
  if (header && header.systemPrompt !== undefined) {
    return header.systemPrompt.length > 0 ? sanitizedSystemPrompt(header.systemPrompt) : null;
  }
  notRecordedLabels.push(NOT_RECORDED_SYSTEM);
  return notRecorded("system prompt");
}

/**
 * True when two system prompt values (resolveSystemPrompt) send the same thing: the same text, or
 * both the not-recorded marker, which is made anew on each call. A carried system message is kept
 * while it holds, so the wire list after it is carried too.
 */
export function sameSystemPrompt(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  return isNotRecorded(a) && isNotRecorded(b) && a.$notRecorded === b.$notRecorded;
}

/** The tool definitions to send, a marker when not recorded, or null when tools are omitted. */
export function resolveTools(
  input: SerializeInput,
  notRecordedLabels: string[],
): ToolDefinition[] | NotRecorded | null {
  if (input.omitTools) return null;
  if (input.header && input.header.tools !== undefined) return input.header.tools;
  notRecordedLabels.push(NOT_RECORDED_TOOLS);
  return notRecorded("tool definitions");
}

/**
 * Output cap: the header's when it has one (that is what the agent sent), else pi-ai's default
 * `min(model.maxTokens, 32000)`. [INF: PROV-MAXTOKENS for the cap]
 */
export function resolveMaxTokens(input: SerializeInput): number {
  if (input.header?.maxTokens !== undefined) return input.header.maxTokens;
  const cap = input.options?.maxTokensCap ?? DEFAULT_MAX_TOKENS_CAP;
  return Math.min(input.model.maxTokens, cap);
}

export type ReasoningLevel = "minimal" | "low" | "medium" | "high" | "xhigh";
const LEVELS: readonly string[] = ["minimal", "low", "medium", "high", "xhigh"];

/** pi's thinking level as a reasoning level, or null when thinking is off (or unknown). */
export function thinkingToReasoning(thinkingLevel: string): ReasoningLevel | null {
  return LEVELS.includes(thinkingLevel) ? (thinkingLevel as ReasoningLevel) : null;
}

/** pi-ai `supportsXhigh`: only some model ids accept "xhigh"; others get "high". */
function supportsXhigh(model: ModelInfo): boolean {
  return /gpt-5\.[234]|opus-4[-.]6/.test(model.id);
}

export function clampReasoning(level: ReasoningLevel, model: ModelInfo): ReasoningLevel {
  return level === "xhigh" && !supportsXhigh(model) ? "high" : level;
}

/** `cache_control` value for pi's cache retention setting, or null for "none". */
export function cacheControlFor(input: SerializeInput): Record<string, unknown> | null {
  const retention = input.options?.cacheRetention ?? "short";
  if (retention === "none") return null;
  return retention === "long" ? { type: "ephemeral", ttl: "1h" } : { type: "ephemeral" };
}

/**
 * Copies the header's extra settings into the body after the derived keys, in capture order.
 * A key the serializer already set keeps the derived value. Settings are provider-specific, so
 * they are copied only when the header was captured in the same shape. [INF: PROV-EXTRA-SETTINGS]
 */
export function appendExtraSettings(body: Record<string, unknown>, header: RequestHeader | null, api: ApiId): void {
  if (!header || header.api !== api) return;
  for (const [key, value] of Object.entries(header.extraSettings)) {
    if (key === "__proto__" || Object.prototype.hasOwnProperty.call(body, key)) continue;
    body[key] = value;
  }
}

/** Keys of `body` not in `derived`, verbatim and in order: the header's extra settings. */
export function collectExtraSettings(
  body: Record<string, unknown>,
  derived: ReadonlySet<string>,
): Record<string, unknown> {
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (derived.has(key) || key === "__proto__") continue;
    extra[key] = value;
  }
  return extra;
}

/** Text of a system/developer message content: a string, or an array of text parts. */
export function textOfContent(content: unknown): string | undefined {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    const texts = content
      .filter(isObject)
      .map((part) => part.text)
      .filter((text): text is string => typeof text === "string");
    return texts.join("\n\n");
  }
  return undefined;
}

/** A tool definition in neutral form, or null when the entry is not a function tool. */
export function neutralTool(name: unknown, description: unknown, parameters: unknown): ToolDefinition | null {
  if (typeof name !== "string") return null;
  return {
    name,
    description: typeof description === "string" ? description : "",
    parameters: parameters ?? { type: "object", properties: {} },
  };
}

export function numberOrUndefined(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}
