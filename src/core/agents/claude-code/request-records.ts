// Rebuilds the `messages` of a main request from Claude Code's `api-request` records (FM-CC-19
// steps 1–2): messages(base)[0:keep] + the messages named by the tail hashes. A hash names an
// `api-request-blob`, or else a transcript message whose canonical `{role, content}` hashes to it.
// Transcript candidates are hashed lazily, in two stages (single entries first, merged forms only
// when a hash is still unknown), once per session.
import type { ReaderWarning, Session, SessionEntry } from "../../model";
import { canonicalJson } from "../../util/canonical-json";
import { sha256Hex } from "../../util/sha256";
import { contentBlocks, entryMessage, mergedAssistantMessage } from "./records";
import { getClaudeIndex, type ApiRequestRecord, type ClaudeSessionIndex } from "./session-index";

/** A wire message and where it came from. */
export interface SourcedMessage {
  message: Record<string, unknown>;
  /** "blob": an api-request-blob; "entry": transcript entries; "missing": hash not found. */
  source: "blob" | "entry" | "missing";
  /** Transcript entries the message was taken from (empty for blobs). */
  entryIds: string[];
  hash: string;
}

interface RecordCache {
  candidates: Map<string, { message: Record<string, unknown>; entryIds: string[] }>;
  stage: 0 | 1 | 2;
  resolved: Map<string, SourcedMessage>;
  messages: Map<string, SourcedMessage[]>;
  warnings: ReaderWarning[];
}

const caches = new WeakMap<Session, RecordCache>();

function cacheFor(session: Session): RecordCache {
  let cache = caches.get(session);
  if (!cache) {
    cache = { candidates: new Map(), stage: 0, resolved: new Map(), messages: new Map(), warnings: [] };
    caches.set(session, cache);
  }
  return cache;
}

export function messageHash(message: Record<string, unknown>): string {
  return sha256Hex(canonicalJson({ role: message.role, content: message.content }));
}

function addCandidate(cache: RecordCache, message: Record<string, unknown>, entryIds: string[]): void {
  const hash = messageHash(message);
  if (!cache.candidates.has(hash)) cache.candidates.set(hash, { message, entryIds });
  if (typeof message.content === "string") {
    // A string content is also hashed in its one-text-block form (FM-CC-19 step 2).
    const asBlocks = { role: message.role, content: contentBlocks(message.content) };
    const blockHash = messageHash(asBlocks);
    if (!cache.candidates.has(blockHash)) cache.candidates.set(blockHash, { message: asBlocks, entryIds });
  }
}

function plainMessage(entry: SessionEntry): Record<string, unknown> | null {
  const message = entryMessage(entry);
  if (!message || (message.role !== "user" && message.role !== "assistant")) return null;
  return { role: message.role, content: message.content };
}

/** Stage 1: every user/assistant entry's own `{role, content}`. */
function addSingleCandidates(cache: RecordCache, index: ClaudeSessionIndex): void {
  for (const entry of index.conversation) {
    const message = plainMessage(entry);
    if (message) addCandidate(cache, message, [entry.id]);
  }
}

const MAX_MERGED_RUN = 8;

/** Stage 2: assistant entries merged per API message; runs of consecutive user entries merged. */
function addMergedCandidates(cache: RecordCache, index: ClaudeSessionIndex): void {
  for (const group of index.messageGroups.values()) {
    if (group.length < 2) continue;
    addCandidate(cache, mergedAssistantMessage(group), group.map((entry) => entry.id));
  }
  let run: SessionEntry[] = [];
  const flush = () => {
    // Every contiguous sub-run of two or more entries (runs are short in practice).
    for (let start = 0; start < run.length; start++) {
      const blocks: unknown[] = [];
      for (let end = start; end < run.length && end - start < MAX_MERGED_RUN; end++) {
        blocks.push(...contentBlocks(entryMessage(run[end] as SessionEntry)?.content));
        if (end > start) {
          addCandidate(
            cache,
            { role: "user", content: blocks.slice() },
            run.slice(start, end + 1).map((entry) => entry.id),
          );
        }
      }
    }
    run = [];
  };
  for (const entry of index.conversation) {
    if (entry.type === "user" && plainMessage(entry)) run.push(entry);
    else if (entry.type === "assistant") flush();
  }
  flush();
}

