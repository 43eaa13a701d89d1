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
//
// A store may also have a source: the session file itself, readable again at any offset (the CLI
// reading a regular file). A text then stays where it is in the file, nothing is copied, and its
// bytes are read back when a stage needs them: a session's memory no longer grows with its texts.
// The source is a function, so it lives in this realm's registry beside the store, never in it.
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
  /** Texts kept in the store's source (present when it has one). */
  sourced?: number;
}

/**
 * Bytes of a session's input that can be read again: `read(offset, length)` gives a view of
 * `length` bytes at `offset` (valid while the caller holds it: later reads never overwrite it).
 */
export interface TextSource {
  read(offset: number, length: number): Uint8Array;
  /** Called when the store is released. */
  close?(): void;
}

/** The chunk number of a text kept in the store's source: its `start` is then its offset there. */
export const SOURCE_CHUNK = -1;

/**
 * A text kept in a `TextStore`: `byteLength` escaped bytes at `start` of chunk `chunk`, and what
 * they hold. (Its size is deliberately not called `length`: code written for strings that reads
 * `.length` must not compile against a stored text, whose UTF-16 length is `units`.)
 */
export interface StoredText extends LiteralFacts {
  readonly kind: "stored-text";
  /** The store's id (`TextStore.id`). */
  readonly store: number;
  /** The chunk, or SOURCE_CHUNK for a text read from the store's source. */
  readonly chunk: number;
  /** Offset in the chunk (a multiple of 4, so the bytes can be read as 32-bit words), or in the source. */
  readonly start: number;
  readonly byteLength: number;
  /**
   * For a text kept in the source: where its first bytes are copied in the store's chunks (see
   * `storedTextHead`), so that a test of how a text starts does not read the source.
   */
  readonly headChunk?: number;
  readonly headStart?: number;
}

/** Where a text's bytes are, as `storeBytes` gives it (a text kept in the source with its head). */
export interface StoredPlace {
  chunk: number;
  start: number;
  byteLength: number;
  headChunk?: number;
  headStart?: number;
}

/**
 * How many of the first bytes of a text kept in the source are copied into the store too: enough
 * for the tests that look at how a text starts (a tag such as `<state_snapshot>`, after a few
 * blanks), which stages ask of many texts (each would otherwise be a read of the file, and in a
 * browser a read of a dropped file costs milliseconds), for 32 bytes a text.
 */
const HEAD_BYTES = 32;

/** 64 MB: few chunks for a large session; the first chunk is 1 MB, each next one twice the last. */
const DEFAULT_CHUNK_BYTES = 64 * 1024 * 1024;
const FIRST_CHUNK_BYTES = 1024 * 1024;

const stores = new Map<number, TextStore>();
const sources = new Map<number, TextSource>();
// Ids: a random base per realm (so two workers never hand out the same id), then a counter.
let nextId = Math.floor(Math.random() * 2 ** 30) * 2 ** 20;

/**
 * A new, empty store, registered in this realm. With a `source`, texts whose offset in it is known
 * are not copied (see `storeBytes`); its chunks then hold only texts of lines read otherwise.
 */
