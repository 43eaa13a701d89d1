// Where a Gemini CLI chat record may keep a large text as bytes (a stored text, src/core/text/)
// once it is read, and the step that makes every other stored text of a freshly parsed line a
// string again. The places are the texts that make most of a chat's bytes and that the turn walk
// carries into the request's contents unchanged, reading them only through `isText` /
// `textString` / the text tests (contents.ts, context.ts, history.ts): the message's content,
// its parts' texts and function results, and the results recorded on its tool calls. Everything
// else (ids, tool-call arguments, display copies, metadata) stays a string, so untyped
// code reading it never meets a stored text.
//
// The places, in a message record `{id, type, content, toolCalls?, …}`, on its own line or in a
// `$set.messages` list:
// - `content` itself (when a string);
// - in each part of `content` (a list, or one part): `text`, and `functionResponse.response.output`;
// - in each of `toolCalls`: `result` (when a string), or the same places in each part of a list `result`;
// - in each of `thoughts`: `description` (the walk never reads thoughts: they are not sent again).
import { isObject } from "../../util/is-object";
import { isStoredText, type StoreMark, type TextStore } from "../../text/storedText";
import { keepStoredTextsOnlyAt, type StoredTextPlace } from "../../text/keptPlaces";

/** The places of one Gemini part (`{text}`, `{functionResponse: {response: {output}}}`). */
function partPlaces(part: unknown, places: StoredTextPlace[]): void {
  if (!isObject(part) || isStoredText(part)) return;
  if (isStoredText(part.text)) places.push({ holder: part, key: "text" });
  const response = isObject(part.functionResponse) ? part.functionResponse.response : null;
  if (isObject(response) && !isStoredText(response) && isStoredText(response.output)) places.push({ holder: response, key: "output" });
}

/** The places of parts given as a list or as one part. */
function partsPlaces(parts: unknown, places: StoredTextPlace[]): void {
  if (Array.isArray(parts)) for (const part of parts) partPlaces(part, places);
  else partPlaces(parts, places);
}

/** The places of one message record. */
function messagePlaces(record: unknown, places: StoredTextPlace[]): void {
  if (!isObject(record) || isStoredText(record) || typeof record.id !== "string" || typeof record.type !== "string") return;
  if (isStoredText(record.content)) places.push({ holder: record, key: "content" });
  else partsPlaces(record.content, places);
  // The model's thoughts, never sent again, and read by nothing of the walk.
  if (Array.isArray(record.thoughts)) for (const thought of record.thoughts) if (isObject(thought) && !isStoredText(thought) && isStoredText(thought.description)) places.push({ holder: thought, key: "description" });
  if (!Array.isArray(record.toolCalls)) return;
  for (const call of record.toolCalls) {
    if (!isObject(call) || isStoredText(call)) continue;
    if (isStoredText(call.result)) places.push({ holder: call, key: "result" });
    else if (Array.isArray(call.result)) partsPlaces(call.result, places);
  }
}

/** Every place of `raw` (a parsed chat line) that may keep a stored text and holds one. */
function keptPlaces(raw: Record<string, unknown>): StoredTextPlace[] {
  const places: StoredTextPlace[] = [];
  // In the order the reader tells a line's kind (reader.ts `lineKind`).
  if (typeof raw.$rewindTo === "string") return places;
  const set = raw.$set;
  if (isObject(set) && !isStoredText(set)) {
    // A `$set` line is read as one (history.ts): its messages, not a message of its own.
    if (Array.isArray(set.messages)) for (const message of set.messages) messagePlaces(message, places);
    return places;
  }
  messagePlaces(raw, places);
  return places;
}

/**
 * Makes the stored texts of `raw` (a chat line just parsed, its texts stored in `store` after
 * `mark`) strings again except at the places above, and gives back the bytes of those made strings.
 */
export function keepGeminiStoredTexts(raw: Record<string, unknown>, store: TextStore, mark: StoreMark): void {
  keepStoredTextsOnlyAt(raw, keptPlaces(raw), store, mark);
}
