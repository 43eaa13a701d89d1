// The hash of a long text as JSON.stringify renders it, quotes included: two 32-bit lanes over
// the rendering's UTF-8 bytes read as little-endian 32-bit words, then the 0–3 bytes left one by
// one, then the byte count. The prefix hash folds it into a segment's hash (prefix/hash.ts, which
// computes it over a string's rendering), and the readers compute it for a text they keep as
// bytes, whose bytes are that rendering, while they measure it (measureLiteral.ts): the prefix
// walk then never reads a stored text back to hash it. Both must give the same lanes for the same
// text; the constants and `hashLiteral` are what they share.

/** The lanes' starting values. */
export const CONTENT_SEED_A = 0x2545f491;
export const CONTENT_SEED_B = 0x9e3779b9;
/** The multipliers a word (or a last byte) is mixed in with, lane A and lane B. */
export const CONTENT_MIX_A = 2654435761;
export const CONTENT_MIX_B = 1597334677;
/** The multiplier lane A is finished with, after the byte count. */
export const CONTENT_FINISH_A = 2246822507;

const QUOTE = 0x22;

/**
 * The lanes of the literal `"` + `bytes[start, start + length)` + `"` (a JSON string literal whose
 * inside is given; its quotes are not read from `bytes`), at any alignment in `bytes`.
 */
export function hashLiteral(bytes: Uint8Array, start: number, length: number): [number, number] {
  const total = length + 2;
  // The stream's byte at `at`: the quotes at both ends, the given bytes between.
  const byteAt = (at: number) => (at === 0 || at === total - 1 ? QUOTE : bytes[start + at - 1]!);
  let laneA = CONTENT_SEED_A;
  let laneB = CONTENT_SEED_B;
  const whole = total & ~3;
  let at = 0;
  if (whole >= 8 && LITTLE_ENDIAN) {
    // The first word holds the opening quote.
    const first = byteAt(0) | (byteAt(1) << 8) | (byteAt(2) << 16) | (byteAt(3) << 24);
    laneA = Math.imul(laneA ^ first, CONTENT_MIX_A);
    laneB = Math.imul(laneB ^ first, CONTENT_MIX_B);
    at = 4;
    // The words wholly inside the literal (at + 4 < total), read from the buffer's aligned 32-bit
    // words: a word at an unaligned address is the two aligned words around it, shifted.
    const address = bytes.byteOffset + start + at - 1;
    const shift = (address & 3) * 8;
    // (Division, not shifts: a store's buffer may be larger than 2 GB.)
    const words = new Int32Array(bytes.buffer, 0, Math.floor(bytes.buffer.byteLength / 4));
    let index = Math.floor(address / 4);
    // Reading the next aligned word too must stay inside the buffer; the rest is read below.
    const inside = Math.max(0, Math.min((total - 1 - at) >> 2, words.length - 1 - index));
    if (shift === 0) {
      for (let k = 0; k < inside; k++, index++) {
        const word = words[index]!;
        laneA = Math.imul(laneA ^ word, CONTENT_MIX_A);
        laneB = Math.imul(laneB ^ word, CONTENT_MIX_B);
      }
    } else {
      const back = 32 - shift;
      for (let k = 0; k < inside; k++, index++) {
        const word = (words[index]! >>> shift) | (words[index + 1]! << back);
        laneA = Math.imul(laneA ^ word, CONTENT_MIX_A);
        laneB = Math.imul(laneB ^ word, CONTENT_MIX_B);
      }
    }
    at += 4 * inside;
  }
  for (; at < whole; at += 4) {
    const word = byteAt(at) | (byteAt(at + 1) << 8) | (byteAt(at + 2) << 16) | (byteAt(at + 3) << 24);
    laneA = Math.imul(laneA ^ word, CONTENT_MIX_A);
    laneB = Math.imul(laneB ^ word, CONTENT_MIX_B);
  }
  for (; at < total; at++) {
    const byte = byteAt(at);
    laneA = Math.imul(laneA ^ byte, CONTENT_MIX_A);
    laneB = Math.imul(laneB ^ byte, CONTENT_MIX_B);
  }
  return [Math.imul(laneA ^ total, CONTENT_FINISH_A), laneB];
}

/** Typed arrays read words in the machine's order: the aligned reads above assume little-endian. */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
