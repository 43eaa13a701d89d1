// Where a Codex rollout line may keep a large text as bytes (a stored text, src/core/text/) once it
// is read, and the step that makes every other stored text of a freshly parsed line a string again.
// The places are the texts that make most of a rollout's bytes and that our code either carries
// into the request body unchanged or reads through `isText` / `textString` / `textUnits`
// (context.ts, threads.ts, policy/slots.ts). Everything else (ids, types, the event lines, the
// compacted lines' own message, the older line shapes) stays a string, so untyped code reading it
// never meets a stored text.
//
// The places, in an envelope line `{timestamp, type: "response_item", payload}`, by the item's type:
// - `message`: `text` of each part of `payload.content`;
// - `function_call_output`, `custom_tool_call_output`: `payload.output` (when a string);
// - `function_call`: `payload.arguments`; `custom_tool_call`: `payload.input`;
// - `reasoning`: `payload.encrypted_content`, and `text` of each part of `payload.summary`;
// and in a `compacted` line, `text` of each content part of each message of
// `payload.replacement_history` (the kept prompts, which every later compaction repeats, and the
// summary).
// A line whose leading bytes show that it has none of these places (`mayKeepStoredTexts`) is read
// as text, as the file's short lines are: none of its texts is stored, measured and decoded again.
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

/** The `text` of each part of `parts` that holds a stored text. */
function partPlaces(parts: unknown, places: StoredTextPlace[]): void {
  if (Array.isArray(parts)) for (const part of parts) if (isObject(part) && isStoredText(part.text)) places.push({ holder: part, key: "text" });
}

/** Every place of `raw` (a parsed rollout line) that may keep a stored text and holds one. */
function keptPlaces(raw: Record<string, unknown>): StoredTextPlace[] {
  const places: StoredTextPlace[] = [];
  if (typeof raw.timestamp !== "string" || !isObject(raw.payload)) return places;
  const payload = raw.payload;
  if (raw.type === "compacted") {
    // The messages of the history a compaction left: each compaction repeats the prompts it keeps.
    if (Array.isArray(payload.replacement_history)) for (const item of payload.replacement_history) if (isObject(item) && item.type === "message") partPlaces(item.content, places);
    return places;
  }
  if (raw.type !== "response_item" || typeof payload.type !== "string") return places;
  if (payload.type === "message" || payload.type === "reasoning") {
    // A message's content parts, a reasoning item's summary parts: each part's `text`.
    partPlaces(payload.type === "message" ? payload.content : payload.summary, places);
  }
  if (Object.hasOwn(KEPT_FIELD, payload.type)) {
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
  const places = keptPlaces(raw);
  keepStoredTextsOnlyAt(raw, places, store, mark);
}

/** The bytes of an ASCII text. */
function asciiBytes(text: string): Uint8Array {
  return Uint8Array.from(text, (char) => char.charCodeAt(0));
}

// How Codex begins every envelope line: `{"timestamp":"…","type":"…","payload":{"type":"…"`.
const ENVELOPE_START = asciiBytes('{"timestamp":"');
const AFTER_TIMESTAMP = asciiBytes('","type":"');
const AFTER_TYPE = asciiBytes('","payload":{"type":"');
/** Longer literals at those places are not Codex's timestamps and type names. */
const SHORT_LITERAL = 64;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function bytesMatch(bytes: Uint8Array, at: number, end: number, expected: Uint8Array): boolean {
  if (at + expected.length > end) return false;
  for (let i = 0; i < expected.length; i++) if (bytes[at + i] !== expected[i]) return false;
  return true;
}

/** The index of the quote ending the short ASCII literal without escapes that starts at `at`, else -1. */
function shortLiteralEnd(bytes: Uint8Array, at: number, end: number): number {
  const limit = Math.min(end, at + SHORT_LITERAL);
  for (let i = at; i < limit; i++) {
    const b = bytes[i]!;
    if (b === QUOTE) return i;
    if (b === BACKSLASH || b >= 0x80) return -1;
  }
  return -1;
}

/** Whether `bytes[from, to)` are the bytes `expected`. */
function bytesAre(bytes: Uint8Array, from: number, to: number, expected: Uint8Array): boolean {
  return to - from === expected.length && bytesMatch(bytes, from, to, expected);
}

const RESPONSE_ITEM = asciiBytes("response_item");
const COMPACTED = asciiBytes("compacted");
/** The item types that have a place (those of KEPT_FIELD, and messages). */
const ITEM_TYPES_WITH_PLACES = ["message", ...Object.keys(KEPT_FIELD)].map(asciiBytes);

/**
 * Whether the line `bytes[start, end)` may hold one of the places above: false only when its
 * leading bytes are Codex's envelope and name a line type or item type that has none (an event, a
 * turn context). Anything else, the older line shapes included, may. A line said to
 * have none is read as text; were it wrong (a key repeated later in the line), its texts would
 * only be strings instead of bytes, with the same characters.
 */
export function mayKeepStoredTexts(bytes: Uint8Array, start: number, end: number): boolean {
  if (!bytesMatch(bytes, start, end, ENVELOPE_START)) return true;
  const timestampEnd = shortLiteralEnd(bytes, start + ENVELOPE_START.length, end);
  if (timestampEnd === -1 || !bytesMatch(bytes, timestampEnd, end, AFTER_TIMESTAMP)) return true;
  const typeStart = timestampEnd + AFTER_TIMESTAMP.length;
  const typeEnd = shortLiteralEnd(bytes, typeStart, end);
  if (typeEnd === -1) return true;
  if (bytesAre(bytes, typeStart, typeEnd, COMPACTED)) return true;
  if (!bytesAre(bytes, typeStart, typeEnd, RESPONSE_ITEM)) return false;
  if (!bytesMatch(bytes, typeEnd, end, AFTER_TYPE)) return true;
  const itemStart = typeEnd + AFTER_TYPE.length;
  const itemEnd = shortLiteralEnd(bytes, itemStart, end);
  if (itemEnd === -1) return true;
  return ITEM_TYPES_WITH_PLACES.some((type) => bytesAre(bytes, itemStart, itemEnd, type));
}
