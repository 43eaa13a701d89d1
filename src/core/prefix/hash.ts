// Fast non-cryptographic hashes for prefix analysis: one 53-bit number per segment rendering
// (computed once per distinct content) and a chained hash for "everything up to this segment"
// (the cache-entry key of CA-8). Collisions are astronomically unlikely for our use and would only
// hide a break, never invent one.
import { decodeStoredText, isStoredText, storedTextBytes, type StoredText } from "../text/storedText";
import { forEachUtf8Chunk } from "../util/utf8-chunks";
import { CONTENT_FINISH_A, CONTENT_MIX_A, CONTENT_MIX_B, CONTENT_SEED_A, CONTENT_SEED_B, hashLiteral } from "../text/contentHash";

/** 53-bit hash of a string (two multiplicative 32-bit lanes, cyrb53-style). */
export function hashString(text: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** Hash of "prefix, then this segment": order-sensitive, so it identifies a whole prefix. */
export function chainHash(prefix: number, segment: number): number {
  const hi = Math.floor(segment / 4294967296);
  const lo = segment >>> 0;
  let h1 = (prefix >>> 0) ^ 0x9e3779b9;
  let h2 = Math.floor(prefix / 4294967296) ^ 0x85ebca6b;
  h1 = Math.imul(h1 ^ lo, 2654435761);
  h2 = Math.imul(h2 ^ hi, 1597334677);
  h1 = Math.imul(h1 ^ (h2 >>> 15), 2246822507);
  h2 = Math.imul(h2 ^ (h1 >>> 13), 3266489909);
  h1 ^= Math.imul(lo ^ (hi << 7), 0x27d4eb2d);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** `hashString` and the UTF-8 byte length of the same text in one pass (the hot first-sight path). */
export function hashStringAndUtf8Length(text: string): { hash: number; bytes: number } {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
    if (code >= 0x80) {
      // 2 bytes below U+0800, 3 above; a surrogate pair (2 units) is 4 bytes = 2 + 2.
      bytes += code < 0x800 ? 1 : code >= 0xd800 && code <= 0xdfff ? 1 : 2;
    }
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return { hash: 4294967296 * (2097151 & h2) + (h1 >>> 0), bytes };
}

// Streaming form of `hashStringAndUtf8Length(JSON.stringify(value))`'s job: a hash of the value's
// canonical rendering and the rendering's UTF-8 byte count, fed from the value itself, so first
// sight of a segment never builds its rendering string (the largest allocation of a whole-session
// analysis). Structure, keys and short strings are fed unit by unit; a long string (the texts and
// tool outputs a session is made of) is fed as the hash of its own rendering's UTF-8 bytes, 32
// bits at a time (text/contentHash.ts), which a text kept as bytes brings from when it was read.
// State lives in these module variables only for the duration of one synchronous call.
let laneA = 0;
let laneB = 0;
let byteCount = 0;

function feed(code: number): void {
  laneA = Math.imul(laneA ^ code, 2654435761);
  laneB = Math.imul(laneB ^ code, 1597334677);
}

/** Feeds ASCII-only text (punctuation, numbers, literals). */
function feedAscii(text: string): void {
  for (let i = 0; i < text.length; i++) feed(text.charCodeAt(i));
  byteCount += text.length;
}

const SHORT_ESCAPES: Record<number, number> = { 8: 98, 9: 116, 10: 110, 12: 102, 13: 114 };

function feedHex4(code: number): void {
  feed(92);
  feed(117);
  for (let shift = 12; shift >= 0; shift -= 4) {
    const digit = (code >> shift) & 15;
    feed(digit < 10 ? 48 + digit : 87 + digit); // lowercase, as JSON.stringify writes it
  }
  byteCount += 6;
}

/** Feeds a string unit by unit as JSON.stringify renders it (quotes, escapes, lone surrogates as \uXXXX). */
function feedJsonStringUnits(text: string): void {
  feed(34);
  let bytes = 2;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) {
      if (code >= 0x20 && code !== 0x22 && code !== 0x5c) {
        feed(code);
        bytes += 1;
      } else if (code === 0x22 || code === 0x5c) {
        feed(92);
        feed(code);
        bytes += 2;
      } else {
        const short = SHORT_ESCAPES[code];
        if (short !== undefined) {
          feed(92);
          feed(short);
          bytes += 2;
        } else feedHex4(code);
      }
    } else if (code < 0x800) {
      feed(code);
      bytes += 2;
    } else if (code < 0xd800 || code > 0xdfff) {
      feed(code);
      bytes += 3;
    } else {
      const next = i + 1 < length ? text.charCodeAt(i + 1) : 0;
      if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        feed(code);
        feed(next);
        bytes += 4;
        i++;
      } else feedHex4(code);
    }
  }
  feed(34);
  byteCount += bytes;
}

