// Which earlier list a list begins with. A session walk makes one list per turn (context messages,
// wire items, segments), and turn N+1's list usually starts with turn N's items, the very same
// objects. The layer that builds a list knows how much it took over; a later layer that asks
// "how much of this list did the previous one already have?" reads it here instead of comparing
// every item again, so a turn costs its new items, not its whole context.
// Kept by list identity in a WeakMap: nothing is added to the lists themselves (they stay plain
// arrays, cloned and serialised as they are) and a list that is no longer used is forgotten. A
// chain is kept as long as it is read (four links): a walk records every turn's list against the
// one before, and longer chains would keep every list of the walk alive through the newest one.

interface SharedHead {
  parent: readonly unknown[];
  /** How many leading items `list` shares with `parent`, the same objects at the same indices. */
  count: number;
}

const heads = new WeakMap<readonly unknown[], SharedHead>();

/**
 * Records that the first `count` items of `list` are the first `count` items of `parent` (the same
 * objects). The caller must know it (it copied them); nothing is checked. `parent` must not be
 * changed afterwards within those `count` items.
 */
export function recordSharedHead(list: readonly unknown[], parent: readonly unknown[], count: number): void {
  if (list === parent || count <= 0) return;
  heads.set(list, { parent, count: Math.min(count, list.length, parent.length) });
  // The link past the last one `sharedHeadWith` follows from `list` is let go.
  let ancestor: readonly unknown[] = parent;
  for (let step = 1; step < MAX_LINKS; step++) {
    const head = heads.get(ancestor);
    if (!head) return;
    ancestor = head.parent;
  }
  heads.delete(ancestor);
}

/** Links followed from a list at most. */
const MAX_LINKS = 4;

/**
 * How many leading items `list` is known to share with `parent`: a recorded head from `parent`
 * itself, or through one or more lists recorded in between (the smallest count on the way), or
 * the whole shorter length when both are the same array. Undefined when nothing links them: the
 * caller compares the items itself.
 */
export function sharedHeadWith(list: readonly unknown[], parent: readonly unknown[]): number | undefined {
  if (list === parent) return list.length;
  let count = Number.POSITIVE_INFINITY;
  let current: readonly unknown[] = list;
  // A short chain only: a layer records against the list it built from the turn before.
  for (let step = 0; step < MAX_LINKS; step++) {
    const head = heads.get(current);
    if (!head) return undefined;
    count = Math.min(count, head.count);
    if (head.parent === parent) return Math.min(count, parent.length);
    current = head.parent;
  }
  return undefined;
}
