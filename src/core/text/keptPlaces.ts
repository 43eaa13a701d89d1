// What the readers that keep large texts as bytes share once a line is parsed: the places of the
// line's record that keep a stored text, the step that gives back the bytes of the texts turned
// back into strings (the kept ones are stored again from where the line's texts began), and two
// small tests on a line's bytes and on a store.
import {
  decodeStoredText,
  isStoredText,
  rewindStore,
  SOURCE_CHUNK,
  storeBytes,
  storedTextBytes,
  storedTextHead,
  copyIntoChunks,
  storeMark,
  withSourceLine,
  type SourceLine,
  type StoredText,
  type StoreMark,
  type TextStore,
} from "./storedText";

/** A place of a parsed record holding a stored text: the object or array, and the key. */
export interface StoredTextPlace {
  holder: Record<string, unknown> | unknown[];
  key: string | number;
}

/**
 * Stores the texts at `places` again from `mark` on, so that the bytes the line stored after it
 * for texts that are strings again are given back. The kept texts' bytes are read before the
 * rewind (views that stay valid: storing them again only moves them down, or into a new chunk).
 * A text kept in the store's source holds no bytes of the store: it stays where it is.
 */
export function storeKeptTextsAgain(store: TextStore, mark: StoreMark, places: readonly StoredTextPlace[]): void {
  const holderOf = (place: StoredTextPlace) => place.holder as Record<string | number, unknown>;
  const texts = places.map((place) => holderOf(place)[place.key] as StoredText);
  // A text kept in the source has only its head in the store: that is what moves.
  const bytes = texts.map((text) => (text.chunk === SOURCE_CHUNK ? (text.headChunk === undefined ? null : storedTextHead(text)) : storedTextBytes(text)));
  rewindStore(store, mark);
  places.forEach((place, index) => {
    const text = texts[index]!;
    const kept = bytes[index];
    if (text.chunk === SOURCE_CHUNK) {
      store.sourced = (store.sourced ?? 0) + 1;
      if (!kept) return;
      const head = copyIntoChunks(store, kept, 0, kept.length);
      holderOf(place)[place.key] = { ...text, headChunk: head.chunk, headStart: head.start };
      return;
    }
    if (kept) holderOf(place)[place.key] = { ...text, ...storeBytes(store, kept, 0, kept.length) };
  });
}

/**
 * Longest text copied into memory by `copyIntoStore`: a longer one stays in the source (a copy
 * of it would cost more memory than its few reads cost time).
 */
const COPIED_AT_MOST_BYTES = 64 * 1024;

/**
 * Copies the texts at `places` that were left in the store's source into its chunks, from the
 * line in memory (call it while the line is read): texts every analysis decodes, such as a
 * compaction's summary, which would otherwise be read back from the file one at a time, each far
 * from the last (in a browser each such read of the dropped file costs milliseconds). They are a
 * few small texts of a session, so their copy costs little memory.
 */
export function copyIntoStore(store: TextStore, places: readonly StoredTextPlace[]): void {
  for (const place of places) {
    const holder = place.holder as Record<string | number, unknown>;
    const text = holder[place.key];
    if (!isStoredText(text) || text.chunk !== SOURCE_CHUNK || text.byteLength > COPIED_AT_MOST_BYTES) continue;
    const bytes = storedTextBytes(text);
    // Its head in the store stays where it is, unused (a few bytes): the copy holds them all.
    const { headChunk, headStart, ...copied } = text;
    holder[place.key] = { ...copied, ...storeBytes(store, bytes, 0, bytes.length) };
    if (store.sourced) store.sourced--;
  }
}

/** Replaces every stored text of `value` not in `kept` by its string; true when one was. */
function decodeOthers(value: unknown, kept: ReadonlySet<unknown>): boolean {
  if (typeof value !== "object" || value === null) return false;
  const holder = value as Record<string | number, unknown>;
  let decoded = false;
  // Arrays by index, not through an iterator: a packed row's list of thousands of small strings
  // would make an iterator result per item.
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) if (decodeItem(holder, index, kept)) decoded = true;
    return decoded;
  }
  for (const key of Object.keys(value)) if (decodeItem(holder, key, kept)) decoded = true;
  return decoded;
}

/** `decodeOthers` of `holder[key]`: the item itself when it is a stored text not in `kept`. */
function decodeItem(holder: Record<string | number, unknown>, key: string | number, kept: ReadonlySet<unknown>): boolean {
  const item = holder[key];
  if (isStoredText(item)) {
    if (kept.has(item)) return false;
    holder[key] = decodeStoredText(item);
    return true;
  }
  return typeof item === "object" && item !== null && decodeOthers(item, kept);
}

/** The kept texts of a line with no place (most lines): one empty set for all of them. */
const NO_PLACES: ReadonlySet<unknown> = new Set();

/**
 * Makes every stored text of `raw` (a record just parsed, its texts stored in `store` after
 * `mark`) a string again except at `places` (those of its places that hold one), and gives back
 * the bytes of those made strings: the kept texts are stored again from `mark` on. Changes `raw`
 * in place (nothing else holds it yet).
 */
export function keepStoredTextsOnlyAt(raw: Record<string, unknown>, places: readonly StoredTextPlace[], store: TextStore, mark: StoreMark): void {
  const kept = places.length === 0 ? NO_PLACES : new Set<unknown>(places.map((place) => (place.holder as Record<string | number, unknown>)[place.key]));
  const decoded = decodeOthers(raw, kept);
  if (places.length === 0) return rewindStore(store, mark);
  if (decoded) storeKeptTextsAgain(store, mark, places);
}

/** Whether nothing was stored yet (in its chunks or in its source). */
export function isEmptyStore(store: TextStore): boolean {
  return store.chunks.length === 1 && store.used === 0 && !store.sourced;
}

/** Whether the line's first byte after JSON whitespace opens an object (else it cannot be a record). */
export function startsObject(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const b = bytes[i]!;
    if (b === 0x7b) return true;
    if (b !== 0x20 && b !== 0x09 && b !== 0x0d && b !== 0x0a) return false;
  }
  return false;
}

/**
 * Reads one line whose large texts go into `store`: `keep` leaves stored texts only at the
 * reader's places (giving back the others' bytes), then `read` takes the parsed line and says
 * whether it made an entry; a line that made none gives back every byte it stored.
 */
export function readLineIntoStore<Parsed extends { value: Record<string, unknown> } | { reason: string }>(
  store: TextStore,
  line: SourceLine,
  parse: () => Parsed,
  keep: (raw: Record<string, unknown>, mark: StoreMark) => void,
  read: (parsed: Parsed) => boolean,
): void {
  const mark = storeMark(store);
  const parsed = parse();
  // Texts left in the source that `keep` makes strings again are read from the line in memory.
  if ("value" in parsed) withSourceLine(store, line, () => keep(parsed.value, mark));
  if (!read(parsed)) rewindStore(store, mark);
}
