// The three-character suffix of the billing header's `cc_version` (FM-CC-19 step 5). Claude Code
// computes it from the request itself: the first three hex digits of SHA-256 over a fixed salt,
// the characters at UTF-16 positions 4, 7 and 20 of the first user text ("0" for each position
// past its end) and the Claude Code version. The first user text is the first text block of the
// first user message that is not a `<system-reminder>` (Claude Code prepends those from meta
// messages); after a compaction it is the summary message, which is why the suffix changes there.
// Found by hashing candidate strings of the recorded requests; every recorded main and summariser
// request of the shared Claude Code recording (2.1.332) matches (docs/captures.md).
import { sha256Hex } from "../../util/sha256";
import { isObject } from "../../util/is-object";
import { isText, textString, type Text } from "../../text/text";
import { textStartsWith } from "../../text/textTests";

/** Salt of the fingerprint (a constant of the Claude Code 2.1 bundle). */
const FINGERPRINT_SALT = "59cf53e54c78";
const POSITIONS = [4, 7, 20] as const;

/** Text blocks of a message content (a plain string counts as one). */
function texts(content: unknown): Text[] {
  if (isText(content)) return [content];
  if (!Array.isArray(content)) return [];
  return content.filter((block) => isObject(block) && block.type === "text" && isText(block.text)).map((block) => (block as { text: Text }).text);
}

/**
 * The user text the fingerprint would read in one message (null: none), kept per message object:
 * every turn's request starts with the same messages, and a text kept as bytes is read once.
 */
const userTextCache = new WeakMap<object, string | null>();

function messageUserText(message: Record<string, unknown>): string | null {
  let found = userTextCache.get(message);
  if (found === undefined) {
    found = null;
    for (const text of texts(message.content)) {
      if (!textStartsWith(text, "<system-reminder>")) {
        found = textString(text);
        break;
      }
    }
    userTextCache.set(message, found);
  }
  return found;
}

/** The first user text the fingerprint reads, or null when the request has none. */
export function firstUserText(messages: readonly unknown[]): string | null {
  const at = firstUserTextAt(messages);
  return at === -1 ? null : messageUserText(messages[at] as Record<string, unknown>);
}

/** Where the first user text the fingerprint reads is: the index of its message, or -1. */
export function firstUserTextAt(messages: readonly unknown[]): number {
  for (let at = 0; at < messages.length; at++) {
    const message = messages[at];
    if (isObject(message) && message.role === "user" && messageUserText(message) !== null) return at;
  }
  return -1;
}

/**
 * Suffixes by what they hash: every turn of a session until a compaction reads the same user text
 * and version, so the hash is computed once for them, not once per turn.
 */
const suffixes = new Map<string, string>();
const SUFFIX_CACHE_LIMIT = 64;

/** The suffix for these wire messages and version; null when there is no user text to read. */
export function billingSuffix(messages: readonly unknown[], version: string): string | null {
  const text = firstUserText(messages);
  if (text === null) return null;
  const chars = POSITIONS.map((position) => text[position] ?? "0").join("");
  const input = `${FINGERPRINT_SALT}${chars}${version}`;
  let suffix = suffixes.get(input);
  if (suffix === undefined) {
    suffix = sha256Hex(input).slice(0, 3);
    if (suffixes.size >= SUFFIX_CACHE_LIMIT) suffixes.clear();
    suffixes.set(input, suffix);
  }
  return suffix;
}
