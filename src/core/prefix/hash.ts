// Fast non-cryptographic hashes for prefix analysis: one 53-bit number per segment rendering
// (computed once per distinct content) and a chained hash for "everything up to this segment"
// (the cache-entry key of CA-8). Collisions are astronomically unlikely for our use and would only
// hide a break, never invent one.

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
