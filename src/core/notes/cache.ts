// Cache of readings (RL-25 … RL-27): one entry per message content object, reused only while the
// FNV-1a hash of the message's text parts still matches, so an in-place edit that keeps every
// length is read again. The counters make "how many readings" observable for tests and the UI.
import type { UserMessage } from "../model";
import { isText, textString } from "../text/text";
import { fnv1a32, fnv1a32Utf8 } from "../util/fnv1a";
import type { ReplyLanguageOptions } from "./options";
import { readLanguageDetail, type Reading } from "./reading";
import { checkRequest, type RequestCheck } from "./request";

/** What one reading of a user message found. */
export interface MessageReading {
  hash: number;
  reading: Reading;
  request: RequestCheck;
  /** RL-4 visit count of the tag pass when this reading was computed. */
  tagPassVisited: number;
  /** Length of the text that was read. */
  textLength: number;
}

interface ReadingCacheStats {
  /** Readings computed (cache misses). */
  readings: number;
  /** Lookups answered from the cache. */
  hits: number;
  /** Sum of tag-pass visit counts over all computed readings. */
  tagPassVisited: number;
  /** Sum of lengths of all texts read. */
  charsRead: number;
}

export interface ReadingCache {
  /** Keyed by the content array (or the message object when the content is a string). */
  entries: WeakMap<object, { optionsKey: string; record: MessageReading }>;
  stats: ReadingCacheStats;
}

export function createReadingCache(): ReadingCache {
  return { entries: new WeakMap(), stats: { readings: 0, hits: 0, tagPassVisited: 0, charsRead: 0 } };
}

/**
 * Text parts of a user message: the string content, or the text blocks in order (images skipped).
 * Reading a language needs the characters: a stored text is decoded here, once per message (the
 * reading is cached).
 */
function textParts(message: UserMessage): string[] {
  if (isText(message.content)) return [textString(message.content)];
  const parts: string[] = [];
  for (const block of message.content) if (block.type === "text") parts.push(textString(block.text));
  return parts;
}

/** RL-25 hash of the text parts joined with U+0000. */
export function hashTextParts(parts: readonly string[], options: ReplyLanguageOptions): number {
  const joined = parts.join("\u0000");
  return options.hashInput === "utf8" ? fnv1a32Utf8(joined) : fnv1a32(joined);
}

const signatures = new WeakMap<ReplyLanguageOptions, string>();

/** Options that give equal readings give equal signatures (so re-resolved options still hit). */
function optionsSignature(options: ReplyLanguageOptions): string {
  let signature = signatures.get(options);
  if (signature === undefined) {
    signature = JSON.stringify(options, (_key, value: unknown) => (value instanceof RegExp ? value.toString() : value));
    signatures.set(options, signature);
  }
  return signature;
}

/** Reads a user message (language and request), through the cache when one is given. */
export function readUserMessage(message: UserMessage, options: ReplyLanguageOptions, cache?: ReadingCache): MessageReading {
  const parts = textParts(message);
  const hash = hashTextParts(parts, options);
  const key: object = isText(message.content) ? message : message.content;
  const hit = cache?.entries.get(key);
  const optionsKey = optionsSignature(options);
  if (hit && hit.record.hash === hash && hit.optionsKey === optionsKey) {
    if (cache) cache.stats.hits++;
    return hit.record;
  }
  const text = parts.join("\n");
  const detail = readLanguageDetail(text, options);
  const record: MessageReading = {
    hash,
    reading: detail.reading,
    request: checkRequest(text, options),
    tagPassVisited: detail.tagPassVisited,
    textLength: text.length,
  };
  if (cache) {
    cache.entries.set(key, { optionsKey, record });
    cache.stats.readings++;
    cache.stats.tagPassVisited += detail.tagPassVisited;
    cache.stats.charsRead += text.length;
  }
  return record;
}
