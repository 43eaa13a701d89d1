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
  const bytes = texts.map((text) => (text.chunk === SOURCE_CHUNK ? null : storedTextBytes(text)));
  rewindStore(store, mark);
  places.forEach((place, index) => {
    const text = texts[index]!;
    const kept = bytes[index];
    if (!kept) {
      store.sourced = (store.sourced ?? 0) + 1;
      return;
    }
    holderOf(place)[place.key] = { ...text, ...storeBytes(store, kept, 0, kept.length) };
  });
}

/** Replaces every stored text of `value` not in `kept` by its string; true when one was. */
function decodeOthers(value: unknown, kept: ReadonlySet<unknown>): boolean {
  if (typeof value !== "object" || value === null) return false;
  const holder = value as Record<string | number, unknown>;
  let decoded = false;
  for (const key of Array.isArray(value) ? value.keys() : Object.keys(value)) {
    const item = holder[key];
    if (isStoredText(item)) {
      if (!kept.has(item)) {
        holder[key] = decodeStoredText(item);
        decoded = true;
      }
    } else if (decodeOthers(item, kept)) decoded = true;
  }
  return decoded;
}

/**
 * Makes every stored text of `raw` (a record just parsed, its texts stored in `store` after
 * `mark`) a string again except at `places` (those of its places that hold one), and gives back
 * the bytes of those made strings: the kept texts are stored again from `mark` on. Changes `raw`
 * in place (nothing else holds it yet).
 */
export function keepStoredTextsOnlyAt(raw: Record<string, unknown>, places: readonly StoredTextPlace[], store: TextStore, mark: StoreMark): void {
  const kept = new Set<unknown>(places.map((place) => (place.holder as Record<string | number, unknown>)[place.key]));
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
