// Which earlier list a list begins with. A session walk makes one list per turn (context messages,
// wire items, segments), and turn N+1's list usually starts with turn N's items, the very same
// objects. The layer that builds a list knows how much it took over; a later layer that asks
// "how much of this list did the previous one already have?" reads it here instead of comparing
// every item again, so a turn costs its new items, not its whole context.
// Kept by list identity in a WeakMap: nothing is added to the lists themselves (they stay plain
// arrays, cloned and serialised as they are) and a list that is no longer used is forgotten.
// A record names its parent (and the few lists before it) by a number, never by the list itself:
// a walk records every turn's list against the one before, and a record holding its parent would
// keep every earlier turn's list alive through the chain for as long as the newest one lives.

/** A list this one begins with: its number, and how many leading items they share. */
interface Ancestor {
  id: number;
  /** How many leading items the recorded list shares with it, the same objects at the same indices. */
  count: number;
}

/** The lists a query may go back through: a layer records against the list it built from the turn before. */
const MAX_STEPS = 4;

const ancestors = new WeakMap<readonly unknown[], readonly Ancestor[]>();
const ids = new WeakMap<readonly unknown[], number>();
let nextId = 1;

function idOf(list: readonly unknown[]): number {
  let id = ids.get(list);
  if (id === undefined) {
    id = nextId++;
    ids.set(list, id);
  }
  return id;
}

/**
 * Records that the first `count` items of `list` are the first `count` items of `parent` (the same
 * objects). The caller must know it (it copied them); nothing is checked. `parent` must not be
 * changed afterwards within those `count` items. What `parent` was recorded to share with the
 * lists before it is taken over now. A new record replaces what `list` was recorded to share
 * before (a list reused for a later turn, providers/alternating-lists.ts).
 */
export function recordSharedHead(list: readonly unknown[], parent: readonly unknown[], count: number): void {
  if (list === parent) return;
  // Nothing shared: a record this list had from an earlier use (a list handed out again) goes.
  if (count <= 0) {
    ancestors.delete(list);
    return;
  }
  const shared = Math.min(count, list.length, parent.length);
  const chain: Ancestor[] = [{ id: idOf(parent), count: shared }];
  for (const before of ancestors.get(parent) ?? []) {
    if (chain.length === MAX_STEPS) break;
    chain.push({ id: before.id, count: Math.min(shared, before.count) });
  }
  ancestors.set(list, chain);
}

/**
 * How many leading items `list` is known to share with `parent`: a recorded head from `parent`
 * itself, or through one or more lists recorded in between (the smallest count on the way), or
 * the whole shorter length when both are the same array. Undefined when nothing links them: the
 * caller compares the items itself.
 */
export function sharedHeadWith(list: readonly unknown[], parent: readonly unknown[]): number | undefined {
  if (list === parent) return list.length;
  const id = ids.get(parent);
  if (id === undefined) return undefined;
  for (const ancestor of ancestors.get(list) ?? []) {
    if (ancestor.id === id) return Math.min(ancestor.count, parent.length);
  }
  return undefined;
}
