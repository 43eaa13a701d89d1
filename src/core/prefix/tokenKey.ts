// A short key standing for the text a tokenizer sees in a value (`tokenTextOf`), made from the
// value's parts without decoding the ones kept as bytes: the memo of token counts made elsewhere
// is looked up with it, so a walk that finds every count there decodes nothing. A value whose
// parts are all strings keys as its joined text does with `textDigest` (the same key as before
// texts were kept as bytes); a stored part stands in the key as its content hash.
import { decodeStoredText } from "../text/storedText";
import type { Text } from "../text/text";
import { forEachTokenPart } from "./canonical";
import { storedTextContentHash } from "./hash";

/** Above every UTF-16 unit: a stored part's mark in the key's stream, which no string part can feed. */
const STORED_PART = 0x10000;

/**
 * The key of `tokenTextOf(value)` when one of its parts is a stored text that can be keyed without
 * decoding (`<units>:s:<hash>:<hash>`), else null: key the joined text instead.
 */
export function storedPartsKey(value: unknown): string | null {
  const parts: Text[] = [];
  let stored = false;
  forEachTokenPart(value, (part) => {
    parts.push(part);
    if (typeof part !== "string") stored = true;
  });
  if (!stored) return null;
  let units = 0;
  let first = 0x811c9dc5;
  let second = 0x9747b28c;
  const feed = (code: number) => {
    first = Math.imul(first ^ code, 0x01000193);
    second = Math.imul(second + code, 0x5bd1e995);
    second ^= second >>> 15;
  };
  const feedString = (text: string) => {
    units += text.length;
    for (let i = 0; i < text.length; i++) feed(text.charCodeAt(i));
  };
  for (const part of parts) {
    if (typeof part === "string") {
      feedString(part);
      continue;
    }
    const content = storedTextContentHash(part);
    if (content === null) {
      feedString(decodeStoredText(part)); // a text the hash cannot read as bytes: rare
      continue;
    }
    units += part.units;
    feed(STORED_PART);
    feed(content[0]);
    feed(content[1]);
  }
  first ^= first >>> 13;
  first = Math.imul(first, 0xc2b2ae35);
  second = Math.imul(second ^ (second >>> 16), 0x85ebca6b);
  return `${units}:s:${(first >>> 0).toString(36)}:${(second >>> 0).toString(36)}`;
}
