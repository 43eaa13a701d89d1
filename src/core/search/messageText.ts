// Matching one context message against a query: every string it carries is tested (text,
// thinking, tool call names and arguments with their file paths, tool result names and output);
// images' base64 data and opaque signatures are left out. Nothing is copied or cached: a
// case-insensitive regular expression runs over each string as it is, so searching a 1 GB
// session adds no second copy of its text to memory. A stored text (kept as bytes) is decoded
// for its test and dropped again, one text at a time; the search index reads its bytes instead.
import type { LlmMessage } from "../model";
import { decodeStoredText, isStoredText } from "../text/storedText";
import type { Text } from "../text/text";

/** Keys whose strings are opaque blobs, not words a user would search for. */
const SKIPPED_KEYS = new Set(["data", "signature", "thinkingSignature", "textSignature", "encrypted_content", "encryptedContent", "timestamp"]);
const MAX_DEPTH = 64;

export interface MessageMatch {
  /** The string the first match is in. */
  text: string;
  /** Where the first match starts in `text`, and its length. */
  at: number;
  length: number;
  /** Matches in the whole message (counted up to 1000). */
  count: number;
}

/** A case-insensitive matcher for the literal `query`. */
export function queryMatcher(query: string): RegExp {
  return new RegExp(query.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "giu");
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return "";
  }
}

/** Calls `visit` with every searchable string of the message until it returns false. */
export function visitMessageStrings(message: LlmMessage, visit: (text: string) => boolean): void {
  visitMessageTexts(message, (text) => visit(typeof text === "string" ? text : decodeStoredText(text)));
}

/**
 * Calls `visit` with every searchable text of the message until it returns false, a text kept as
 * bytes as it is (the search index reads its bytes: decoding every text of a large session made
 * as many short-lived strings as the session has text).
 */
export function visitMessageTexts(message: LlmMessage, visit: (text: Text) => boolean): void {
  const walk = (value: unknown, depth: number): boolean => {
    if (depth > MAX_DEPTH) return true;
    if (typeof value === "string") return value.length === 0 || visit(value);
    if (isStoredText(value)) return value.units === 0 || visit(value);
    if (typeof value !== "object" || value === null) return true;
    if (Array.isArray(value)) {
      for (const item of value) if (!walk(item, depth + 1)) return false;
      return true;
    }
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      if (SKIPPED_KEYS.has(key)) continue;
      // Tool call arguments are objects: searched as their JSON, keys ("path") beside values.
      if (key === "arguments" || key === "input" || key === "args") {
        if (!visit(typeof item === "string" ? item : safeJson(item))) return false;
        continue;
      }
      if (!walk(item, depth + 1)) return false;
    }
    return true;
  };
  walk(message, 0);
}

/** The first match of `matcher` in the message with the number of matches, or null. */
export function matchMessage(message: LlmMessage, matcher: RegExp): MessageMatch | null {
  let first: MessageMatch | null = null;
  let count = 0;
  visitMessageStrings(message, (text) => {
    matcher.lastIndex = 0;
    for (let found = matcher.exec(text); found !== null && count < 1000; found = matcher.exec(text)) {
      if (found[0].length === 0) break;
      count++;
      if (!first) first = { text, at: found.index, length: found[0].length, count: 0 };
    }
    return count < 1000;
  });
  if (!first) return null;
  return { ...(first as MessageMatch), count };
}

/** The tool a message is about: a tool result's tool, the first tool call's name, else null. */
export function messageToolName(message: LlmMessage): string | null {
  const m = message as { role?: unknown; toolName?: unknown; content?: unknown };
  if (typeof m.toolName === "string") return m.toolName;
  if (Array.isArray(m.content)) {
    for (const block of m.content) {
      const b = block as { type?: unknown; name?: unknown };
      if (b && b.type === "toolCall" && typeof b.name === "string") return b.name;
    }
  }
  return null;
}
