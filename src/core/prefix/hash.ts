// Fast non-cryptographic hashes for prefix analysis: one 53-bit number per segment rendering
// (computed once per distinct content) and a chained hash for "everything up to this segment"
// (the cache-entry key of CA-8). Collisions are astronomically unlikely for our use and would only
// hide a break, never invent one.
import { decodeStoredText, isStoredText, type StoredText } from "../text/storedText";
import { forEachUnescapedChunk } from "../text/unescapedChunks";
import { forEachUtf8Chunk } from "../util/utf8-chunks";

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
// tool outputs a session is made of) is hashed over its UTF-8 bytes, 32 bits at a time, with its
// escapes counted on the bytes, not re-rendered. The hash is a function of the value (not of its
// rendering's exact characters), which is all segment comparison needs. State lives in these
// module variables only for the duration of one synchronous call.
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

/** Strings at least this long are hashed over their UTF-8 bytes. */
const LONG_STRING = 64;

// State of the long-string hash across the chunks of one string.
let extraBytes = 0;
let sawReplacement = false;

/**
 * Bytes the rendering adds to the UTF-8 of a byte that JSON.stringify escapes: `"` and `\\` → 1,
 * \b \t \n \f \r → 1, other controls (\u00XX) → 5. Also notes the U+FFFD that a lone surrogate
 * encodes to (EF BF BD), which the rendering writes as \uXXXX instead.
 */
function escapeExtra(bytes: Uint8Array, index: number, length: number): number {
  const b = bytes[index]!;
  if (b === 0x22 || b === 0x5c) return 1;
  if (b < 0x20) return b === 8 || b === 9 || b === 10 || b === 12 || b === 13 ? 1 : 5;
  if (b === 0xef && index + 2 < length && bytes[index + 1] === 0xbf && bytes[index + 2] === 0xbd) sawReplacement = true;
  return 0;
}

/**
 * Hashes one UTF-8 chunk's whole words; a word holding a byte to look at is looked at bytewise.
 * Returns the bytes left after the last whole word (0–3): they come first in the next chunk, or
 * are hashed by `finishLongString` after the last one, so the hash reads one continuous stream.
 */
function hashChunk(bytes: Uint8Array, words: Int32Array, length: number): number {
  let h1 = laneA;
  let h2 = laneB;
  let extra = 0;
  const whole = length >> 2;
  for (let w = 0; w < whole; w++) {
    const x = words[w]!;
    h1 = Math.imul(h1 ^ x, 2654435761);
    h2 = Math.imul(h2 ^ x, 1597334677);
    // Any byte below 0x20, or equal to 0x22 ("), 0x5C (\\) or 0xEF (start of U+FFFD)?
    const quote = x ^ 0x22222222;
    const slash = x ^ 0x5c5c5c5c;
    const lead = x ^ 0xefefefef;
    const flags = ((x - 0x20202020) & ~x) | ((quote - 0x01010101) & ~quote) | ((slash - 0x01010101) & ~slash) | ((lead - 0x01010101) & ~lead);
    if ((flags & 0x80808080) !== 0) {
      const at = w << 2;
      extra += escapeExtra(bytes, at, length) + escapeExtra(bytes, at + 1, length) + escapeExtra(bytes, at + 2, length) + escapeExtra(bytes, at + 3, length);
    }
  }
  laneA = h1;
  laneB = h2;
  const hashed = whole << 2;
  byteCount += hashed;
  streamBytes += hashed;
  extraBytes += extra;
  lastChunk = bytes;
  lastLength = length;
  return length - hashed;
}

// The last chunk a long string's hash saw, and the stream's length so far.
let lastChunk: Uint8Array | null = null;
let lastLength = 0;
let streamBytes = 0;

/** Hashes the bytes the last chunk left (0–3) one by one, then the stream's length. */
function finishLongString(): void {
  let h1 = laneA;
  let h2 = laneB;
  if (lastChunk) {
    for (let i = lastLength - (lastLength & 3); i < lastLength; i++) {
      h1 = Math.imul(h1 ^ lastChunk[i]!, 2654435761);
      h2 = Math.imul(h2 ^ lastChunk[i]!, 1597334677);
      extraBytes += escapeExtra(lastChunk, i, lastLength);
    }
    const tail = lastLength & 3;
    byteCount += tail;
    streamBytes += tail;
  }
  laneA = Math.imul(h1 ^ streamBytes, 2246822507);
  laneB = h2;
  lastChunk = null;
  lastLength = 0;
}

const NOT_WELL_FORMED = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Feeds a string as JSON.stringify renders it: long strings over their UTF-8 bytes. */
function feedJsonString(text: string): void {
  if (text.length < LONG_STRING) {
    feedJsonStringUnits(text);
    return;
  }
  const outerA = laneA;
  const outerB = laneB;
  const startBytes = byteCount;
  extraBytes = 0;
  streamBytes = 0;
  sawReplacement = false;
  startContent();
  forEachUtf8Chunk(text, hashChunk);
  finishLongString();
  // U+FFFD in the bytes is either in the text or a lone surrogate's; only the text can tell, and
  // the rendering of a lone surrogate is \uXXXX (6 bytes, not 3): such a text is fed unit by unit.
  if (sawReplacement && NOT_WELL_FORMED.test(text)) {
    laneA = outerA;
    laneB = outerB;
    byteCount = startBytes;
    feedJsonStringUnits(text);
    return;
  }
  const contentA = laneA;
  const contentB = laneB;
  laneA = outerA;
  laneB = outerB;
  feedLongString(text.length, contentA, contentB);
  byteCount = startBytes + streamBytes + extraBytes + 2;
}

/**
 * A long string's bytes are hashed on their own (from fixed lanes), so the result depends on the
 * text alone and a stored text's can be kept: the same stored text met again (the same message in
 * the next request) is not read again.
 */
function startContent(): void {
  laneA = 0x2545f491;
  laneB = 0x9e3779b9;
}

/** Feeds a long string: a mark no short string's units can make, its length and its bytes' hash. */
function feedLongString(units: number, contentA: number, contentB: number): void {
  feed(0x10000 | 34);
  feed(units);
  feed(contentA);
  feed(contentB);
}

/** The content hash of stored texts already hashed (lanes A and B). */
const storedContentHashes = new WeakMap<StoredText, readonly [number, number]>();

/**
 * Feeds a stored text exactly as `feedJsonString` feeds the same text held as a string: the long
 * string's hash over its unescaped UTF-8 bytes, read from the store without decoding; its
 * rendering's bytes are the stored bytes and the quotes. A text whose bytes are not JSON.stringify's
 * rendering, or that holds a lone surrogate, is decoded and fed as a string.
 */
function feedStoredText(text: StoredText): void {
  if (!text.canonical || !text.wellFormed || text.units < LONG_STRING) {
    feedJsonString(decodeStoredText(text));
    return;
  }
  const startBytes = byteCount;
  const content = contentHashOf(text);
  feedLongString(text.units, content[0], content[1]);
  byteCount = startBytes + text.byteLength + 2;
}

/** The hash of a canonical, well-formed stored text's characters (two 32-bit lanes), read once per text. */
function contentHashOf(text: StoredText): readonly [number, number] {
  let content = storedContentHashes.get(text);
  if (!content) {
    const outerA = laneA;
    const outerB = laneB;
    const outerBytes = byteCount;
    streamBytes = 0;
    startContent();
    forEachUnescapedChunk(text, hashChunk);
    finishLongString();
    content = [laneA, laneB];
    storedContentHashes.set(text, content);
    laneA = outerA;
    laneB = outerB;
    byteCount = outerBytes;
  }
  return content;
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
