// UTF-8 bytes of a string, a chunk at a time, in one reusable buffer: what the prefix hash reads
// instead of looking at every UTF-16 unit in JavaScript. Core names no platform types, so the
// platform's `TextEncoder.encodeInto` (browsers, workers and Node all have it) is looked up on
// globalThis; without it each chunk is encoded by fflate (a copy per chunk, same bytes).
import { strToU8 } from "fflate";

interface IntoEncoder {
  encodeInto(source: string, destination: Uint8Array): { read: number; written: number };
}

/** UTF-16 units encoded per chunk: at most 3 bytes each, so a chunk fits the buffer below. */
export const CHUNK_UNITS = 16 * 1024;

const platformEncoder: IntoEncoder | null = (() => {
  const constructor = (globalThis as { TextEncoder?: new () => Partial<IntoEncoder> }).TextEncoder;
  if (typeof constructor !== "function") return null;
  const encoder = new constructor();
  return typeof encoder.encodeInto === "function" ? (encoder as IntoEncoder) : null;
})();

// One buffer for every call (calls are synchronous and never nest): a chunk's 3 bytes a unit at
// most, after up to 3 bytes left by the chunk before; a multiple of 4 bytes so it can be read as
// 32-bit words.
const buffer = new Uint8Array(CHUNK_UNITS * 3 + 4);
const words = new Int32Array(buffer.buffer);

/**
 * Calls `onChunk(bytes, words, length)` for consecutive chunks of `text`'s UTF-8 encoding (lone
 * surrogates as U+FFFD, as every UTF-8 encoder writes them). `bytes` and `words` view the same
 * buffer, valid only during the call. `onChunk` returns how many of the chunk's last bytes it left
 * (at most 3: a word not yet whole); they are moved to the front of the buffer and the next chunk
 * is encoded after them, so a reader of whole words sees one continuous stream of bytes, however
 * the text was cut. After the last call, the bytes it left are still at the end of that chunk.
 */
export function forEachUtf8Chunk(text: string, onChunk: (bytes: Uint8Array, words: Int32Array, length: number) => number): void {
  let carried = 0;
  for (let start = 0; start < text.length; ) {
    let end = Math.min(text.length, start + CHUNK_UNITS);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--; // keep a pair together
    const piece = start === 0 && end === text.length ? text : text.slice(start, end);
    let length: number;
    if (platformEncoder) length = carried + platformEncoder.encodeInto(piece, buffer.subarray(carried)).written;
    else {
      const encoded = strToU8(piece);
      buffer.set(encoded, carried);
      length = carried + encoded.length;
    }
    const left = onChunk(buffer, words, length);
    start = end;
    if (start < text.length && left > 0) buffer.copyWithin(0, length - left, length);
    carried = left;
  }
}
