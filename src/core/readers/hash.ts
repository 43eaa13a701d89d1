// Small deterministic string hash used for synthetic ids (PI-F14): FNV-1a, 32 bits, over the
// UTF-16 code units of the string, written as 8 lowercase hex digits.

export function fnv1aHex(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}