function resolveHash(index: ClaudeSessionIndex, cache: RecordCache, hash: string): SourcedMessage {
  const known = cache.resolved.get(hash);
  if (known) return known;
  let found: SourcedMessage | null = null;
  const blob = index.blobs.get(hash);
  if (blob) found = { message: blob, source: "blob", entryIds: [], hash };
  while (!found) {
    const candidate = cache.candidates.get(hash);
    if (candidate) {
      found = { message: candidate.message, source: "entry", entryIds: candidate.entryIds, hash };
      break;
    }
    if (cache.stage === 0) {
      addSingleCandidates(cache, index);
      cache.stage = 1;
    } else if (cache.stage === 1) {
      addMergedCandidates(cache, index);
      cache.stage = 2;
    } else break;
  }
  if (!found) {
    found = {
      message: { role: "user", content: [{ type: "text", text: `[not recorded: message ${hash}]` }] },
      source: "missing",
      entryIds: [],
      hash,
    };
    cache.warnings.push({ line: 0, reason: `api-request tail hash ${hash} matches no blob and no transcript message` });
  }
  cache.resolved.set(hash, found);
  return found;
}

/**
 * The rebuilt message list of one api-request (FM-CC-19 step 1), memoised per record. Follows
 * `base` iteratively so long chains of deltas cannot overflow the stack.
 */
export function recordMessages(session: Session, record: ApiRequestRecord): SourcedMessage[] {
  const index = getClaudeIndex(session);
  const cache = cacheFor(session);
  const pending: ApiRequestRecord[] = [];
  const visiting = new Set<string>();
  let current: ApiRequestRecord | null = record;
  while (current && !cache.messages.has(current.id)) {
    if (visiting.has(current.id)) {
      cache.warnings.push({ line: current.entry.line, reason: `api-request ${current.id}: base cycle, base ignored` });
      break;
    }
    visiting.add(current.id);
    pending.push(current);
    if (current.base === null) break;
    const base = index.apiRequests.get(current.base);
    if (!base) {
      cache.warnings.push({ line: current.entry.line, reason: `api-request ${current.id}: base ${current.base} not found` });
      break;
    }
    current = base;
  }
  for (let i = pending.length - 1; i >= 0; i--) {
    const item = pending[i] as ApiRequestRecord;
    const baseMessages = item.base !== null ? (cache.messages.get(item.base) ?? []) : [];
    const messages = baseMessages.slice(0, item.keep);
    if (item.keep > baseMessages.length && item.base !== null) {
      cache.warnings.push({
        line: item.entry.line,
        reason: `api-request ${item.id}: keep ${item.keep} exceeds the ${baseMessages.length} messages of its base`,
      });
    }
    for (const hash of item.tail) messages.push(resolveHash(index, cache, hash));
    cache.messages.set(item.id, messages);
  }
  return cache.messages.get(record.id) ?? [];
}

/** Warnings raised so far while resolving records (missing hashes, broken bases). */
export function recordWarnings(session: Session): ReaderWarning[] {
  return cacheFor(session).warnings.slice();
}

/** The `message.id` groups' requestRef: the api-request that produced an assistant message. */
export function requestRefOf(index: ClaudeSessionIndex, group: SessionEntry[]): ApiRequestRecord | null {
  for (const entry of group) {
    const ref = entry.raw.requestRef;
    if (typeof ref === "string") {
      const record = index.apiRequests.get(ref);
      if (record) return record;
    }
  }
  return null;
}

