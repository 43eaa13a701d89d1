// Where a Qwen Code record may keep a large text as bytes (a stored text, src/core/text/) once it
// is read, and the step that makes every other stored text of a freshly parsed line a string again.
// The places are the tool outputs and the model's answers, most of a chat's bytes: each is carried
// into a message of the request unchanged, and read only through `isText` / `textUnits` /
// `joinTexts` (request.ts, outputClamp.ts), and the display copy of a tool output Qwen Code keeps
// beside it, which nothing reads. Everything else (prompts, tool-call arguments, compression
// summaries, system records) stays a string, so untyped code reading it never meets a stored text.
//
// The places:
// - in a `tool_result` record: `output` of `message.parts[i].functionResponse.response` (when a
//   string), and `toolCallResult.resultDisplay` (when a string);
// - in an `assistant` record: `text` of `message.parts[i]` (answers and thoughts).
import { isObject } from "../../util/is-object";
import { isStoredText, type StoreMark, type TextStore } from "../../text/storedText";
import { keepStoredTextsOnlyAt, type StoredTextPlace } from "../../text/keptPlaces";
import { storedTextKeys } from "../../text/largeLiterals";

/**
 * The names of the places' properties: a large value under any other name (a tool call's
 * `command`, most often) is parsed as a string with its line, instead of being stored and made a
 * string again; one under these names elsewhere (a prompt's or a compression's text) still is.
 */
export const QWEN_STORED_TEXT_KEYS = storedTextKeys(["text", "output", "resultDisplay"]);

/** Every place of `raw` (a parsed record) that may keep a stored text and holds one. */
function keptPlaces(raw: Record<string, unknown>): StoredTextPlace[] {
  const places: StoredTextPlace[] = [];
  const message = raw.message;
  if (raw.type === "assistant") {
    if (isObject(message) && Array.isArray(message.parts)) for (const part of message.parts) if (isObject(part) && isStoredText(part.text)) places.push({ holder: part, key: "text" });
    return places;
  }
  if (raw.type !== "tool_result") return places;
  if (isObject(message) && Array.isArray(message.parts)) {
    for (const part of message.parts) {
      const response = isObject(part) && isObject(part.functionResponse) ? part.functionResponse.response : null;
      if (isObject(response) && isStoredText(response.output)) places.push({ holder: response, key: "output" });
    }
  }
  const result = raw.toolCallResult;
  if (isObject(result) && isStoredText(result.resultDisplay)) places.push({ holder: result, key: "resultDisplay" });
  return places;
}

/**
 * Makes the stored texts of `raw` (a record just parsed, its texts stored in `store` after `mark`)
 * strings again except at the places above, and gives back the bytes of those made strings.
 */
export function keepQwenStoredTexts(raw: Record<string, unknown>, store: TextStore, mark: StoreMark): void {
  const places = keptPlaces(raw);
  if (onlyAtPlaces(store, mark, places.length)) return;
  keepStoredTextsOnlyAt(raw, places, store, mark);
}

/**
 * Whether every text the line stored is at one of its `found` places, known without walking the
 * record: the line stored none in the store's chunks, and as many in the file (each one counted
 * there) as the places hold. Then there is nothing to make a string again (the CLI leaves the
 * texts in the file, and most lines keep theirs only at the places).
 */
function onlyAtPlaces(store: TextStore, mark: StoreMark, found: number): boolean {
  return store.sourced !== undefined && store.chunks.length === mark.chunks && store.used === mark.used && store.sourced - mark.sourced === found;
}
