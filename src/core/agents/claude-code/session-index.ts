// One pass over a Claude Code session that indexes what every later stage needs: conversation
// entries by uuid and their children (compact boundaries hang under their `logicalParentUuid`,
// FM-CC-12; `progress` lines sit in the uuid chain since 2.1 and are passed through, so an entry
// under a progress line hangs under the progress line's nearest conversation ancestor), assistant entries grouped by API message (FM-CC-4), the `api-request` records with
// their shapes and blobs (FM-CC-18), and the default leaf (FM-CC-7). Cached per Session object.
import type { ReaderWarning, Session, SessionEntry } from "../../model";
import {
  assistantMessageId,
  isCompactBoundary,
  isConversationEntry,
  isSidechain,
  stringField,
} from "./records";
import { isObject } from "../../util/is-object";

export interface ApiRequestRecord {
  id: string;
  entry: SessionEntry;
  shapeHash: string | null;
  base: string | null;
  keep: number;
  tail: string[];
  cacheControl: { path: (string | number)[]; value: unknown }[];
  params: Record<string, unknown>;
  version: string | null;
  /** Send order among the file's api-request records (0-based). */
  order: number;
}

export interface ClaudeSessionIndex {
  byId: Map<string, SessionEntry>;
  /** Children by parent id, in file order; a compact boundary is a child of its logical parent. */
  children: Map<string, SessionEntry[]>;
  /** Assistant entries of each API message, in file order (FM-CC-4). */
  messageGroups: Map<string, SessionEntry[]>;
  /** Conversation entries in file order (user/assistant/attachment/system with a uuid). */
  conversation: SessionEntry[];
  /** `progress` lines by uuid: links of the chain, never part of a request or a path. */
  progress: Map<string, SessionEntry>;
  /** The conversation parent of each conversation entry with one (progress lines passed through). */
  parentOf: Map<string, string>;
  apiRequests: Map<string, ApiRequestRecord>;
  shapes: Map<string, Record<string, unknown>>;
  blobs: Map<string, Record<string, unknown>>;
  /** `leafUuid` of the last `last-prompt` record naming an existing entry. */
  lastPromptLeaf: string | null;
  /** First `entrypoint` seen on a conversation entry (for the billing header, FM-CC-19 step 5). */
  entrypoint: string | null;
  sessionId: string | null;
  warnings: ReaderWarning[];
}

const indexes = new WeakMap<Session, ClaudeSessionIndex>();

/** The logical parent of an entry: `parentUuid`, or `logicalParentUuid` across a compaction. */
function logicalParentId(entry: SessionEntry): string | null {
  if (entry.parentId !== null) return entry.parentId;
  return isCompactBoundary(entry) ? stringField(entry.raw, "logicalParentUuid") : null;
}

function readApiRequest(entry: SessionEntry, order: number, warnings: ReaderWarning[]): ApiRequestRecord | null {
  const raw = entry.raw;
  const id = stringField(raw, "id");
  if (!id || !Array.isArray(raw.tail)) {
    warnings.push({ line: entry.line, reason: "api-request record without `id` or `tail`: ignored" });
    return null;
  }
  const cacheControl: ApiRequestRecord["cacheControl"] = [];
  if (Array.isArray(raw.cacheControl)) {
    for (const item of raw.cacheControl) {
      if (isObject(item) && Array.isArray(item.path)) {
        cacheControl.push({ path: item.path.filter((p) => typeof p === "string" || typeof p === "number"), value: item.value });
      }
    }
  }
  return {
    id,
    entry,
    shapeHash: stringField(raw, "shapeHash"),
    base: stringField(raw, "base"),
    keep: typeof raw.keep === "number" && raw.keep >= 0 ? Math.floor(raw.keep) : 0,
    tail: raw.tail.filter((hash): hash is string => typeof hash === "string"),
    cacheControl,
    params: isObject(raw.params) ? raw.params : {},
    version: stringField(raw, "version"),
    order,
  };
}

