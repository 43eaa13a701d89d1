// Where a Codex rollout line may keep a large text as bytes (a stored text, src/core/text/) once it
// is read, and the step that makes every other stored text of a freshly parsed line a string again.
// The places are the texts that make most of a rollout's bytes and that our code either carries
// into the request body unchanged or reads through `isText` / `textString` / `textUnits`
// (context.ts, threads.ts, policy/slots.ts). Everything else (ids, types, the event lines, the
// compacted lines, the older line shapes) stays a string, so untyped code reading it never meets a
// stored text.
//
// The places, in an envelope line `{timestamp, type: "response_item", payload}`, by the item's type:
// - `message`: `text` of each part of `payload.content`;
// - `function_call_output`, `custom_tool_call_output`: `payload.output` (when a string);
// - `function_call`: `payload.arguments`; `custom_tool_call`: `payload.input`;
// - `reasoning`: `payload.encrypted_content`.
import { isObject } from "../../util/is-object";
import { isStoredText, type StoreMark, type TextStore } from "../../text/storedText";
import { keepStoredTextsOnlyAt, type StoredTextPlace } from "../../text/keptPlaces";

/** The field of a response item that may keep a stored text, by the item's type (messages apart). */
const KEPT_FIELD: Readonly<Record<string, string>> = {
  function_call_output: "output",
  custom_tool_call_output: "output",
  function_call: "arguments",
  custom_tool_call: "input",
  reasoning: "encrypted_content",
};

/** Every place of `raw` (a parsed rollout line) that may keep a stored text and holds one. */
function keptPlaces(raw: Record<string, unknown>): StoredTextPlace[] {
  const places: StoredTextPlace[] = [];
  if (raw.type !== "response_item" || typeof raw.timestamp !== "string") return places;
  const payload = raw.payload;
  if (!isObject(payload) || typeof payload.type !== "string") return places;
  if (payload.type === "message") {
    if (Array.isArray(payload.content)) for (const part of payload.content) if (isObject(part) && isStoredText(part.text)) places.push({ holder: part, key: "text" });
  } else if (Object.hasOwn(KEPT_FIELD, payload.type)) {
    const key = KEPT_FIELD[payload.type]!;
    if (isStoredText(payload[key])) places.push({ holder: payload, key });
  }
  return places;
}

/**
 * Makes the stored texts of `raw` (a rollout line just parsed, its texts stored in `store` after
 * `mark`) strings again except at the places above, and gives back the bytes of those made strings.
 */
export function keepCodexStoredTexts(raw: Record<string, unknown>, store: TextStore, mark: StoreMark): void {
  keepStoredTextsOnlyAt(raw, keptPlaces(raw), store, mark);
}
