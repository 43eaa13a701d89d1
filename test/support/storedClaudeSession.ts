// A Claude Code session "kept as bytes": the session read as strings, then each line's large
// texts stored in a text store the way the reader's byte path stores them (each string value of
// at least `thresholdBytes` escaped bytes becomes a StoredText holding its JSON.stringify bytes),
// and every stored text not at a place of storedTextPlaces.ts decoded back by the same function
// the reader uses. At the reader's own threshold the line goes through the real parser
// (`parseLineKeepingLargeTexts` over the line JSON.stringify(raw) writes); at any other threshold
// the texts are stored with `storeBytes` + `measureLiteral`, as that parser stores them.
// The threads are found again from the stored entries, as the reader finds them.
import type { Session, SessionEntry } from "../../src/core/model";
import { decodeUnlistedTexts } from "../../src/core/agents/claude-code/storedTextPlaces";
import { inFileThreads } from "../../src/core/agents/claude-code/threads";
import { LARGE_TEXT_BYTES, parseLineKeepingLargeTexts } from "../../src/core/text/largeLiterals";
import { measureLiteral } from "../../src/core/text/measureLiteral";
import { bytesAt, createTextStore, isStoredText, storeBytes, type StoredText, type TextStore } from "../../src/core/text/storedText";
import { utf8Encode } from "../../src/core/util/utf8";

/** A string as a stored text (its JSON.stringify bytes), or the string when the parser would keep it one. */
function storedOf(text: string, store: TextStore): StoredText | string {
  const literal = utf8Encode(JSON.stringify(text));
  const place = storeBytes(store, literal, 1, literal.length - 1);
  const bytes = bytesAt(store, place);
  const facts = measureLiteral(bytes, 0, bytes.length);
  return facts === null ? text : { kind: "stored-text", store: store.id, ...place, ...facts };
}

/** A copy of `value` with every string value of at least `thresholdBytes` escaped bytes stored. */
function storeLarge(value: unknown, thresholdBytes: number, store: TextStore): unknown {
  if (typeof value === "string") return utf8Encode(JSON.stringify(value)).length - 2 >= thresholdBytes ? storedOf(value, store) : value;
  if (Array.isArray(value)) return value.map((item) => storeLarge(item, thresholdBytes, store));
  if (typeof value !== "object" || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[key] = storeLarge(item, thresholdBytes, store);
  return copy;
}

function storedRaw(raw: Record<string, unknown>, thresholdBytes: number, store: TextStore): Record<string, unknown> {
  let parsed: Record<string, unknown>;
  if (thresholdBytes === LARGE_TEXT_BYTES) {
    const line = utf8Encode(JSON.stringify(raw));
    parsed = parseLineKeepingLargeTexts(line, 0, line.length, store) as Record<string, unknown>;
  } else parsed = storeLarge(raw, thresholdBytes, store) as Record<string, unknown>;
  decodeUnlistedTexts(parsed);
  return parsed;
}

/** How many stored texts a value holds. */
function countStoredTexts(value: unknown): number {
  if (isStoredText(value)) return 1;
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + countStoredTexts(item), 0);
  if (typeof value !== "object" || value === null) return 0;
  return Object.values(value).reduce((sum: number, item) => sum + countStoredTexts(item), 0);
}

/**
 * `session` (a Claude Code session read as strings) with its large texts stored: a new Session
 * of new entries (the string session is left as it was), and the store holding the texts.
 */
export function storeClaudeSession(session: Session, thresholdBytes = LARGE_TEXT_BYTES, store: TextStore = createTextStore()): { session: Session; store: TextStore; stored: number } {
  const entries: SessionEntry[] = session.entries.map((entry) => ({ ...entry, raw: storedRaw(entry.raw, thresholdBytes, store) }));
  const stored: Session = { ...session, entries };
  delete stored.threads;
  const threads = inFileThreads(stored);
  if (threads.length > 0) stored.threads = threads;
  return { session: stored, store, stored: countStoredTexts(entries.map((entry) => entry.raw)) };
}