export function createTextStore(chunkBytes = DEFAULT_CHUNK_BYTES, source: TextSource | null = null): TextStore {
  const first = source ? Math.min(chunkBytes, 64 * 1024) : Math.min(chunkBytes, FIRST_CHUNK_BYTES);
  const store: TextStore = { id: nextId++, chunks: [new Uint8Array(first)], used: 0, chunkBytes };
  stores.set(store.id, store);
  if (source) {
    store.sourced = 0;
    sources.set(store.id, source);
  }
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
  const source = sources.get(store.id);
  if (source) {
    sources.delete(store.id);
    source.close?.();
  }
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
 * Keeps `bytes[start, end)` (a literal's escaped bytes) in the store and returns where they are:
 * where they already are in the store's source when it has one and `sourceOffset` (the offset of
 * `bytes[start]` there) is known, else a copy in the store's chunks.
 */
export function storeBytes(
  store: TextStore,
  bytes: Uint8Array,
  start: number,
  end: number,
  sourceOffset?: number,
): StoredPlace {
  const length = end - start;
  if (sourceOffset !== undefined && store.sourced !== undefined && sources.has(store.id)) {
    store.sourced++;
    const head = copyIntoChunks(store, bytes, start, start + Math.min(length, HEAD_BYTES));
    return { chunk: SOURCE_CHUNK, start: sourceOffset, byteLength: length, headChunk: head.chunk, headStart: head.start };
  }
  return copyIntoChunks(store, bytes, start, end);
}

/** Copies `bytes[start, end)` into the store's chunks and returns where they are. */
export function copyIntoChunks(store: TextStore, bytes: Uint8Array, start: number, end: number): { chunk: number; start: number; byteLength: number } {
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
export function storeMark(store: TextStore): StoreMark {
  return { chunks: store.chunks.length, used: store.used, sourced: store.sourced ?? 0 };
}

export interface StoreMark {
  readonly chunks: number;
  readonly used: number;
  readonly sourced: number;
}

export function rewindStore(store: TextStore, mark: StoreMark): void {
  store.chunks.length = mark.chunks;
  store.used = mark.used;
  if (store.sourced !== undefined) store.sourced = mark.sourced;
}

/** The escaped bytes of a stored text (a view into its store, not a copy). */
export function storedTextBytes(text: StoredText): Uint8Array {
  return bytesAt(storeOf(text), text);
}

/**
 * The first bytes of a stored text: all of them, or for a text kept in the store's source at least
 * its first `HEAD_BYTES` (the whole text when shorter), read from the copy in the store instead of
 * the source. The bytes may end inside an escape or a UTF-8 sequence.
 */
export function storedTextHead(text: StoredText): Uint8Array {
  if (text.chunk !== SOURCE_CHUNK || text.headChunk === undefined || text.headStart === undefined) return storedTextBytes(text);
  return bytesAt(storeOf(text), { chunk: text.headChunk, start: text.headStart, byteLength: Math.min(HEAD_BYTES, text.byteLength) });
}

/** A line being read: its bytes `bytes[start, end)` and, when known, their offset in the source. */
export interface SourceLine {
  readonly bytes: Uint8Array;
  readonly start: number;
  readonly end: number;
  readonly offset: number | undefined;
}

// The line being read, while its texts may be read back (so they are not read from the source).
let lineInMemory: { store: number; line: SourceLine } | null = null;

/** Runs `work` with texts of `store` that lie in `line` read from its bytes. */
export function withSourceLine(store: TextStore, line: SourceLine, work: () => void): void {
  if (line.offset === undefined || !sources.has(store.id)) return work();
  lineInMemory = { store: store.id, line };
  try {
    work();
  } finally {
    lineInMemory = null;
  }
}

/** The bytes at a place of `store` (read from its source for a text kept there). */
export function bytesAt(store: TextStore, text: { chunk: number; start: number; byteLength: number }): Uint8Array {
  if (text.chunk === SOURCE_CHUNK) {
    const line = lineInMemory?.store === store.id ? lineInMemory.line : null;
    if (line && line.offset !== undefined && text.start >= line.offset && text.start + text.byteLength <= line.offset + line.end - line.start) {
      const at = line.start + text.start - line.offset;
      return line.bytes.subarray(at, at + text.byteLength);
    }
    const source = sources.get(store.id);
    if (!source) throw new Error("a stored text whose source is closed (its session was released)");
    return source.read(text.start, text.byteLength);
  }
  const chunk = store.chunks[text.chunk];
  if (!chunk || text.start + text.byteLength > chunk.length) throw new RangeError("stored text outside its store");
  return chunk.subarray(text.start, text.start + text.byteLength);
}

/** The text's characters: its bytes decoded and its escapes read, exactly as JSON.parse reads the literal. */
export function decodeStoredText(text: StoredText): string {
  return decodeLiteralBytes(storedTextBytes(text));
}

/** The characters of a JSON string literal's escaped bytes (quotes excluded): a stored text's bytes, wherever they were moved. */
export function decodeLiteralBytes(bytes: Uint8Array): string {
  return JSON.parse(`"${utf8Decode(bytes)}"`) as string;
}
