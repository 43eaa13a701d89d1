// A stored text's UTF-8 bytes with its JSON escapes read, a chunk at a time, in one reusable
// buffer, without decoding the text: runs between backslashes are copied as they are (native
// copies), each escape becomes its byte. The same contract as `forEachUtf8Chunk` (util/utf8-chunks),
// so the segment hash reads a stored text and the same text held as a string as one and the same
// stream of bytes. Only for texts whose \u escapes are control characters (a canonical,
// well-formed stored text: see measureLiteral); others are decoded first.
import { storedTextBytes, type StoredText } from "./storedText";

const ROOM = 64 * 1024;
// Room for a chunk and the 3 bytes the chunk before may leave; a multiple of 4 bytes.
const buffer = new Uint8Array(ROOM + 4);
const words = new Int32Array(buffer.buffer);

// The byte each one-letter escape stands for (-1: not an escape), by the letter's code.
const SHORT_ESCAPES = new Int16Array(128).fill(-1);
for (const [letter, byte] of [[0x22, 0x22], [0x5c, 0x5c], [0x2f, 0x2f], [0x62, 8], [0x66, 12], [0x6e, 10], [0x72, 13], [0x74, 9]] as const) SHORT_ESCAPES[letter] = byte;

function hexDigit(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x57;
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x37;
  return -1;
}

/** The byte the escape at `escaped[at]` (a backslash) stands for; its span is 6 for \u, else 2. */
function escapedByte(escaped: Uint8Array, at: number): number {
  const letter = escaped[at + 1]!;
  if (letter !== 0x75) {
    const byte = letter < 128 ? SHORT_ESCAPES[letter]! : -1;
    if (byte < 0) throw new Error("stored text: unknown escape");
    return byte;
  }
  let code = 0;
  for (let i = 2; i < 6; i++) {
    const digit = hexDigit(escaped[at + i]!);
    if (digit < 0) throw new Error("stored text: a \\u escape without four hex digits");
    code = (code << 4) | digit;
  }
  if (code >= 0x80) throw new Error("stored text: a \\u escape beyond ASCII (decode the text instead)");
  return code;
}

/**
 * Calls `onChunk(bytes, words, length)` for consecutive chunks of the stored text's unescaped
 * UTF-8 bytes; `onChunk` returns how many of the chunk's last bytes it left (at most 3), which come
 * first in the next chunk. After the last call, the bytes it left are at the end of that chunk.
 */
export function forEachUnescapedChunk(text: StoredText, onChunk: (bytes: Uint8Array, words: Int32Array, length: number) => number): void {
  const escaped = storedTextBytes(text);
  const end = escaped.length;
  let filled = 0;
  const flush = () => {
    const left = onChunk(buffer, words, filled);
    if (left > 0) buffer.copyWithin(0, filled - left, filled);
    filled = left;
  };
  for (let position = 0; position < end; ) {
    let backslash = escaped.indexOf(0x5c, position);
    if (backslash === -1) backslash = end;
    while (position < backslash) {
      const size = Math.min(backslash - position, ROOM - filled);
      if (size < 64) {
        // A short run (between two line breaks, say): a view to copy it would cost more.
        for (let i = 0; i < size; i++) buffer[filled + i] = escaped[position + i]!;
      } else buffer.set(escaped.subarray(position, position + size), filled);
      filled += size;
      position += size;
      if (filled === ROOM) flush();
    }
    if (backslash < end) {
      buffer[filled++] = escapedByte(escaped, backslash);
      position = backslash + (escaped[backslash + 1] === 0x75 ? 6 : 2);
      if (filled === ROOM) flush();
    }
  }
  onChunk(buffer, words, filled);
}
