// Where a simulated pi/senpi compaction sits in the session: after the response of turn N and the
// bookkeeping entries written right after it (custom entries, settings changes), or exactly at a
// recorded compaction entry. Also builds the session copies the simulation rebuilds requests on:
// one with a bare compaction entry at that point (for the summariser request, computed cut) and one
// with the full simulated entry (for the requests after it). Entries are plain data: copies share
// every untouched entry object.
import type { Session, SessionEntry } from "../../../model";
import { getBranchPath, getPiSessionCache } from "../sessionCache";
import { resolveLeafId } from "../tree";
import { UnreplayablePointError } from "../../../simulate/point-error";
import type { SimulationInput } from "../../../simulate/types";

export const SIMULATED_COMPACTION_ID = "contextscope-simulated-compaction";

export interface CompactionPoint {
  /** 1-based turn whose response precedes the compaction. */
  turn: number;
  /** Branch path, root first, up to and including the entry the compaction is appended to. */
  path: SessionEntry[];
  parent: SessionEntry;
  /** The recorded compaction entry at this point, if any (re-simulation). */
  recorded: SessionEntry | null;
}

function isBookkeeping(entry: SessionEntry): boolean {
  return entry.type !== "message" && entry.type !== "compaction" && entry.type !== "custom_message" && entry.type !== "branch_summary";
}

/** The compaction point after turn `turn`, or at `recordedId` when given. */
export function findCompactionPoint(session: Session, leafId: string | null | undefined, turn: number, recordedId?: string): CompactionPoint {
  const cache = getPiSessionCache(session);
  const branch = getBranchPath(cache, resolveLeafId(cache.tree, leafId ?? null));
  const entries = branch.entries;
  if (recordedId !== undefined) {
    let index = entries.findIndex((e) => e.id === recordedId);
    let path = entries;
    if (index < 0) {
      // A compaction on another branch: walk from it to the root instead.
      const recordedEntry = cache.tree.byId.get(recordedId);
      if (!recordedEntry || recordedEntry.type !== "compaction") throw new UnreplayablePointError(`No compaction entry with id ${recordedId}`);
      // Reused ids ("the later entry wins") can make parents loop: each entry is taken once.
      const chain: SessionEntry[] = [];
      const seen = new Set<SessionEntry>();
      let current: SessionEntry | undefined = recordedEntry;
      while (current && !seen.has(current)) {
        seen.add(current);
        chain.push(current);
        current = current.parentId ? cache.tree.byId.get(current.parentId) : undefined;
      }
      chain.reverse();
      path = chain;
      index = chain.length - 1;
    }
    const recorded = path[index]!;
    if (recorded.type !== "compaction") throw new UnreplayablePointError(`Entry ${recordedId} is not a compaction entry (its id is used again by a later entry)`);
    const before = path.slice(0, index);
    if (before.length === 0) throw new UnreplayablePointError(`Compaction ${recordedId} has nothing before it to compact (PI-K13)`);
    // The turn is counted on the selected branch (the one the turn numbers of every other stage
    // refer to): its answered turns that lie before the compaction. On that branch this is every
    // assistant message before it; for a compaction on another branch, the turns both share.
    const beforeSet = new Set(before);
    const turnsBefore = branch.assistantPositions.filter((position) => beforeSet.has(entries[position]!)).length;
    return { turn: turnsBefore, path: before, parent: before[before.length - 1]!, recorded };
  }
  const position = Number.isInteger(turn) ? branch.assistantPositions[turn - 1] : undefined;
  if (position === undefined) throw new RangeError(`turn ${turn} does not exist: the branch has ${branch.assistantPositions.length} turns`);
  let end = position;
  while (end + 1 < entries.length && isBookkeeping(entries[end + 1]!)) end++;
  const next = entries[end + 1];
  const recorded = next && next.type === "compaction" ? next : null;
  const path = entries.slice(0, end + 1);
  return { turn, path, parent: path[path.length - 1]!, recorded };
}

/**
 * The session with `compaction` placed right after `point.parent` (in file order, so the default
 * leaf does not change), the parent's children moved under it, and the recorded compaction at the
 * point (if any) replaced by it.
 */
export function withCompactionAt(session: Session, point: CompactionPoint, compaction: Record<string, unknown>): Session {
  const id = String(compaction.id);
  const replaced = point.recorded?.id ?? null;
  const newParentOf = (entry: SessionEntry): string | null => {
    if (entry.parentId === point.parent.id) return id;
    if (replaced !== null && entry.parentId === replaced) return id;
    return entry.parentId;
  };
  const simulated: SessionEntry = {
    id,
    parentId: point.parent.id,
    type: "compaction",
    timestamp: typeof compaction.timestamp === "string" ? compaction.timestamp : point.parent.timestamp,
    line: 0,
    raw: compaction,
  };
  const entries: SessionEntry[] = [];
  for (const entry of session.entries) {
    if (entry.id === replaced) continue;
    const parentId = newParentOf(entry);
    entries.push(parentId === entry.parentId ? entry : { ...entry, parentId, raw: { ...entry.raw, parentId } });
    if (entry.id === point.parent.id) entries.push(simulated);
  }
  return { ...session, entries };
}

/**
 * The session with a simulated result's stored compaction entry in it under `id` (a whole-session
 * replay inserts one per simulated compaction), or null when the result stored none.
 */
export function sessionWithSimulatedCompaction(input: SimulationInput, stored: Record<string, unknown> | null, id: string): Session | null {
  if (!stored) return null;
  const point = findCompactionPoint(input.session, input.options.leafId, input.turn, input.recordedCompactionEntryId);
  return withCompactionAt(input.session, point, { ...stored, id });
}
