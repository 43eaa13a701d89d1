// 32-bit FNV-1a hash of a message's text parts (RL-25): the cache key check that makes an in-place
// edit that keeps every length read the message again.

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** FNV-1a over UTF-16 code units. Vectors: "" → 0x811C9DC5, "a" → 0xE40C292C, "foobar" → 0xBF9CF968. */
export function fnv1a32(text: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME) >>> 0;
  return h >>> 0;
}

/** FNV-1a over the UTF-8 bytes of the text (the RL-25 alternative; lone surrogates as U+FFFD). */
export function fnv1a32Utf8(text: string): number {
  let h = FNV_OFFSET;
  const step = (byte: number): void => {
    h = Math.imul(h ^ byte, FNV_PRIME) >>> 0;
  };
  for (const ch of text) {
    let cp = ch.codePointAt(0) ?? 0xfffd;
    if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
    if (cp < 0x80) step(cp);
    else if (cp < 0x800) {
      step(0xc0 | (cp >> 6));
      step(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
      step(0xe0 | (cp >> 12));
      step(0x80 | ((cp >> 6) & 0x3f));
      step(0x80 | (cp & 0x3f));
    } else {
      step(0xf0 | (cp >> 18));
      step(0x80 | ((cp >> 12) & 0x3f));
      step(0x80 | ((cp >> 6) & 0x3f));
      step(0x80 | (cp & 0x3f));
    }
  }
  return h >>> 0;
}
