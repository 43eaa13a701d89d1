// Rebuilds the `messages` of a main request from Claude Code's `api-request` records (FM-CC-19
// steps 1–2): messages(base)[0:keep] + the messages named by the tail hashes. A hash names an
// `api-request-blob`, or else a transcript message whose canonical `{role, content}` hashes to it.
// Transcript candidates are hashed lazily, in two stages (single entries first, merged forms only
// when a hash is still unknown), once per session.
import type { ReaderWarning, Session, SessionEntry } from "../../model";
import { canonicalJson } from "../../util/canonical-json";
import { isText } from "../../text/text";
import { sha256Hex } from "../../util/sha256";
import { assistantMessageId, contentBlocks, entryMessage, isConversationEntry, mergedAssistantMessage } from "./records";
import { getClaudeIndex, type ApiRequestRecord, type ClaudeSessionIndex } from "./session-index";
import { recordSharedHead } from "../../util/list-lineage";

/** A wire message and where it came from. */
export interface SourcedMessage {
  message: Record<string, unknown>;
  /** "blob": an api-request-blob; "entry": transcript entries; "missing": hash not found. */
  source: "blob" | "entry" | "missing";
  /** Transcript entries the message was taken from (empty for blobs). */
  entryIds: string[];
  hash: string;
}

/** A transcript message hashed as a candidate: stage 1 for one entry's message, 2 for merged ones. */
interface Candidate {
  message: Record<string, unknown>;
  entryIds: string[];
  stage: 1 | 2;
}

interface RecordCache {
  candidates: Map<string, Candidate>;
  stage: 0 | 1 | 2;
  resolved: Map<string, SourcedMessage>;
  /** The stage of the candidate each hash was resolved to (hashes resolved to transcript messages). */
  resolvedStage: Map<string, 1 | 2>;
  /** The hash of each API message's merged candidate (stage 2). */
  mergedHashes: Map<string, string>;
  messages: Map<string, SourcedMessage[]>;
  warnings: ReaderWarning[];
}

const caches = new WeakMap<Session, RecordCache>();

function cacheFor(session: Session): RecordCache {
  let cache = caches.get(session);
  if (!cache) {
    cache = { candidates: new Map(), stage: 0, resolved: new Map(), resolvedStage: new Map(), mergedHashes: new Map(), messages: new Map(), warnings: [] };
    caches.set(session, cache);
  }
  return cache;
}

/** The record cache of a session: an analysis keeps what it built from it while it is the same object. */
export function recordCacheOf(session: Session): object {
  return cacheFor(session);
}

/**
 * `next` is `previous` with `appended` lines, its index carried over (`index`): the messages rebuilt
 * so far stay true, and the transcript messages hashed so far are joined by the appended ones as
 * a pass over the whole file would have hashed them, unless a hash may now resolve otherwise: a
 * hash resolved to nothing (a warning), an appended blob of a hash resolved to a transcript
 * message, an appended message hashing like a merged candidate already hashed (the pass over the
 * whole file hashes single messages first), a merged API message that grew after it was used.
 * Then `next` starts a cache of its own.
 */
export function carryClaudeRecords(previous: Session, next: Session, appended: readonly SessionEntry[], index: ClaudeSessionIndex): void {
  const cache = caches.get(previous);
  if (!cache || caches.has(next)) return;
  caches.delete(previous);
  if (cache.warnings.length > 0) return;
  for (const entry of appended) {
    const hash = entry.type === "api-request-blob" ? entry.raw.hash : null;
    if (typeof hash === "string" && cache.resolved.has(hash) && cache.resolved.get(hash)?.source !== "blob") return;
  }
  if (cache.stage > 0 && !extendCandidates(cache, index, appended)) return;
  caches.set(next, cache);
}

