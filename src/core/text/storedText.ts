// A session's large texts kept as UTF-8 bytes instead of JavaScript strings (which take two bytes
// a character as soon as one character is beyond Latin-1). A text store is a growing list of byte
// chunks; a stored text is a reference into it: the escaped bytes of the JSON string literal the
// text was read from, quotes excluded, exactly as they stand in the session file. Both are plain
// data (Uint8Arrays and small objects), so they cross a worker boundary by structured clone.
// A text is decoded only where characters are needed (`decodeStoredText`), one text at a time.
//
// A stored text names its store by id, and each realm (the page, a worker, the CLI) keeps the
// stores it knows in a registry here: any stage that meets a stored text can read it without the
// store being handed down through every function, and the reference stays a small object that
// deep walks (Object.freeze, JSON.stringify, structural comparison) pass over harmlessly. A store
// is registered when it is created, or adopted after it crossed from another realm, and released
// when its session is closed.
import { utf8Decode } from "../util/utf8";
import type { LiteralFacts } from "./measureLiteral";

/** One session's stored texts: byte chunks, filled one after the other. */
export interface TextStore {
  /** Unique across realms, so a store keeps its id when it crosses a worker boundary. */
  readonly id: number;
  readonly chunks: Uint8Array[];
  /** Bytes used in the last chunk. */
  used: number;
  /** Size of a new chunk (a text longer than this gets a chunk of its own size). */
  readonly chunkBytes: number;
}

/**
 * A text kept in a `TextStore`: `byteLength` escaped bytes at `start` of chunk `chunk`, and what
 * they hold. (Its size is deliberately not called `length`: code written for strings that reads
 * `.length` must not compile against a stored text, whose UTF-16 length is `units`.)
 */
export interface StoredText extends LiteralFacts {
  readonly kind: "stored-text";
  /** The store's id (`TextStore.id`). */
  readonly store: number;
  readonly chunk: number;
  /** Offset in the chunk, a multiple of 4 so the bytes can be read as 32-bit words. */
  readonly start: number;
  readonly byteLength: number;
}

/** 64 MB: few chunks for a large session; the first chunk is 1 MB, each next one twice the last. */
const DEFAULT_CHUNK_BYTES = 64 * 1024 * 1024;
const FIRST_CHUNK_BYTES = 1024 * 1024;

const stores = new Map<number, TextStore>();
// Ids: a random base per realm (so two workers never hand out the same id), then a counter.
let nextId = Math.floor(Math.random() * 2 ** 30) * 2 ** 20;

/** A new, empty store, registered in this realm. */
export function createTextStore(chunkBytes = DEFAULT_CHUNK_BYTES): TextStore {
  const store: TextStore = { id: nextId++, chunks: [new Uint8Array(Math.min(chunkBytes, FIRST_CHUNK_BYTES))], used: 0, chunkBytes };
  stores.set(store.id, store);
  return store;
}

/** Registers a store received from another realm (a structured clone), so its texts read here. */
export function adoptTextStore(store: TextStore): TextStore {
  stores.set(store.id, store);
  return store;
}

/** Forgets a store (its session is closed): its bytes can be collected; its texts no longer read. */
export function releaseTextStore(store: TextStore): void {
  stores.delete(store.id);
}

function storeOf(text: StoredText): TextStore {
  const store = stores.get(text.store);
  if (!store) throw new Error("a stored text whose store is not known here (released, or not adopted after crossing from a worker)");
  return store;
}

export function isStoredText(value: unknown): value is StoredText {
  return typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "stored-text";
}

/**
 * Copies `bytes[start, end)` (a literal's escaped bytes) into the store and returns where they
 * are; `facts` then describe them (`measureLiteral`, run on the stored, word-aligned copy).
 */
export function storeBytes(store: TextStore, bytes: Uint8Array, start: number, end: number): { chunk: number; start: number; byteLength: number } {
  const length = end - start;
  let index = store.chunks.length - 1;
  let chunk = store.chunks[index]!;
  let offset = (store.used + 3) & ~3;
  if (offset + length > chunk.length) {
    // A new chunk, twice the last one's size up to the chunk size (a small session keeps a small
    // store; nothing stored is ever copied again), or the text's own size when it is larger.
    chunk = new Uint8Array(Math.max(length, Math.min(store.chunkBytes, chunk.length * 2)));
    store.chunks.push(chunk);
    index++;
    offset = 0;
  }
  chunk.set(bytes.subarray(start, end), offset);
  store.used = offset + length;
  return { chunk: index, start: offset, byteLength: length };
}

/** Gives back the last chunk's unused room once a session is read (a copy of its used part). */
export function trimTextStore(store: TextStore): void {
  const last = store.chunks.length - 1;
  const chunk = store.chunks[last]!;
  if (chunk.length > store.used) store.chunks[last] = chunk.slice(0, store.used);
}

/** Where the store stood, to take back bytes stored for a text that was not kept. */
export function storeMark(store: TextStore): { chunks: number; used: number } {
  return { chunks: store.chunks.length, used: store.used };
}

export function rewindStore(store: TextStore, mark: { chunks: number; used: number }): void {
  store.chunks.length = mark.chunks;
  store.used = mark.used;
}

/** The escaped bytes of a stored text (a view into its store, not a copy). */
export function storedTextBytes(text: StoredText): Uint8Array {
  return bytesAt(storeOf(text), text);
}

/** The bytes at a place of `store`. */
export function bytesAt(store: TextStore, text: { chunk: number; start: number; byteLength: number }): Uint8Array {
  const chunk = store.chunks[text.chunk];
  if (!chunk || text.start + text.byteLength > chunk.length) throw new RangeError("stored text outside its store");
  return chunk.subarray(text.start, text.start + text.byteLength);
}

/** The text's characters: its bytes decoded and its escapes read, exactly as JSON.parse reads the literal. */
export function decodeStoredText(text: StoredText): string {
  return JSON.parse(`"${utf8Decode(storedTextBytes(text))}"`) as string;
}
