// One pass over a Claude Code session that indexes what every later stage needs: conversation
// entries by uuid and their children (compact boundaries hang under their `logicalParentUuid`,
// FM-CC-12; `progress` lines sit in the uuid chain since 2.1 and are passed through, so an entry
// under a progress line hangs under the progress line's nearest conversation ancestor), assistant entries grouped by API message (FM-CC-4), the `api-request` records with
// their shapes and blobs (FM-CC-18), and the default leaf (FM-CC-7). Cached per Session object;
// when a followed transcript grows, the index moves to the new Session value and takes the
// appended lines (`carryClaudeIndex`), unless they change how the earlier lines read.
import type { ReaderWarning, Session, SessionEntry } from "../../model";
import {
  assistantMessageId,
  isCompactBoundary,
  isConversationEntry,
  isSidechain,
  stringField,
} from "./records";
import { canonicalJson } from "../../util/canonical-json";
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
  /** The main chain's first entry names a parent the file does not hold: the file starts mid-session. */
  startsMidSession?: boolean;
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

/**
 * What the pass over a session's lines keeps besides the index, so that the index of the session
 * grown by appended lines goes on from it (`carryClaudeIndex`): where each side's chain stands,
 * and the ids the earlier lines looked for and did not find (an appended line with such an id
 * would change how they read).
 */
interface IndexPass {
  /** Lines indexed so far. */
  consumed: number;
  /** The entry written last, per side (main chain, sidechains): where an entry whose parent is not in the file goes on from. */
  previousOnSide: Map<boolean, SessionEntry>;
  lastPromptLeaves: string[];
  /** Parent ids an entry (or a progress line it passes through) names that are no conversation entry. */
  unresolvedParents: Set<string>;
  /** `requestRef`s of the conversation entries. */
  requestRefs: Set<string>;
  /** The compact boundaries naming each id as a preserved message or their anchor (FM-CC-14). */
  preservedBy: Map<string, SessionEntry[]>;
  /** Warnings of the lines themselves, then of their parents: the order of a pass over the whole file. */
  lineWarnings: ReaderWarning[];
  parentWarnings: ReaderWarning[];
  /** How many times the index grew; `touched` holds, per entry whose children or API message grew, the growth that did it. */
  generation: number;
  touched: Map<string, number>;
}

const passes = new WeakMap<ClaudeSessionIndex, IndexPass>();

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
  const pass: IndexPass = {
    consumed: 0,
    previousOnSide: new Map(),
    lastPromptLeaves: [],
    unresolvedParents: new Set(),
    requestRefs: new Set(),
    preservedBy: new Map(),
    lineWarnings: [],
    parentWarnings: [],
    generation: 0,
    touched: new Map(),
  };
  indexEntries(index, pass, session.entries);
  passes.set(index, pass);
  indexes.set(session, index);
  return index;
}

