// A short key standing for a text's characters, for the memo of token counts made elsewhere: a
// map keyed by the texts themselves would keep every distinct text of the session alive as a
// string, which for texts kept as bytes (decoded only to be counted) doubles the session's memory.
// The key is the text's length and two 32-bit hashes of its UTF-16 units with different
// multipliers and seeds, so two different texts share a key with a chance near 2^-64 per pair.
// A text made of parts, some kept as bytes, is keyed by its parts (`partsDigest`) without reading
// the stored ones: each stands in by its length and the hash of its rendering the reader took
// while measuring it (or, lacking one, by its place in the store, which holds its bytes only).
import type { Text } from "../text/text";

/** `<length>:<hash>:<hash>` of the text's UTF-16 units. */
export function textDigest(text: string): string {
  let first = 0x811c9dc5 ^ text.length;
  let second = 0x9747b28c;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    first = Math.imul(first ^ unit, 0x01000193);
    second = Math.imul(second + unit, 0x5bd1e995);
    second ^= second >>> 15;
  }
  first ^= first >>> 13;
  first = Math.imul(first, 0xc2b2ae35);
  second = Math.imul(second ^ (second >>> 16), 0x85ebca6b);
  return `${text.length}:${(first >>> 0).toString(36)}:${(second >>> 0).toString(36)}`;
}

/**
 * A key for the text `parts` make when joined: equal keys, equal texts (to the same chance as
 * `textDigest`). Parts that are all strings give `textDigest` of the joined text; with a stored
 * part the key is made of each part's own and starts with `~`, so it never meets a `textDigest`.
 * Two lists of parts making the same text may get different keys: a text is then counted twice.
 */
export function partsDigest(parts: readonly Text[]): string {
  const strings: string[] = [];
  for (const part of parts) if (typeof part === "string") strings.push(part);
  if (strings.length === parts.length) return textDigest(strings.length === 1 ? strings[0]! : strings.join(""));
  let key = "~";
  for (const part of parts) {
    if (typeof part === "string") key += `${textDigest(part)};`;
    else if (part.contentA !== undefined && part.contentB !== undefined)
      key += `${part.units}@${(part.contentA >>> 0).toString(36)}:${(part.contentB >>> 0).toString(36)};`;
    else key += `${part.units}@${part.store}/${part.chunk}/${part.start}/${part.byteLength};`;
  }
  return key;
}
