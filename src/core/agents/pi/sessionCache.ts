// Per-Session memo of the work every turn shares: the entry tree, the path of each branch asked
// for, the AgentMessage built for each entry (so that converted messages keep their object
// identity across turns and their caches hit) and the reply-language note state. Keyed weakly by the Session object, never sent
// across the worker boundary.
import type { Session, SessionEntry } from "../../model";
import type { NotesSetups } from "./notesSetup";
import type { EntryMessageCache } from "./projection";
import { buildTree, isAssistantEntry, pathToRoot, type SessionTree } from "./tree";

export interface BranchPath {
  leafId: string | null;
  /** Root first, ending at the leaf. */
  entries: SessionEntry[];
  cycleAt: string | null;
  /** Index in `entries` of each assistant message entry: turn k is at `assistantPositions[k-1]`. */
  assistantPositions: number[];
}

export interface PiSessionCache {
  tree: SessionTree;
  entryMessages: EntryMessageCache;
  paths: Map<string, BranchPath>;
  /** Reply-language note state per note option set (reading cache, carriers), shared by turns. */
  notes: NotesSetups;
}

/** Branch paths kept per session; switching between a few branches stays cheap. */
const MAX_CACHED_PATHS = 8;

const caches = new WeakMap<Session, PiSessionCache>();

export function getPiSessionCache(session: Session): PiSessionCache {
  let cache = caches.get(session);
  if (!cache) {
    cache = { tree: buildTree(session), entryMessages: new Map(), paths: new Map(), notes: new Map() };
    caches.set(session, cache);
  }
  return cache;
}

export function getBranchPath(cache: PiSessionCache, leafId: string | null): BranchPath {
  const key = leafId ?? "";
  const cached = cache.paths.get(key);
  if (cached) return cached;
  const path = pathToRoot(cache.tree, leafId);
  const assistantPositions: number[] = [];
  path.entries.forEach((entry, index) => {
    if (isAssistantEntry(entry)) assistantPositions.push(index);
  });
  const branch: BranchPath = { leafId, entries: path.entries, cycleAt: path.cycleAt, assistantPositions };
  if (cache.paths.size >= MAX_CACHED_PATHS) {
    const oldest = cache.paths.keys().next().value;
    if (oldest !== undefined) cache.paths.delete(oldest);
  }
  cache.paths.set(key, branch);
  return branch;
}