/** Strings at least this long are hashed over their rendering's UTF-8 bytes. */
const LONG_STRING = 64;

// A long string's rendering hash across the chunks of its UTF-8 bytes (text/contentHash.ts):
// the lanes are laneA and laneB while it runs, then the string's mark, length and lanes are fed.
let streamBytes = 0;
let lastChunk: Uint8Array | null = null;
let lastLength = 0;

/**
 * Mixes one UTF-8 chunk's whole words into the lanes. Returns the bytes left after the last
 * whole word (0–3): they come first in the next chunk, or are mixed by `finishRendering` after
 * the last one, so the hash reads one continuous stream.
 */
function mixChunk(bytes: Uint8Array, words: Int32Array, length: number): number {
  let h1 = laneA;
  let h2 = laneB;
  const whole = length >> 2;
  for (let w = 0; w < whole; w++) {
    const x = words[w]!;
    h1 = Math.imul(h1 ^ x, CONTENT_MIX_A);
    h2 = Math.imul(h2 ^ x, CONTENT_MIX_B);
  }
  laneA = h1;
  laneB = h2;
  streamBytes += whole << 2;
  lastChunk = bytes;
  lastLength = length;
  return length - (whole << 2);
}

/** Mixes the bytes the last chunk left (0–3) one by one, then the stream's length. */
function finishRendering(): void {
  let h1 = laneA;
  let h2 = laneB;
  if (lastChunk) {
    for (let i = lastLength - (lastLength & 3); i < lastLength; i++) {
      h1 = Math.imul(h1 ^ lastChunk[i]!, CONTENT_MIX_A);
      h2 = Math.imul(h2 ^ lastChunk[i]!, CONTENT_MIX_B);
    }
    streamBytes += lastLength & 3;
  }
  laneA = Math.imul(h1 ^ streamBytes, CONTENT_FINISH_A);
  laneB = h2;
  lastChunk = null;
  lastLength = 0;
}

/**
 * Feeds a string as JSON.stringify renders it: a long one as a mark, its length and the hash of
 * its rendering's bytes (contentHash.ts), computed apart from the lanes around it so that a text
 * kept as bytes, whose hash was taken when it was read, feeds the same.
 */
function feedJsonString(text: string): void {
  if (text.length < LONG_STRING) {
    feedJsonStringUnits(text);
    return;
  }
  const outerA = laneA;
  const outerB = laneB;
  laneA = CONTENT_SEED_A;
  laneB = CONTENT_SEED_B;
  streamBytes = 0;
  // The rendering (lone surrogates written as \uXXXX) encodes to UTF-8 exactly.
  forEachUtf8Chunk(JSON.stringify(text), mixChunk);
  finishRendering();
  const contentA = laneA;
  const contentB = laneB;
  laneA = outerA;
  laneB = outerB;
  feedLongString(text.length, contentA, contentB);
  byteCount += streamBytes;
}