function extendCandidates(cache: RecordCache, index: ClaudeSessionIndex, appended: readonly SessionEntry[]): boolean {
  const added = appended.filter(isConversationEntry);
  const oldLength = index.conversation.length - added.length;
  const merged = cache.stage === 2;
  // Grown API messages: their merged candidate was of fewer entries.
  const grown = new Set<string>();
  for (const entry of added) {
    const messageId = assistantMessageId(entry);
    const group = messageId === null ? undefined : index.messageGroups.get(messageId);
    if (messageId !== null && group && !added.includes(group[0] as SessionEntry)) grown.add(messageId);
  }
  if (merged) {
    for (const messageId of grown) {
      const hash = cache.mergedHashes.get(messageId);
      if (hash === undefined) continue;
      if (cache.resolvedStage.get(hash) === 2) return false;
      const candidate = cache.candidates.get(hash);
      if (candidate && candidate.stage === 2 && candidate.entryIds[0] === index.messageGroups.get(messageId)?.[0]?.id) cache.candidates.delete(hash);
    }
  }
  // A single message comes before every merged one: it takes a hash a merged candidate had, unless that one was used.
  for (const entry of added) {
    const message = plainMessage(entry);
    if (!message) continue;
    const ok = addCandidate(cache, message, [entry.id], 1, (hash) => {
      if (cache.resolvedStage.get(hash) === 2) return true;
      if (cache.candidates.get(hash)?.stage === 2) cache.candidates.delete(hash);
      return false;
    });
    if (!ok) return false;
  }
  if (!merged) return true;
  // Merged candidates of new or grown API messages and of user runs ending in the new entries; a hash
  // a merged candidate has already may belong to another merged message first in the file: start again.
  const takenByMerged = (hash: string) => cache.candidates.get(hash)?.stage === 2;
  const messageIds = new Set<string>();
  for (const entry of added) {
    const messageId = assistantMessageId(entry);
    if (messageId !== null) messageIds.add(messageId);
  }
  for (const messageId of messageIds) {
    const group = index.messageGroups.get(messageId) as SessionEntry[];
    if (group.length >= 2 && !addGroupCandidate(cache, messageId, group, takenByMerged)) return false;
  }
  let runFrom = oldLength;
  while (runFrom > 0 && (index.conversation[runFrom - 1] as SessionEntry).type !== "assistant") runFrom -= 1;
  return addRunCandidates(cache, index.conversation, runFrom, oldLength, takenByMerged);
}

export function messageHash(message: Record<string, unknown>): string {
  return sha256Hex(canonicalJson({ role: message.role, content: message.content }));
}

/**
 * Adds the candidate(s) of `message` where no candidate has the hash yet; returns false (and adds
 * nothing more) when `conflicts` says a hash already known may not be kept.
 */
function addCandidate(cache: RecordCache, message: Record<string, unknown>, entryIds: string[], stage: 1 | 2, conflicts?: (hash: string) => boolean): boolean {
  const forms: Record<string, unknown>[] = [message];
  // A string content is also hashed in its one-text-block form (FM-CC-19 step 2).
  if (isText(message.content)) forms.push({ role: message.role, content: contentBlocks(message.content) });
  for (const form of forms) {
    const hash = messageHash(form);
    if (conflicts?.(hash)) return false;
    if (!cache.candidates.has(hash)) cache.candidates.set(hash, { message: form, entryIds, stage });
  }
  return true;
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
    if (message) addCandidate(cache, message, [entry.id], 1);
  }
}

const MAX_MERGED_RUN = 8;

/** Stage 2: assistant entries merged per API message; runs of consecutive user entries merged. */
function addMergedCandidates(cache: RecordCache, index: ClaudeSessionIndex): void {
  for (const [messageId, group] of index.messageGroups) {
    if (group.length >= 2) addGroupCandidate(cache, messageId, group);
  }
  addRunCandidates(cache, index.conversation, 0, 0);
}

function addGroupCandidate(cache: RecordCache, messageId: string, group: SessionEntry[], conflicts?: (hash: string) => boolean): boolean {
  const message = mergedAssistantMessage(group);
  cache.mergedHashes.set(messageId, messageHash(message));
  return addCandidate(cache, message, group.map((entry) => entry.id), 2, conflicts);
}

/**
 * Merged candidates of the runs of consecutive user entries of `conversation`: each sub-run of
 * two or more entries that ends at or after `from` (the sub-runs ending before it were added).
 */
function addRunCandidates(cache: RecordCache, conversation: readonly SessionEntry[], scanFrom: number, from: number, conflicts?: (hash: string) => boolean): boolean {
  let run: SessionEntry[] = [];
  /** Where each entry of the run is in `conversation` (attachments and notices between do not end a run). */
  let runAt: number[] = [];
  let ok = true;
  const flush = () => {
    // Every contiguous sub-run of two or more entries (runs are short in practice).
    for (let start = 0; start < run.length; start++) {
      const blocks: unknown[] = [];
      for (let end = start; end < run.length && end - start < MAX_MERGED_RUN; end++) {
        blocks.push(...contentBlocks(entryMessage(run[end] as SessionEntry)?.content));
        if (end > start && (runAt[end] as number) >= from && ok) {
          ok = addCandidate(cache, { role: "user", content: blocks.slice() }, run.slice(start, end + 1).map((entry) => entry.id), 2, conflicts);
        }
      }
    }
    run = [];
    runAt = [];
  };
  for (let at = scanFrom; at < conversation.length; at++) {
    const entry = conversation[at] as SessionEntry;
    if (entry.type === "user" && plainMessage(entry)) {
      run.push(entry);
      runAt.push(at);
    } else if (entry.type === "assistant") flush();
  }
  flush();
  return ok;
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
      cache.resolvedStage.set(hash, candidate.stage);
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
    // Its head is its base's: the layers after this one (the turn's lists, the segmenter) keep it unchecked.
    if (item.base !== null) recordSharedHead(messages, baseMessages, Math.min(item.keep, baseMessages.length));
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