/** Adds `entries` (the lines after those indexed so far) to the index. */
function indexEntries(index: ClaudeSessionIndex, pass: IndexPass, entries: readonly SessionEntry[]): void {
  const firstNew = index.conversation.length;
  for (const entry of entries) {
    const raw = entry.raw;
    if (isConversationEntry(entry)) {
      index.byId.set(entry.id, entry);
      index.conversation.push(entry);
      if (index.entrypoint === null) index.entrypoint = stringField(raw, "entrypoint");
      if (index.sessionId === null) index.sessionId = stringField(raw, "sessionId");
      const ref = raw.requestRef;
      if (typeof ref === "string") pass.requestRefs.add(ref);
      if (isCompactBoundary(entry)) {
        for (const id of preservedIdsOf(entry)) {
          const boundaries = pass.preservedBy.get(id);
          if (boundaries) boundaries.push(entry);
          else pass.preservedBy.set(id, [entry]);
        }
      }
      // A message a boundary named arrives (its summary, written just after it): the requests after the boundary read it.
      if (pass.generation > 0) touch(pass, entry.id);
      const messageId = assistantMessageId(entry);
      if (messageId !== null) {
        const group = index.messageGroups.get(messageId);
        if (group) {
          // An earlier entry's API message grew: what was built from it is out of date.
          if (pass.generation > 0) for (const member of group) touch(pass, member.id);
          group.push(entry);
        } else index.messageGroups.set(messageId, [entry]);
      }
      continue;
    }
    switch (entry.type) {
      case "progress":
        if (typeof raw.uuid === "string") index.progress.set(entry.id, entry);
        break;
      case "api-request": {
        const record = readApiRequest(entry, index.apiRequests.size, pass.lineWarnings);
        if (record) index.apiRequests.set(record.id, record);
        break;
      }
      case "api-request-shape": {
        const hash = stringField(raw, "shapeHash");
        if (hash && isObject(raw.shape)) index.shapes.set(hash, raw.shape);
        else pass.lineWarnings.push({ line: entry.line, reason: "api-request-shape without `shapeHash` or `shape`: ignored" });
        break;
      }
      case "api-request-blob": {
        const hash = stringField(raw, "hash");
        if (hash && isObject(raw.message)) index.blobs.set(hash, raw.message);
        else pass.lineWarnings.push({ line: entry.line, reason: "api-request-blob without `hash` or `message`: ignored" });
        break;
      }
      case "last-prompt": {
        const leaf = stringField(raw, "leafUuid");
        if (leaf) pass.lastPromptLeaves.push(leaf);
        break;
      }
      default:
        break;
    }
  }
  pass.consumed += entries.length;
  for (let at = firstNew; at < index.conversation.length; at++) {
    const entry = index.conversation[at] as SessionEntry;
    const side = isSidechain(entry);
    const previous = pass.previousOnSide.get(side) ?? null;
    pass.previousOnSide.set(side, entry);
    let parent = conversationParent(index, entry);
    if (parent === null) continue;
    if (!index.byId.has(parent)) {
      pass.unresolvedParents.add(parent);
      // Claude Code names as parent (or as a compact boundary's logical parent) an entry it did not
      // write to the file, such as one in flight when it compacted; it then goes on writing. The
      // chain goes on from the entry written before; only an entry with nothing before it starts
      // its own chain (a file that begins mid-session).
      if (previous === null) {
        if (!side) index.startsMidSession = true;
        const reason = side
          ? `parent ${parent} not found: entry starts its own chain`
          : `this file starts mid-session: the parent ${parent} of its first entry is not in it, so the earlier conversation is missing`;
        pass.parentWarnings.push({ line: entry.line, reason });
        continue;
      }
      parent = previous.id;
    }
    index.parentOf.set(entry.id, parent);
    const list = index.children.get(parent);
    if (list) list.push(entry);
    else index.children.set(parent, [entry]);
    // A child of an earlier entry: what was built from that entry's API message is out of date.
    if (pass.generation > 0) touchWithMessage(index, pass, parent);
  }
  index.lastPromptLeaf = null;
  for (let i = pass.lastPromptLeaves.length - 1; i >= 0; i--) {
    const leaf = pass.lastPromptLeaves[i] as string;
    if (index.byId.has(leaf)) {
      index.lastPromptLeaf = leaf;
      break;
    }
  }
  index.warnings = [...pass.lineWarnings, ...pass.parentWarnings];
}

/** Marks `id` (and every entry of its API message) as changed by this growth. */
function touchWithMessage(index: ClaudeSessionIndex, pass: IndexPass, id: string): void {
  touch(pass, id);
  const entry = index.byId.get(id);
  const group = entry ? index.messageGroups.get(assistantMessageId(entry) ?? "") : undefined;
  if (group) for (const member of group) touch(pass, member.id);
}

/**
 * Marks entry `id` as changed by this growth, and the compact boundaries that name it as a
 * preserved message: the requests after such a boundary read it from there, off their path.
 */
function touch(pass: IndexPass, id: string): void {
  pass.touched.set(id, pass.generation);
  for (const boundary of pass.preservedBy.get(id) ?? []) pass.touched.set(boundary.id, pass.generation);
}

function preservedIdsOf(boundary: SessionEntry): string[] {
  const metadata = boundary.raw.compactMetadata;
  const preserved = isObject(metadata) && isObject(metadata.preservedMessages) ? metadata.preservedMessages : null;
  if (!preserved) return [];
  const ids = Array.isArray(preserved.uuids) ? preserved.uuids.filter((id): id is string => typeof id === "string") : [];
  const anchor = stringField(preserved, "anchorUuid");
  return anchor === null ? ids : [...ids, anchor];
}

/**
 * True when appending `appended` to the lines indexed in `index` leaves their reading as it is:
 * no id used again, no entry or progress line an earlier line looked for, no api-request an
 * earlier entry names or the first api-request of the file, no blob or shape hash given again with other content.
 */