/** Feeds a long string: a mark no short string's units can make, its length and its rendering's hash. */
function feedLongString(units: number, contentA: number, contentB: number): void {
  feed(0x10000 | 34);
  feed(units);
  feed(contentA);
  feed(contentB);
}

/** The rendering hash of stored texts read back (those measured when read carry theirs). */
const storedContentHashes = new WeakMap<StoredText, readonly [number, number]>();

/**
 * Feeds a stored text exactly as `feedJsonString` feeds the same text held as a string: its bytes
 * are JSON.stringify's rendering without the quotes when it is `canonical`, hashed when the reader
 * measured it (or read back once, for a text made otherwise). Any other stored text is decoded and
 * fed as a string.
 */
function feedStoredText(text: StoredText): void {
  if (!text.canonical || text.units < LONG_STRING) {
    feedJsonString(decodeStoredText(text));
    return;
  }
  let content: readonly [number, number] | undefined =
    text.contentA !== undefined && text.contentB !== undefined ? [text.contentA, text.contentB] : storedContentHashes.get(text);
  if (!content) {
    content = hashLiteral(storedTextBytes(text), 0, text.byteLength);
    storedContentHashes.set(text, content);
  }
  feedLongString(text.units, content[0], content[1]);
  byteCount += text.byteLength + 2;
}

/** Feeds a value's JSON rendering; false when it meets something JSON.stringify renders specially. */
function feedJsonValue(value: unknown): boolean {
  switch (typeof value) {
    case "string":
      feedJsonString(value);
      return true;
    case "number":
      feedAscii(Number.isFinite(value) ? String(value) : "null");
      return true;
    case "boolean":
      feedAscii(value ? "true" : "false");
      return true;
    case "object": {
      if (value === null) {
        feedAscii("null");
        return true;
      }
      if (isStoredText(value)) {
        feedStoredText(value);
        return true;
      }
      if (Array.isArray(value)) {
        feed(91);
        byteCount += 1;
        for (let i = 0; i < value.length; i++) {
          if (i > 0) {
            feed(44);
            byteCount += 1;
          }
          const item: unknown = value[i];
          if (item === undefined || typeof item === "function" || typeof item === "symbol") feedAscii("null");
          else if (!feedJsonValue(item)) return false;
        }
        feed(93);
        byteCount += 1;
        return true;
      }
      const prototype: unknown = Object.getPrototypeOf(value);
      if (prototype !== Object.prototype && prototype !== null) return false;
      if (typeof (value as { toJSON?: unknown }).toJSON === "function") return false;
      feed(123);
      byteCount += 1;
      let first = true;
      for (const key of Object.keys(value)) {
        const child: unknown = (value as Record<string, unknown>)[key];
        if (child === undefined || typeof child === "function" || typeof child === "symbol") continue;
        if (!first) {
          feed(44);
          byteCount += 1;
        }
        first = false;
        feedJsonString(key);
        feed(58);
        byteCount += 1;
        if (!feedJsonValue(child)) return false;
      }
      feed(125);
      byteCount += 1;
      return true;
    }
    default:
      return false;
  }
}

/**
 * A hash of `renderCanonical(value)` and its UTF-8 byte count, without building the rendering, or
 * null when the value holds something only JSON.stringify renders faithfully (toJSON, class
 * instances, bigint, a bare undefined): the caller then renders it and hashes the parsed
 * rendering, so equal renderings always get equal hashes. Values whose strings are all shorter
 * than 64 units hash as `hashStringAndUtf8Length(renderCanonical(value))` does.
 */
export function hashJsonRendering(value: unknown): { hash: number; bytes: number } | null {
  laneA = 0xdeadbeef;
  laneB = 0x41c6ce57;
  byteCount = 0;
  if (!feedJsonValue(value)) return null;
  let h1 = laneA;
  let h2 = laneB;
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return { hash: 4294967296 * (2097151 & h2) + (h1 >>> 0), bytes: byteCount };
}
