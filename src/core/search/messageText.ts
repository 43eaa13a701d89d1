// The searchable text of one context message: every string it carries (text, thinking, tool call
// names and arguments with their file paths, tool result names and output), images' base64 data
// and opaque signatures left out. Computed once per message object and kept lowercased, so a
// session's search costs one pass over its distinct messages, whatever the number of turns.
import type { LlmMessage } from "../model";

/** Keys whose strings are opaque blobs, not words a user would search for. */
const SKIPPED_KEYS = new Set(["data", "signature", "thinkingSignature", "textSignature", "encrypted_content", "encryptedContent", "timestamp"]);
const MAX_DEPTH = 64;

const textCache = new WeakMap<object, { text: string; lower: string }>();

function collect(value: unknown, out: string[], depth: number): void {
  if (depth > MAX_DEPTH) return;
  if (typeof value === "string") {
    if (value.length > 0) out.push(value);
    return;
  }
  if (typeof value !== "object" || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) collect(item, out, depth + 1);
    return;
  }
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (SKIPPED_KEYS.has(key)) continue;
    // Tool call arguments are objects: their keys (a "path" beside its value) help a search too.
    if (key === "arguments" || key === "input" || key === "args") {
      out.push(typeof item === "string" ? item : safeJson(item));
      continue;
    }
    collect(item, out, depth + 1);
  }
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return "";
  }
}

/** The message's text (original case) and its lowercase form, cached per message object. */
export function messageSearchText(message: LlmMessage): { text: string; lower: string } {
  const cached = textCache.get(message);
  if (cached) return cached;
  const parts: string[] = [];
  collect(message, parts, 0);
  const text = parts.join("\n");
  const entry = { text, lower: text.toLowerCase() };
  textCache.set(message, entry);
  return entry;
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
