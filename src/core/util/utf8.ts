// UTF-8 in core, which may not name TextEncoder (no DOM/Node libs in src/core), so encoding and
// decoding go through fflate, which uses the platform's coder: the encoder behind
// share payloads, SHA-256 and FNV-1a over bytes, the decoder of share payloads, and byte arithmetic
// on strings without encoding them (prefix analysis reports byte offsets, PD-1).
import { strFromU8, strToU8 } from "fflate";

/** UTF-8 bytes of `text`, through fflate (the platform's TextEncoder: a lone surrogate becomes U+FFFD). */
export function utf8Encode(text: string): Uint8Array {
  return strToU8(text);
}

/** Text of UTF-8 bytes, through fflate (the platform's TextDecoder when there is one). */
export function utf8Decode(bytes: Uint8Array): string {
  return strFromU8(bytes);
}

/** UTF-8 length in bytes of `text[start, end)`. Lone surrogates count 3 bytes (U+FFFD). */
export function utf8ByteLength(text: string, start = 0, end = text.length): number {
  let bytes = 0;
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < end) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** Index of the first UTF-16 code unit where `a` and `b` differ (the shorter length when one is a prefix). */
export function firstDifferingIndex(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  let i = 0;
  // Compare in chunks first: native slice comparison skips long equal runs quickly.
  let step = 4096;
  while (i < length) {
    const size = Math.min(step, length - i);
    if (a.slice(i, i + size) === b.slice(i, i + size)) {
      i += size;
      step *= 2;
      continue;
    }
    if (size <= 16) break;
    step = Math.max(16, size >> 2);
  }
  while (i < length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  // Never split a surrogate pair: a differing low surrogate means the code point differs.
  if (i > 0 && i < length) {
    const previous = a.charCodeAt(i - 1);
    if (previous >= 0xd800 && previous <= 0xdbff) i--;
  }
  return i;
}
