// Presents OpenAI Responses input items of a Codex request as context messages (pi-ai shapes
// with provenance) for the Messages tab and token estimates; the body is built from the items
// themselves. Base instructions, the developer/environment items Codex injects (FM-CX-11) and
// the compaction summary (FM-CX-17) are labelled.
import type { ContextMessage, LlmMessage, Provenance, TextBlock, ToolCallBlock } from "../../model";
import { isPromptFromEvent, type RolloutItem } from "./rollout-index";
import { isObject } from "../../util/is-object";
import { isText, textString, textUnits, type Text } from "../../text/text";
import { isStoredText } from "../../text/storedText";
import { textStartsWith } from "../../text/textTests";
import { callArguments } from "./callArguments";

/** The texts of a message's content parts; a large one may be a stored text (storedTextPlaces.ts). */
function partTexts(content: unknown): Text[] {
  if (typeof content === "string") return [content];
  if (!Array.isArray(content)) return [];
  return content.map((part) => (isObject(part) && isText(part.text) ? part.text : `[${isObject(part) ? String(part.type) : "part"}]`));
}

/**
 * The view of an item, made anew at each call: its callers keep the context messages they need
 * (turns.ts keeps the current window's), so a view, and the call arguments it parsed, goes with
 * them instead of living as long as the item.
 */
function itemView(item: RolloutItem): LlmMessage {
  let view: LlmMessage;
  const type = item.type;
  if (type === "message" && item.role === "assistant") {
    view = { role: "assistant", api: "openai-responses", content: partTexts(item.content).map((text): TextBlock => ({ type: "text", text })) };
  } else if (type === "message") {
    view = { role: "user", content: partTexts(item.content).map((text): TextBlock => ({ type: "text", text })) };
  } else if (type === "function_call" || type === "custom_tool_call") {
    const stored = item.arguments ?? item.input;
    const args: Record<string, unknown> = isText(stored) ? callArguments(stored) : {};
    const call: ToolCallBlock = { type: "toolCall", id: String(item.call_id ?? ""), name: String(item.name ?? ""), arguments: args };
    view = { role: "assistant", api: "openai-responses", content: [call] };
  } else if (type === "function_call_output" || type === "custom_tool_call_output") {
    // A large output may be a stored text (storedTextPlaces.ts): it stays one in the view.
    const output = item.output;
    const text = isText(output) ? output : JSON.stringify(output ?? "");
    view = { role: "toolResult", toolCallId: String(item.call_id ?? ""), toolName: "", content: [{ type: "text", text }], isError: false };
  } else if (type === "reasoning") {
    const summary = Array.isArray(item.summary) ? partTexts(item.summary).map(textString).join("\n") : "";
    view = { role: "assistant", api: "openai-responses", content: [{ type: "thinking", thinking: summary }] };
  } else {
    view = { role: "user", content: [{ type: "text", text: `[${String(type)}]` }] };
  }
  return view;
}

const SUMMARY_PREFIX = "Another language model started to solve this problem";

function itemProvenance(item: RolloutItem, entryId: string | null, options: { base?: boolean; approximate?: boolean }): Provenance {
  if (options.base) {
    return {
      rule: "codex:base-instructions",
      sentAsSystem: true,
      entryId,
      ruleId: "FM-CX-10",
      ...(options.approximate ? { inferred: "FM-CX-10" } : {}),
      explanation:
        "Base instructions from session_meta, with the plan-tool sections removed as Codex does when that tool is off; the item id is not recorded.",
    };
  }
  const text = partTexts(item.content)[0] ?? "";
  if (item.type === "message" && item.role === "user" && textStartsWith(text, SUMMARY_PREFIX)) {
    return { rule: "summary:compaction", entryId, ruleId: "FM-CX-17", explanation: "Compaction summary from replacement_history." };
  }
  if (item.type === "message" && item.role === "developer") {
    return { rule: "codex:developer-instructions", sentAsSystem: true, entryId, ruleId: "FM-CX-11", explanation: "Developer message Codex injects (skills, permissions)." };
  }
  if (item.type === "message" && item.role === "user" && textStartsWith(text, "<environment_context>")) {
    return { rule: "codex:environment-context", entryId, ruleId: "FM-CX-11", explanation: "Environment context Codex injects." };
  }
  if (isPromptFromEvent(item)) {
    return {
      rule: "codex:prompt-from-event",
      entryId,
      ruleId: "FM-CX-11",
      inferred: "FM-CX-11",
      explanation: "The rollout has the user_message event of this prompt but not its message item: rebuilt from the event's text and images.",
    };
  }
  return { rule: "entry", entryId };
}

export function itemContext(item: RolloutItem, entryId: string | null, options: { base?: boolean; approximate?: boolean } = {}): ContextMessage {
  return { message: itemView(item), provenance: itemProvenance(item, entryId, options) };
}

/**
 * A `JSON.stringify` replacer that renders a stored part text (a reasoning item's summary text,
 * storedTextPlaces.ts) as its characters, as it rendered when such texts were strings. Other stored
 * values of the item render as before.
 */
function renderingPartTexts(key: string, value: unknown): unknown {
  return key === "text" && isStoredText(value) ? textString(value) : value;
}

const charCache = new WeakMap<object, number>();
export function itemChars(item: RolloutItem): number {
  let chars = charCache.get(item);
  if (chars === undefined) {
    if (item.type === "message") chars = partTexts(item.content).reduce((sum, text) => sum + textUnits(text), 0);
    else if (isText(item.arguments)) chars = textUnits(item.arguments) + String(item.name ?? "").length;
    else if (isText(item.output)) chars = textUnits(item.output);
    else chars = JSON.stringify(item, renderingPartTexts).length;
    charCache.set(item, chars);
  }
  return chars;
}
