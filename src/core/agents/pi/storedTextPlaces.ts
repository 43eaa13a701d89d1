// Where a pi or senpi entry may keep a large text as bytes (a stored text, src/core/text/), and
// the step that makes every other stored text of a freshly parsed line a string again. The line
// parser stores every large string value; the model types say "string or stored text" only at
// these places (message texts, thinking, image data, bash output, summaries), so untyped code
// that reads any other field (tool-call arguments, details, ids, signatures) never meets one.
//
// The places, in an entry's `raw`:
// - `message` entries: `message.content` when a string (roles user, custom); `message.content[i]`
//   `.text` (type text), `.thinking` (type thinking), `.data` (type image) for the roles user,
//   assistant, toolResult and custom; `message.output` (role bashExecution); `message.summary`
//   (roles branchSummary, compactionSummary).
// - `compaction` and `branch_summary` entries: `summary`.
// - `custom_message` entries: `content` when a string; `content[i].text` (type text), `.data` (type image).
import { isObject } from "../../util/is-object";
import { decodeStoredText, isStoredText, rewindStore, type StoreMark, type TextStore } from "../../text/storedText";
import { copyIntoStore, storeKeptTextsAgain, type StoredTextPlace } from "../../text/keptPlaces";

type Place = StoredTextPlace;

const BLOCK_FIELDS_OF_MESSAGES: Readonly<Record<string, string>> = { text: "text", thinking: "thinking", image: "data" };
const BLOCK_FIELDS_OF_CUSTOM_MESSAGES: Readonly<Record<string, string>> = { text: "text", image: "data" };
const ROLES_WITH_TEXT_CONTENT: readonly string[] = ["user", "custom"];
const ROLES_WITH_BLOCKS: readonly string[] = ["user", "assistant", "toolResult", "custom"];
const ROLES_WITH_SUMMARY: readonly string[] = ["branchSummary", "compactionSummary"];

function addIfStored(places: Place[], holder: Record<string, unknown> | unknown[], key: string | number): void {
  if (isStoredText((holder as Record<string | number, unknown>)[key])) places.push({ holder, key });
}

/** A summary's place, in the places (in the line's order) and among the summaries. */
function addSummaryIfStored(places: Place[], summaries: Place[], holder: Record<string, unknown>): void {
  if (!isStoredText(holder.summary)) return;
  const place = { holder, key: "summary" };
  places.push(place);
  summaries.push(place);
}

/** The stored texts of `content` (a string, or an array of blocks) at its blocks' text fields. */
function contentPlaces(places: Place[], holder: Record<string, unknown>, textContent: boolean, blockFields: Readonly<Record<string, string>> | null): void {
  const content = holder.content;
  if (textContent) addIfStored(places, holder, "content");
  if (!blockFields || !Array.isArray(content)) return;
  for (const block of content) {
    if (!isObject(block) || typeof block.type !== "string" || !Object.hasOwn(blockFields, block.type)) continue;
    addIfStored(places, block, blockFields[block.type]!);
  }
}

/**
 * Every place of `raw` (a pi entry of a file of format `version`) that may keep a stored text and
 * holds one; the summaries among them (which every analysis decodes) also go to `summaries`.
 */
function keptPlaces(raw: Record<string, unknown>, version: number, summaries: Place[]): Place[] {
  const places: Place[] = [];
  switch (raw.type) {
    case "message": {
      const message = raw.message;
      if (!isObject(message) || typeof message.role !== "string") break;
      // Before version 3 the custom role was called hookMessage (the reader renames it).
      const role = version < 3 && message.role === "hookMessage" ? "custom" : message.role;
      contentPlaces(places, message, ROLES_WITH_TEXT_CONTENT.includes(role), ROLES_WITH_BLOCKS.includes(role) ? BLOCK_FIELDS_OF_MESSAGES : null);
      if (role === "bashExecution") addIfStored(places, message, "output");
      if (ROLES_WITH_SUMMARY.includes(role)) addSummaryIfStored(places, summaries, message);
      break;
    }
    case "compaction":
    case "branch_summary":
      addSummaryIfStored(places, summaries, raw);
      break;
    case "custom_message":
      contentPlaces(places, raw, true, BLOCK_FIELDS_OF_CUSTOM_MESSAGES);
      break;
  }
  return places;
}

/** Replaces every stored text of `value` not in `kept` by its string; true when one was. */
function decodeOthers(value: unknown, kept: ReadonlySet<unknown>): boolean {
  if (typeof value !== "object" || value === null) return false;
  let decoded = false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (isStoredText(item)) {
        if (!kept.has(item)) {
          value[i] = decodeStoredText(item);
          decoded = true;
        }
      } else if (decodeOthers(item, kept)) decoded = true;
    }
    return decoded;
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const item = record[key];
    if (isStoredText(item)) {
      if (!kept.has(item)) {
        record[key] = decodeStoredText(item);
        decoded = true;
      }
    } else if (decodeOthers(item, kept)) decoded = true;
  }
  return decoded;
}

/**
 * Makes the stored texts of `raw` (a pi entry parsed from one line of a file of format `version`,
 * whose texts were stored in `store` after `mark`) strings again except at the places above. The bytes of the texts made
 * strings are given back: the kept ones are stored again from `mark` on, and their references
 * replaced. Changes `raw` in place (it was just parsed: nothing else holds it).
 */
export function keepStoredTextsAtPlaces(raw: Record<string, unknown>, version: number, store: TextStore, mark: StoreMark): void {
  const summaries: Place[] = [];
  const places = keptPlaces(raw, version, summaries);
  const kept = new Set<unknown>(places.map((place) => (place.holder as Record<string | number, unknown>)[place.key]));
  const decoded = decodeOthers(raw, kept);
  if (places.length === 0) {
    rewindStore(store, mark);
    return;
  }
  if (decoded) storeKeptTextsAgain(store, mark, places);
  // A summary left in the session file would be read back from it by every analysis.
  copyIntoStore(store, summaries);
}
