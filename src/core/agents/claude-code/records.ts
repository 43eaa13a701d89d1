// Typed views of Claude Code transcript entries (formats.md FM-CC-2 … FM-CC-5, FM-CC-12, FM-CC-18).
// The reader keeps each line's parsed object in `SessionEntry.raw`; these helpers read the fields
// the pipeline needs without trusting their types.
import type { ServerCacheVerdict, SessionEntry } from "../../model";
import { canonicalJson } from "../../util/canonical-json";
import { isObject } from "../../util/is-object";
import { isText, textUnits } from "../../text/text";

export function stringField(raw: Record<string, unknown>, key: string): string | null {
  const value = raw[key];
  return typeof value === "string" ? value : null;
}

/** `{role, content, …}` of a user/assistant entry, or null when the entry has none. */
export function entryMessage(entry: SessionEntry): Record<string, unknown> | null {
  const message = entry.raw.message;
  return isObject(message) && typeof message.role === "string" ? message : null;
}

export function isConversationEntry(entry: SessionEntry): boolean {
  return (
    typeof entry.raw.uuid === "string" &&
    (entry.type === "user" || entry.type === "assistant" || entry.type === "attachment" || entry.type === "system")
  );
}

export function isSidechain(entry: SessionEntry): boolean {
  return entry.raw.isSidechain === true;
}

export function isCompactBoundary(entry: SessionEntry): boolean {
  return entry.type === "system" && entry.raw.subtype === "compact_boundary";
}

/**
 * The model name Claude Code gives the assistant messages it writes itself, without a request:
 * "No response requested." after a local command, an API error notice, an interruption. Their
 * usage is all zeros; they are session events, never turns.
 */
const SYNTHETIC_MODEL = "<synthetic>";

export function isSyntheticAssistant(entry: SessionEntry): boolean {
  return entry.type === "assistant" && entryMessage(entry)?.model === SYNTHETIC_MODEL;
}

/** `message.id` of an assistant entry: one API response may span several entries (FM-CC-4). */
export function assistantMessageId(entry: SessionEntry): string | null {
  if (entry.type !== "assistant") return null;
  const message = entryMessage(entry);
  if (message && typeof message.id === "string") return message.id;
  return stringField(entry.raw, "requestId") ?? entry.id;
}

/** A content list in block form (a string content, or one kept as bytes, is one text block). */
export function contentBlocks(content: unknown): unknown[] {
  if (isText(content)) return [{ type: "text", text: content }];
  return Array.isArray(content) ? content : [];
}

export interface ClaudeUsage {
  input_tokens?: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
  output_tokens?: number;
  [key: string]: unknown;
}

export function entryUsage(entry: SessionEntry): ClaudeUsage | null {
  const message = entryMessage(entry);
  return message && isObject(message.usage) ? (message.usage as ClaudeUsage) : null;
}

/**
 * The server's cache diagnosis Claude Code writes on an assistant line (2.1.143 and later:
 * `message.diagnostics`, Anthropic's cache diagnostics beta): `null` there means the server
 * compared the request with the previous one and found nothing diverged; a `cache_miss_reason`
 * names what diverged first (`tools_changed`, …, with `cache_missed_input_tokens`) or why it could
 * not tell (`previous_message_not_found`, `unavailable`); an object without one, a comparison still
 * running when the response was written. Undefined when the line has no `diagnostics` (older
 * versions) or holds one this reader cannot read.
 */
export function entryCacheVerdict(entry: SessionEntry): ServerCacheVerdict | undefined {
  const message = entryMessage(entry);
  if (!message || !("diagnostics" in message)) return undefined;
  const diagnostics = message.diagnostics;
  if (diagnostics === null) return { type: "none", missedTokens: null };
  if (!isObject(diagnostics)) return undefined;
  const reason = diagnostics.cache_miss_reason;
  if (reason === null || reason === undefined) return { type: "pending", missedTokens: null };
  if (!isObject(reason) || typeof reason.type !== "string") return undefined;
  const missed = reason.cache_missed_input_tokens;
  return { type: reason.type, missedTokens: typeof missed === "number" && Number.isFinite(missed) ? missed : null };
}

export function numberOr(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}

/**
 * A key equal for equal blocks and cheap to take: the block's type, its id and the length of its
 * text. Two blocks with different keys differ; only blocks with the same key are compared whole.
 */
function blockSketch(block: unknown): string {
  if (!isObject(block)) return typeof block;
  const text = isText(block.text) ? textUnits(block.text) : isText(block.thinking) ? textUnits(block.thinking) : -1;
  return `${String(block.type)}\u0000${typeof block.id === "string" ? block.id : ""}\u0000${text}`;
}

/**
 * The merged blocks of one API message (FM-CC-4): every entry's blocks, duplicates dropped. A
 * block is rendered as canonical JSON (which reads a text kept as bytes) only when an earlier block
 * has the same sketch: the entries of one message usually hold one distinct block each.
 */
export function mergedAssistantMessage(group: readonly SessionEntry[]): Record<string, unknown> {
  const blocks: unknown[] = [];
  // The blocks kept so far by sketch, each with its canonical JSON once it has been rendered.
  const bySketch = new Map<string, { block: unknown; key: string | null }[]>();
  for (const entry of group) {
    for (const block of contentBlocks(entryMessage(entry)?.content)) {
      const sketch = blockSketch(block);
      const earlier = bySketch.get(sketch);
      if (earlier === undefined) {
        bySketch.set(sketch, [{ block, key: null }]);
        blocks.push(block);
        continue;
      }
      const key = canonicalJson(block);
      let seen = false;
      for (const kept of earlier) {
        kept.key ??= canonicalJson(kept.block);
        if (kept.key === key) seen = true;
      }
      if (seen) continue;
      earlier.push({ block, key });
      blocks.push(block);
    }
  }
  return { role: "assistant", content: blocks };
}
