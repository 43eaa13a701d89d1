// Presents Anthropic wire messages of a Claude Code request as context messages (pi-ai shapes
// with provenance) for the Messages tab, diffs and token estimates. The request body itself is
// never rebuilt from these: they are a readable view. Mid-conversation `system` messages
// (FM-CC-20) and injected reminders (FM-CC-11) are labelled as inserted. A text kept as bytes stays
// the same reference in the view (a view that shows it decodes it); only a tool result's list of
// blocks, joined into one text, is decoded here.
import type {
  AssistantMessage,
  ContextMessage,
  LlmMessage,
  Provenance,
  TextBlock,
  ThinkingBlock,
  ToolCallBlock,
} from "../../model";
import { contentBlocks } from "./records";
import { isObject } from "../../util/is-object";
import { isStoredText, storedTextBytes } from "../../text/storedText";
import { isText, textString, textUnits, type Text } from "../../text/text";
import { textStartsWith } from "../../text/textTests";
import { CarriedMap } from "../../util/carried-map";

/** A block's text: a text, a stored one as it is (a tool result's list is joined, so decoded). */
function blockText(block: unknown): Text {
  if (isText(block)) return block;
  if (!isObject(block)) return String(block);
  if (isText(block.text)) return block.text;
  if (block.type === "tool_result") {
    const inner = block.content;
    return isText(inner)
      ? inner
      : contentBlocks(inner)
          .map((item) => textString(blockText(item)))
          .join("\n");
  }
  if (block.type === "image") return imageLabel(block);
  return `[${String(block.type)}]`;
}

/** `blockText(block)`'s length in UTF-16 units, without decoding a stored text. */
function blockUnits(block: unknown): number {
  if (isObject(block) && !isStoredText(block) && !isText(block.text) && block.type === "tool_result" && !isText(block.content)) {
    const items = contentBlocks(block.content);
    let units = Math.max(0, items.length - 1); // the line breaks joining them
    for (const item of items) units += blockUnits(item);
    return units;
  }
  return textUnits(blockText(block));
}

/** How many `=` end a base64 text (0 to 2); a stored text's last bytes are its last characters (no escape ends in `=`). */
function base64Padding(data: Text): number {
  const EQUALS = 0x3d;
  if (typeof data === "string") return data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  const bytes = storedTextBytes(data);
  const last = bytes.length - 1;
  return bytes[last] !== EQUALS ? 0 : bytes[last - 1] === EQUALS ? 2 : 1;
}

/**
 * An image block (pasted by the user, or returned inside a tool result) as one short label with
 * its type and decoded size: the base64 data is in the request body, never in the message views.
 */
function imageLabel(block: Record<string, unknown>): string {
  const source = isObject(block.source) ? block.source : {};
  const mediaType = typeof source.media_type === "string" ? source.media_type : "image";
  if (!isText(source.data)) return `[image ${mediaType}${typeof source.url === "string" ? ` from ${source.url}` : ""}]`;
  const padding = base64Padding(source.data);
  const bytes = Math.max(0, Math.floor((textUnits(source.data) * 3) / 4) - padding);
  const size = bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : bytes >= 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${bytes} B`;
  return `[image ${mediaType}, ${size}]`;
}

const viewCache = new WeakMap<object, LlmMessage>();

/** The pi-ai shaped view of one wire message (cached per distinct message object). */
function wireMessageView(message: Record<string, unknown>): LlmMessage {
  const cached = viewCache.get(message);
  if (cached) return cached;
  let view: LlmMessage;
  if (message.role === "assistant") {
    const content: (TextBlock | ThinkingBlock | ToolCallBlock)[] = [];
    for (const block of contentBlocks(message.content)) {
      if (isObject(block) && block.type === "tool_use") {
        content.push({
          type: "toolCall",
          id: String(block.id ?? ""),
          name: String(block.name ?? ""),
          arguments: isObject(block.input) ? block.input : {},
        });
      } else if (isObject(block) && block.type === "thinking") {
        content.push({ type: "thinking", thinking: isText(block.thinking) ? block.thinking : "" });
      } else content.push({ type: "text", text: blockText(block) });
    }
    const assistant: AssistantMessage = { role: "assistant", content, api: "anthropic-messages" };
    view = assistant;
  } else {
    const content = message.content;
    view = isText(content) ? { role: "user", content } : { role: "user", content: contentBlocks(content).map((block) => ({ type: "text", text: blockText(block) })) };
  }
  viewCache.set(message, view);
  return view;
}

/** The first block's text (its start is tested: text/textTests.ts). */
function firstText(message: Record<string, unknown>): Text {
  const first = contentBlocks(message.content)[0];
  return first === undefined ? "" : blockText(first);
}

/** Provenance of a wire message from its origin and its content. */
function wireProvenance(
  message: Record<string, unknown>,
  origin: { source: "blob" | "entry" | "missing" | "approximate"; entryIds: string[] },
): Provenance {
  const entryId = origin.entryIds[0] ?? null;
  if (origin.source === "missing") {
    return { rule: "not-recorded", entryId: null, ruleId: "FM-CC-19", explanation: "No blob or transcript message has this hash." };
  }
  if (message.role === "system") {
    return {
      rule: "reminder:system-role",
      entryId,
      ruleId: "FM-CC-20",
      explanation: "Sent with role `system` in the middle of the conversation (injected context).",
    };
  }
  const text = firstText(message);
  if (textStartsWith(text, "This session is being continued from a previous conversation")) {
    return { rule: "summary:compaction", entryId, ruleId: "FM-CC-13", explanation: "Continuation message written after a compaction." };
  }
  if (origin.source === "blob") {
    return {
      rule: "claude:assembled",
      entryId,
      ruleId: "FM-CC-18",
      explanation: "Assembled by Claude Code at send time (recorded as an api-request-blob): injected reminders merged with the prompt.",
    };
  }
  if (textStartsWith(text, "<system-reminder>")) {
    return { rule: "reminder:user-text", entryId, ruleId: "FM-CC-11", explanation: "Injected `<system-reminder>` text." };
  }
  return { rule: "entry", entryId };
}

type WireItem = { message: Record<string, unknown>; source: "blob" | "entry" | "missing" | "approximate"; entryIds: string[] };

/** The context message of each wire item: an item repeated in later turns' requests is presented once. */
const contextCache = new WeakMap<WireItem, ContextMessage>();

export function contextMessageOf(item: WireItem): ContextMessage {
  let context = contextCache.get(item);
  if (context === undefined) {
    context = { message: wireMessageView(item.message), provenance: wireProvenance(item.message, item) };
    contextCache.set(item, context);
  }
  return context;
}

/** Carried from turn to turn: the leading items of the previous turn's list cost one comparison each. */
const contextMessages = new CarriedMap(contextMessageOf);

export function toContextMessages(items: readonly WireItem[]): ContextMessage[] {
  return contextMessages.map(items);
}

/** Characters of a wire message's text, cached per distinct message (for the chars/4 estimate). */
const charCache = new WeakMap<object, number>();
export function wireMessageChars(message: Record<string, unknown>): number {
  let chars = charCache.get(message);
  if (chars === undefined) {
    chars = 0;
    for (const block of contentBlocks(message.content)) {
      if (isObject(block) && block.type === "tool_use") chars += JSON.stringify(block.input ?? {}).length + String(block.name ?? "").length;
      else chars += blockUnits(block);
    }
    charCache.set(message, chars);
  }
  return chars;
}
