// Where a deepseek-harness event may keep a large text as bytes (a stored text, src/core/text/)
// once it is read, and the step that makes every other stored text of a freshly parsed line a
// string again. The places are the texts that make most of a log's bytes: the text blocks of the
// surface messages, which the derivation (messages.ts) carries into the request unchanged and reads
// only through `isText` / `textUnits` / `joinTexts`; the finished blocks the `block-end` chunk
// repeats and the arguments `tool/call` repeats, which nothing reads; and a compaction's summary,
// read through `textString` by the simulator's replay. Everything else (the tool-call arguments of
// `assistant/message`, which are parsed and sent as written, the request header, title requests,
// packed chunk rows, ids) stays a string, so untyped code reading it never meets a stored text.
//
// The places, in an event `{type, seq, time, data, …}`:
// - `user/message`: `text` of each block of `data.content`;
// - `assistant/message`: `text` of each text or reasoning block of `data.message.content`;
// - `tool/result`: `text` of each block inside each tool-result block of `data.message.content`;
// - `assistant/chunk` of type `block-end`: `data.chunk.block.text` and `data.chunk.block.arguments`;
// - `tool/call`: `data.arguments`;
// - `compaction/summary`: `text` of each block of `data.summary` and of `data.rawOutput`.
import { isObject } from "../../util/is-object";
import { isStoredText, type StoreMark, type TextStore } from "../../text/storedText";
import { keepStoredTextsOnlyAt, type StoredTextPlace } from "../../text/keptPlaces";

/** The `text` of each block of a list (text, reasoning: whatever block holds a stored text there). */
function blockTexts(blocks: unknown, places: StoredTextPlace[]): void {
  if (!Array.isArray(blocks)) return;
  for (const block of blocks) if (isObject(block) && !isStoredText(block) && isStoredText(block.text)) places.push({ holder: block, key: "text" });
}

/** Every place of `raw` (a parsed event) that may keep a stored text and holds one. */
function keptPlaces(raw: Record<string, unknown>): StoredTextPlace[] {
  const places: StoredTextPlace[] = [];
  const data = raw.data;
  if (!isObject(data) || isStoredText(data)) return places;
  switch (raw.type) {
    case "user/message":
      blockTexts(data.content, places);
      break;
    case "assistant/message":
      if (isObject(data.message) && !isStoredText(data.message)) blockTexts(data.message.content, places);
      break;
    case "tool/result": {
      const content = isObject(data.message) && !isStoredText(data.message) ? data.message.content : null;
      if (Array.isArray(content)) for (const block of content) if (isObject(block) && !isStoredText(block) && block.type === "tool-result") blockTexts(block.content, places);
      break;
    }
    case "assistant/chunk": {
      const chunk = data.chunk;
      if (isObject(chunk) && !isStoredText(chunk) && chunk.type === "block-end" && isObject(chunk.block) && !isStoredText(chunk.block)) {
        blockTexts([chunk.block], places);
        if (isStoredText(chunk.block.arguments)) places.push({ holder: chunk.block, key: "arguments" });
      }
      break;
    }
    case "tool/call":
      if (isStoredText(data.arguments)) places.push({ holder: data, key: "arguments" });
      break;
    case "compaction/summary":
      blockTexts(data.summary, places);
      blockTexts(data.rawOutput, places);
      break;
  }
  return places;
}

/**
 * Makes the stored texts of `raw` (an event just parsed, its texts stored in `store` after `mark`)
 * strings again except at the places above, and gives back the bytes of those made strings.
 */
export function keepHarnessStoredTexts(raw: Record<string, unknown>, store: TextStore, mark: StoreMark): void {
  keepStoredTextsOnlyAt(raw, keptPlaces(raw), store, mark);
}
