// 32-bit FNV-1a, the small deterministic non-cryptographic hash of core: the notes cache key check
// over a message's text parts (RL-25), and pi's synthetic entry ids (PI-F14) as 8 hex digits.
import { utf8Encode } from "./utf8";

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** One FNV-1a step: xor in one code unit or byte, multiply by the prime, keep 32 unsigned bits. */
function step(hash: number, unit: number): number {
  return Math.imul(hash ^ unit, FNV_PRIME) >>> 0;
}

/** FNV-1a over UTF-16 code units. Vectors: "" → 0x811C9DC5, "a" → 0xE40C292C, "foobar" → 0xBF9CF968. */
export function fnv1a32(text: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < text.length; i++) h = step(h, text.charCodeAt(i));
  return h;
}

/** FNV-1a over the UTF-8 bytes of the text (the RL-25 alternative; lone surrogates as U+FFFD). */
export function fnv1a32Utf8(text: string): number {
  let h = FNV_OFFSET;
  for (const byte of utf8Encode(text)) h = step(h, byte);
  return h;
}

/** `fnv1a32` as 8 lowercase hex digits (pi's synthetic ids for pre-v3 sessions, PI-F14). */
export function fnv1aHex(text: string): string {
  return fnv1a32(text).toString(16).padStart(8, "0");
}