export function getClaudeIndex(session: Session): ClaudeSessionIndex {
  const cached = indexes.get(session);
  if (cached) return cached;
  const index: ClaudeSessionIndex = {
    byId: new Map(),
    children: new Map(),
    messageGroups: new Map(),
    conversation: [],
    progress: new Map(),
    parentOf: new Map(),
    apiRequests: new Map(),
    shapes: new Map(),
    blobs: new Map(),
    lastPromptLeaf: null,
    entrypoint: null,
    sessionId: null,
    warnings: [],
  };
  const lastPromptLeaves: string[] = [];
  for (const entry of session.entries) {
    const raw = entry.raw;
    if (isConversationEntry(entry)) {
      index.byId.set(entry.id, entry);
      index.conversation.push(entry);
      if (index.entrypoint === null) index.entrypoint = stringField(raw, "entrypoint");
      if (index.sessionId === null) index.sessionId = stringField(raw, "sessionId");
      const messageId = assistantMessageId(entry);
      if (messageId !== null) {
        const group = index.messageGroups.get(messageId);
        if (group) group.push(entry);
        else index.messageGroups.set(messageId, [entry]);
      }
      continue;
    }
    switch (entry.type) {
      case "progress":
        if (typeof raw.uuid === "string") index.progress.set(entry.id, entry);
        break;
      case "api-request": {
        const record = readApiRequest(entry, index.apiRequests.size, index.warnings);
        if (record) index.apiRequests.set(record.id, record);
        break;
      }
      case "api-request-shape": {
        const hash = stringField(raw, "shapeHash");
        if (hash && isObject(raw.shape)) index.shapes.set(hash, raw.shape);
        else index.warnings.push({ line: entry.line, reason: "api-request-shape without `shapeHash` or `shape`: ignored" });
        break;
      }
      case "api-request-blob": {
        const hash = stringField(raw, "hash");
        if (hash && isObject(raw.message)) index.blobs.set(hash, raw.message);
        else index.warnings.push({ line: entry.line, reason: "api-request-blob without `hash` or `message`: ignored" });
        break;
      }
      case "last-prompt": {
        const leaf = stringField(raw, "leafUuid");
        if (leaf) lastPromptLeaves.push(leaf);
        break;
      }
      default:
        break;
    }
  }
  // The entry written just before, per side (main chain, sidechains): where an entry whose parent
  // is not in the file goes on from.
  const previousOnSide = new Map<boolean, SessionEntry>();
  for (const entry of index.conversation) {
    const side = isSidechain(entry);
    const previous = previousOnSide.get(side) ?? null;
    previousOnSide.set(side, entry);
    let parent = conversationParent(index, entry);
    if (parent === null) continue;
    if (!index.byId.has(parent)) {
      // Claude Code names as parent (or as a compact boundary's logical parent) an entry it did not
      // write to the file, such as one in flight when it compacted; it then goes on writing. The
      // chain goes on from the entry written before; only an entry with nothing before it starts
      // its own chain (a file that begins mid-session).
      if (previous === null) {
        index.warnings.push({ line: entry.line, reason: `parent ${parent} not found: entry starts its own chain` });
        continue;
      }
      parent = previous.id;
    }
    index.parentOf.set(entry.id, parent);
    const list = index.children.get(parent);
    if (list) list.push(entry);
    else index.children.set(parent, [entry]);
  }
  for (let i = lastPromptLeaves.length - 1; i >= 0; i--) {
    const leaf = lastPromptLeaves[i] as string;
    if (index.byId.has(leaf)) {
      index.lastPromptLeaf = leaf;
      break;
    }
  }
  indexes.set(session, index);
  return index;
}

/**
 * The logical parent of a conversation entry, passing through `progress` lines (hook, bash,
 * agent and search progress are links of the chain, not messages). Stops at a repeated id.
 */
function conversationParent(index: ClaudeSessionIndex, entry: SessionEntry): string | null {
  let parent = logicalParentId(entry);
  const seen = new Set<string>();
  while (parent !== null && !index.byId.has(parent)) {
    const link = index.progress.get(parent);
    if (!link || seen.has(parent)) break;
    seen.add(parent);
    parent = link.parentId;
  }
  return parent;
}

/** The parent `entry` hangs under in the index (null for a root or a broken link). */
function indexedParent(index: ClaudeSessionIndex, entry: SessionEntry): string | null {
  return index.parentOf.get(entry.id) ?? null;
}

/** Root-to-leaf path of `leafId`, following logical parents; stops (with a warning) at a cycle. */
export function pathTo(index: ClaudeSessionIndex, leafId: string): { path: SessionEntry[]; warning: ReaderWarning | null } {
  const reversed: SessionEntry[] = [];
  const seen = new Set<string>();
  let warning: ReaderWarning | null = null;
  let current = index.byId.get(leafId) ?? null;
  while (current) {
    if (seen.has(current.id)) {
      warning = { line: current.line, reason: `parent cycle at ${current.id}: path cut there` };
      break;
    }
    seen.add(current.id);
    reversed.push(current);
    const parent = indexedParent(index, current);
    current = parent === null ? null : (index.byId.get(parent) ?? null);
  }
  return { path: reversed.reverse(), warning };
}

/** The default leaf (FM-CC-7): the last `last-prompt` leaf, else the last main-chain entry. */
export function defaultLeaf(index: ClaudeSessionIndex): string | null {
  if (index.lastPromptLeaf) return index.lastPromptLeaf;
  for (let i = index.conversation.length - 1; i >= 0; i--) {
    const entry = index.conversation[i] as SessionEntry;
    if (!isSidechain(entry)) return entry.id;
  }
  const last = index.conversation[index.conversation.length - 1];
  return last ? last.id : null;
}

/**
 * True for a childless entry that only exists because one API message was stored as several
 * entries (FM-CC-4): a tool result hanging under one block of a message whose other block carries
 * the conversation on. Such leaves are not branches.
 */
function isParallelToolLeaf(index: ClaudeSessionIndex, entry: SessionEntry): boolean {
  let anchor: SessionEntry | undefined = entry;
  if (entry.type === "user") {
    const parent = indexedParent(index, entry);
    anchor = parent === null ? undefined : index.byId.get(parent);
  }
  if (!anchor || anchor.type !== "assistant") return false;
  const group = index.messageGroups.get(assistantMessageId(anchor) ?? "");
  if (!group || group.length < 2) return false;
  return group.some((member) => member !== anchor && member.id !== entry.id && hasNonToolContinuation(index, member, entry));
}

function hasNonToolContinuation(index: ClaudeSessionIndex, member: SessionEntry, leaf: SessionEntry): boolean {
  const children = index.children.get(member.id) ?? [];
  return children.some((child) => child.id !== leaf.id && (index.children.get(child.id)?.length ?? 0) > 0);
}

/** Childless conversation entries that end a branch, in file order. */
export function branchLeaves(index: ClaudeSessionIndex): SessionEntry[] {
  const leaves: SessionEntry[] = [];
  for (const entry of index.conversation) {
    if ((index.children.get(entry.id)?.length ?? 0) > 0) continue;
    if (isParallelToolLeaf(index, entry)) continue;
    leaves.push(entry);
  }
  return leaves;
}
