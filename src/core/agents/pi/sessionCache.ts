// Per-Session memo of the work every turn shares: the entry tree, the path of each branch asked
// for, the AgentMessage built for each entry (so that converted messages keep their object
// identity across turns and their caches hit), the reply-language note state and the projected
// context of the newest turns. Keyed weakly by the Session object, never sent across the worker
// boundary. When a followed file grows, the memo moves to the new Session value and grows with
// the appended entries (`carryPiSessionCache`), so what was built for the earlier entries is kept.
import type { Session, SessionEntry } from "../../model";
import type { NotesSetups } from "./notesSetup";
import type { EntryMessageCache, SessionContext } from "./projection";
import { buildTree, extendTree, isAssistantEntry, type SessionTree } from "./tree";

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
  /**
   * The projected context of a few recent turns, taken by the analysis as it walked past them
   * (key: `turnProjectionKey`), so building such a turn does not project its path from the root.
   */
  turnProjections: Map<string, SessionContext>;
}

/** Branch paths kept per session; switching between a few branches stays cheap. */
const MAX_CACHED_PATHS = 8;
/** Turn projections kept per session (the newest turns: the ones a followed session shows). */
export const MAX_TURN_PROJECTIONS = 8;

const caches = new WeakMap<Session, PiSessionCache>();

export function getPiSessionCache(session: Session): PiSessionCache {
  let cache = caches.get(session);
  if (!cache) {
    cache = { tree: buildTree(session), entryMessages: new Map(), paths: new Map(), notes: new Map(), turnProjections: new Map() };
    caches.set(session, cache);
  }
  return cache;
}

/**
 * `next` is `previous` with entries appended: the memo built for `previous` (if any) becomes
 * `next`'s, its tree grown by the new entries. Everything in it stays true for `next`: entries
 * are immutable, a branch path of an existing leaf does not change when entries are appended
 * (an appended entry reusing an id, or arriving as an earlier entry's missing parent, would change
 * it: then `next` starts a memo of its own). `previous` loses its memo and builds a new one if
 * asked again.
 */
export function carryPiSessionCache(previous: Session, next: Session): void {
  const cache = caches.get(previous);
  if (!cache || caches.has(next)) return;
  caches.delete(previous);
  if (extendTree(cache.tree, next)) caches.set(next, cache);
}

/** Key of a turn projection: the answering entry and what the projection depends on (profile, note setup). */
export function turnProjectionKey(profile: string, notesKey: string | null, answerId: string): string {
  return `${profile}\u0000${notesKey ?? ""}\u0000${answerId}`;
}

export function keepTurnProjection(cache: PiSessionCache, key: string, context: SessionContext): void {
  cache.turnProjections.delete(key);
  cache.turnProjections.set(key, context);
  if (cache.turnProjections.size > MAX_TURN_PROJECTIONS) {
    const oldest = cache.turnProjections.keys().next().value;
    if (oldest !== undefined) cache.turnProjections.delete(oldest);
  }
}

export function getBranchPath(cache: PiSessionCache, leafId: string | null): BranchPath {
  const key = leafId ?? "";
  const cached = cache.paths.get(key);
  if (cached) return cached;
  const branch = branchPathOf(cache, leafId);
  if (cache.paths.size >= MAX_CACHED_PATHS) {
    const oldest = cache.paths.keys().next().value;
    if (oldest !== undefined) cache.paths.delete(oldest);
  }
  cache.paths.set(key, branch);
  return branch;
}

/**
 * PI-P2's path from `leafId` to the root (tree.ts `pathToRoot`), walking up only until an entry
 * whose path is kept already (the previous leaf of a growing session): that path is extended by
 * the entries walked, so a new turn's path costs the entries appended since.
 */
function branchPathOf(cache: PiSessionCache, leafId: string | null): BranchPath {
  const reversed: SessionEntry[] = [];
  const seen = new Set<string>();
  let cycleAt: string | null = null;
  let base: BranchPath | null = null;
  let current = leafId === null ? undefined : cache.tree.byId.get(leafId);
  while (current) {
    if (seen.has(current.id)) {
      cycleAt = current.id;
      break;
    }
    const kept = reversed.length > 0 ? cache.paths.get(current.id) : undefined;
    // A kept path without a cycle holds exactly the entries the walk would meet from here (an
    // entry walked already among them would make a cycle through it, and the kept path's walk
    // would have met it).
    if (kept && kept.cycleAt === null) {
      base = kept;
      break;
    }
    seen.add(current.id);
    reversed.push(current);
    current = current.parentId === null ? undefined : cache.tree.byId.get(current.parentId);
  }
  const walked = reversed.reverse();
  const entries = base ? base.entries.concat(walked) : walked;
  const assistantPositions = base ? base.assistantPositions.slice() : [];
  const from = base ? base.entries.length : 0;
  for (let index = from; index < entries.length; index++) {
    if (isAssistantEntry(entries[index]!)) assistantPositions.push(index);
  }
  return { leafId, entries, cycleAt, assistantPositions };
}
