// Two lists handed out in turn instead of one new copy per turn (design §3 "never quadratic"). A
// session walk's carried list (context messages, wire items) grows by a few items a turn, and a
// copy of it per turn costs the whole context every turn: on a 10,000-turn session the copies and
// the collector freeing them were most of the walk. When the walk's reader has said it reads each
// turn's request before asking for the next and keeps none past the turn after, the walk hands out
// list A, then B, then A again brought up to date with the items that changed since it was handed
// out (usually the few new ones). The list handed out last is never touched by the next turn, so a
// reader may still compare the two (list-lineage.ts records how much the new one shares with it),
// and no list is the same array as the one before it, so a recorded head always names a list whose
// items are as they were when it was recorded.

export class AlternatingLists<T> {
  /** The walk the lists belong to: another walk (or none) starts from new lists. */
  private walk: object | null = null;
  /** The source list the two follow: another source array starts from new lists. */
  private source: readonly T[] | null = null;
  private lists: [T[], T[]] = [[], []];
  /** Per list, how many of its leading items are still the source's items at the same places. */
  private synced: [number, number] = [0, 0];
  /** The list handed out last (0 or 1), or -1 before the first. */
  private last = -1;

  /** Forget the lists (a copy was handed out, or the walk is done): the next hand-out starts anew. */
  forget(): void {
    if (this.last === -1 && this.walk === null) return;
    this.walk = null;
    this.source = null;
    this.lists = [[], []];
    this.synced = [0, 0];
    this.last = -1;
  }

  /** The source was cut to `length` (its items past it may come back different). */
  cut(length: number): void {
    if (this.synced[0] > length) this.synced[0] = length;
    if (this.synced[1] > length) this.synced[1] = length;
  }

  /**
   * The list to hand out for `walk`: the items of `source`, in a different array from the one
   * handed out last; the caller may then change its tail (tell `touched`).
   */
  next(source: readonly T[], walk: object): T[] {
    if (walk !== this.walk || source !== this.source) {
      this.forget();
      this.walk = walk;
      this.source = source;
    }
    const index = this.last === 0 ? 1 : 0;
    const list = this.lists[index];
    const same = Math.min(this.synced[index], source.length);
    list.length = same;
    for (let i = same; i < source.length; i++) list.push(source[i]!);
    this.synced[index] = source.length;
    this.last = index;
    return list;
  }

  /** The list just handed out differs from the source from `from` on (its own last touches). */
  touched(from: number): void {
    if (this.last >= 0 && this.synced[this.last]! > from) this.synced[this.last] = from;
  }
}