function extendsWith(index: ClaudeSessionIndex, pass: IndexPass, appended: readonly SessionEntry[]): boolean {
  const hadRecords = index.apiRequests.size > 0;
  for (const entry of appended) {
    const raw = entry.raw;
    if (isConversationEntry(entry) || (entry.type === "progress" && typeof raw.uuid === "string")) {
      const id = entry.id;
      if (index.byId.has(id) || index.progress.has(id) || pass.unresolvedParents.has(id)) return false;
      continue;
    }
    switch (entry.type) {
      case "api-request": {
        const id = stringField(raw, "id");
        if (!hadRecords || (id !== null && (index.apiRequests.has(id) || pass.requestRefs.has(id)))) return false;
        break;
      }
      // Claude Code records a shape or a blob again (a resumed session): the same hash names the same content.
      case "api-request-shape": {
        const hash = stringField(raw, "shapeHash");
        if (!sameContent(hash === null ? undefined : index.shapes.get(hash), raw.shape)) return false;
        break;
      }
      case "api-request-blob": {
        const hash = stringField(raw, "hash");
        if (!sameContent(hash === null ? undefined : index.blobs.get(hash), raw.message)) return false;
        break;
      }
      default:
        break;
    }
  }
  return true;
}

/** True when nothing was recorded under the hash before, or the same content. */
function sameContent(recorded: Record<string, unknown> | undefined, appended: unknown): boolean {
  return recorded === undefined || canonicalJson(recorded) === canonicalJson(appended);
}

/**
 * `next` is `previous` with lines appended: the index of `previous` moves to `next` and takes the
 * appended lines, unless they change how the earlier lines read (`extendsWith`); then `next` is
 * indexed from its first line. Returns the appended lines when the index moved, else null.
 */
export function carryClaudeIndex(previous: Session, next: Session): readonly SessionEntry[] | null {
  const index = indexes.get(previous);
  const pass = index ? passes.get(index) : undefined;
  if (!index || !pass || indexes.has(next)) return null;
  indexes.delete(previous);
  const appended = next.entries.slice(pass.consumed);
  if (!extendsWith(index, pass, appended)) return null;
  pass.generation += 1;
  indexEntries(index, pass, appended);
  indexes.set(next, index);
  return appended;
}

/** How many times the index grew since it was built (0: built from the whole file). */
export function indexGeneration(index: ClaudeSessionIndex): number {
  return passes.get(index)?.generation ?? 0;
}

/** The growth of the index that last changed what was built from entry `id` (its children, its API message); 0 if none. */
export function touchedAt(index: ClaudeSessionIndex, id: string): number {
  return passes.get(index)?.touched.get(id) ?? 0;
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

/**
 * The default leaf (FM-CC-7): the last `last-prompt` leaf carried on to the last main-chain entry
 * written under it, else the last main-chain entry. Claude Code writes `last-prompt` (with
 * `ai-title`, `agent-name`, `permission-mode`) while the session runs, naming the leaf of that
 * moment; the conversation goes on under it, so the record names where the branch was, not where it ends.
 */
export function defaultLeaf(index: ClaudeSessionIndex): string | null {
  // Asked for by every turn that names no leaf: found once per growth of the index (the walk
  // under the last prompt's leaf is a pass over the file's entries), not once per turn.
  const generation = indexGeneration(index);
  const kept = defaultLeaves.get(index);
  if (kept !== undefined && kept.generation === generation && kept.entries === index.conversation.length) return kept.leaf;
  const leaf = findDefaultLeaf(index);
  defaultLeaves.set(index, { generation, entries: index.conversation.length, leaf });
  return leaf;
}

/** The default leaf of each index, and the growth and entry count it was found at. */
const defaultLeaves = new WeakMap<ClaudeSessionIndex, { generation: number; entries: number; leaf: string | null }>();

function findDefaultLeaf(index: ClaudeSessionIndex): string | null {
  if (index.lastPromptLeaf) return lastDescendant(index, index.lastPromptLeaf);
  for (let i = index.conversation.length - 1; i >= 0; i--) {
    const entry = index.conversation[i] as SessionEntry;
    if (!isSidechain(entry)) return entry.id;
  }
  const last = index.conversation[index.conversation.length - 1];
  return last ? last.id : null;
}

/** The last main-chain entry in file order under `leafId` (itself when none): one pass from the leaf on. */
function lastDescendant(index: ClaudeSessionIndex, leafId: string): string {
  const start = index.conversation.findIndex((entry) => entry.id === leafId);
  const under = new Set([leafId]);
  let last = leafId;
  for (let at = start + 1; at > 0 && at < index.conversation.length; at++) {
    const entry = index.conversation[at] as SessionEntry;
    const parent = index.parentOf.get(entry.id);
    if (parent === undefined || !under.has(parent)) continue;
    under.add(entry.id);
    if (!isSidechain(entry)) last = entry.id;
  }
  return last;
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
