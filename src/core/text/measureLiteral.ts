// What a stored text's consumers need to know about it, read once from its escaped bytes when it
// is stored, 32 bits at a time, without decoding it: its length in UTF-16 units (what `.length`
// of the decoded string gives: the chars/4 estimate), whether it is well-formed (no lone surrogate,
// which pi's serialiser would remove) and whether the bytes are exactly what JSON.stringify writes
// for it (so a serialiser or a hasher may use them as they are). A literal JSON.parse would refuse
// (a raw control character, an unknown escape) or whose UTF-8 does not add up is not measured: the
// reader then parses its line as before, keeping the text a string.

export interface LiteralFacts {
  /** UTF-16 length of the decoded text. */
  readonly units: number;
  /** No lone surrogate (written as a \uD800–\uDFFF escape not paired). */
  readonly wellFormed: boolean;
  /** The bytes are JSON.stringify's rendering of the text (no `\/`, no optional \u escape, lowercase hex). */
  readonly canonical: boolean;
}

const HEX = new Int8Array(128).fill(-1);
for (let digit = 0; digit < 16; digit++) {
  HEX["0123456789".charCodeAt(digit)] = digit;
  if (digit >= 10) {
    HEX["abcdef".charCodeAt(digit - 10)] = digit;
    HEX["ABCDEF".charCodeAt(digit - 10)] = digit;
  }
}

function hex4(bytes: Uint8Array, at: number): number {
  let value = 0;
  for (let i = 0; i < 4; i++) {
    const digit = HEX[bytes[at + i]! & 127]!;
    if (digit < 0 || bytes[at + i]! > 127) return -1;
    value = (value << 4) | digit;
  }
  return value;
}

function isLowercaseHex4(bytes: Uint8Array, at: number): boolean {
  for (let i = 0; i < 4; i++) {
    const b = bytes[at + i]!;
    if (b >= 0x41 && b <= 0x46) return false;
  }
  return true;
}

/** Sum of the four byte lanes of `lanes` (each at most 255). */
function laneSum(lanes: number): number {
  return (lanes & 0xff) + ((lanes >>> 8) & 0xff) + ((lanes >>> 16) & 0xff) + (lanes >>> 24);
}

/**
 * Facts of the escaped literal `bytes[start, start + length)` (quotes excluded), or null when
 * JSON.parse would refuse it or its UTF-8 is not well formed by count (continuation bytes other
 * than its lead bytes announce).
 */
export function measureLiteral(bytes: Uint8Array, start: number, length: number): LiteralFacts | null {
  const end = start + length;
  // Continuation bytes (10xxxxxx), and those the lead bytes announce: 1 for 110xxxxx, 2 for
  // 1110xxxx, 3 for 11110xxx. Counted in byte lanes, emptied before a lane can overflow.
  let continuation = 0;
  let announced = 0;
  let leads4 = 0;
  let laneC = 0;
  let lane2 = 0;
  let lane3 = 0;
  let lane4 = 0;
  let control = false; // a byte below 0x20 may be there (JSON.parse refuses it raw): looked at bytewise
  let backslash = false; // an escape is there: the escapes are read below
  let at = start;
  if (((bytes.byteOffset + at) & 3) === 0 && length >= 4) {
    const words = new Int32Array(bytes.buffer, bytes.byteOffset + at, length >> 2);
    for (let w = 0; w < words.length; w++) {
      const x = words[w]!;
      if ((x & 0x80808080) !== 0) {
        const x1 = x << 1;
        const x2 = x << 2;
        const x3 = x << 3;
        const x4 = x << 4;
        laneC += ((x & ~x1) >>> 7) & 0x01010101;
        lane2 += ((x & x1 & ~x2) >>> 7) & 0x01010101;
        lane3 += ((x & x1 & x2 & ~x3) >>> 7) & 0x01010101;
        lane4 += ((x & x1 & x2 & x3 & ~x4) >>> 7) & 0x01010101;
      }
      const slash = x ^ 0x5c5c5c5c;
      if (((x - 0x20202020) & ~x & 0x80808080) !== 0) control = true;
      if (((slash - 0x01010101) & ~slash & 0x80808080) !== 0) backslash = true;
      if ((w & 127) === 127) {
        continuation += laneSum(laneC);
        announced += laneSum(lane2) + 2 * laneSum(lane3) + 3 * laneSum(lane4);
        leads4 += laneSum(lane4);
        laneC = lane2 = lane3 = lane4 = 0;
      }
    }
    at += words.length << 2;
  }
  continuation += laneSum(laneC);
  announced += laneSum(lane2) + 2 * laneSum(lane3) + 3 * laneSum(lane4);
  leads4 += laneSum(lane4);
  for (; at < end; at++) {
    const b = bytes[at]!;
    if (b < 0x20) control = true;
    else if (b === 0x5c) backslash = true;
    else if ((b & 0xc0) === 0x80) continuation++;
    else if ((b & 0xe0) === 0xc0) announced += 1;
    else if ((b & 0xf0) === 0xe0) announced += 2;
    else if ((b & 0xf8) === 0xf0) {
      announced += 3;
      leads4++;
    }
  }
  if (continuation !== announced) return null;
  // Each 4-byte character is two UTF-16 units.
  let units = length - continuation + leads4;
  let wellFormed = true;
  let canonical = true;
  if (control) {
    // The word test can flag a byte that is not below 0x20 (a borrow from the byte beside it).
    for (let i = start; i < end; i++) if (bytes[i]! < 0x20) return null;
  }
  if (backslash) {
    // From escape to escape (native search), what lies between being plain bytes.
    let pendingHigh = false; // the previous escape was a high surrogate waiting for its low half
    let after = start; // where the last escape ended
    for (let i = bytes.indexOf(0x5c, start); i !== -1 && i < end; i = bytes.indexOf(0x5c, after)) {
      if (pendingHigh && i > after) {
        wellFormed = false; // a character between a high surrogate escape and the next escape
        pendingHigh = false;
      }
      const next = bytes[i + 1];
      if (next === 0x75) {
        if (i + 6 > end) return null;
        const code = hex4(bytes, i + 2);
        if (code < 0) return null;
        units -= 5;
        const isHigh = code >= 0xd800 && code <= 0xdbff;
        const isLow = code >= 0xdc00 && code <= 0xdfff;
        if (isLow && pendingHigh) {
          pendingHigh = false;
          canonical = false; // a pair JSON.stringify writes as the character itself
        } else {
          if (pendingHigh || isLow) wellFormed = false;
          pendingHigh = isHigh;
        }
        // JSON.stringify writes \u only for controls without a short form and lone surrogates.
        const shortForm = code === 8 || code === 9 || code === 10 || code === 12 || code === 13;
        if (!((code < 0x20 && !shortForm) || isHigh || isLow) || !isLowercaseHex4(bytes, i + 2)) canonical = false;
        after = i + 6;
      } else if (next === 0x22 || next === 0x5c || next === 0x2f || next === 0x62 || next === 0x66 || next === 0x6e || next === 0x72 || next === 0x74) {
        if (pendingHigh) wellFormed = false;
        pendingHigh = false;
        if (next === 0x2f) canonical = false;
        units -= 1;
        after = i + 2;
      } else return null; // an escape JSON does not know, or a backslash ending the literal
      if (after > end) return null;
    }
    if (pendingHigh) wellFormed = false;
  }
  return { units, wellFormed, canonical };
}
