// A turn's wire items kept from one turn's request to the next. Turn N+1's request is turn N's
// items, the same objects, followed by a few new ones; the lists made per item (the body's
// messages, the context messages, running sizes) are cut back to what stays and extended, so a
// turn costs its new items: no copy of the whole list and no comparison from its top.
import { sharedHeadWith } from "../../util/list-lineage";

/**
 * A turn's wire items: the first `baseLength` items of `base`, then `extra`. A `base` list is never
 * changed within the items an earlier turn read (an approximated walk only appends to its list; a
 * record's list is never changed at all), which is what lets a carry keep those items unchecked.
 */
export interface WireList<T> {
  base: readonly T[];
  baseLength: number;
  extra: readonly T[];
}

export class WireCarry<T> {
  /** The items of the last list brought in (the carry's own list: read it at once). */
  readonly items: T[] = [];
  private base: readonly T[] | null = null;
  /** Leading items of `items` that are `base`'s. */
  private fromBase = 0;

  /**
   * Brings the carry to `list`; returns how many leading items are the ones it held before (the
   * same objects at the same places): the lists made per item keep those and make the rest.
   */
  update(list: WireList<T>): number {
    const items = this.items;
    const before = items.length;
    let kept = 0;
    if (this.base !== null && list.base === this.base) kept = Math.min(this.fromBase, list.baseLength);
    else {
      const shared = this.base !== null ? sharedHeadWith(list.base, this.base) : undefined;
      if (shared !== undefined) kept = Math.min(shared, this.fromBase, list.baseLength);
      else {
        // Nothing links the lists (another walk, another branch): compared item by item.
        const known = Math.min(before, list.baseLength);
        while (kept < known && items[kept] === list.base[kept]) kept++;
      }
    }
    const place = (i: number, item: T) => {
      if (i === kept && i < before && items[i] === item) kept++;
      else items[i] = item;
    };
    for (let i = kept; i < list.baseLength; i++) place(i, list.base[i]!);
    for (let i = 0; i < list.extra.length; i++) place(list.baseLength + i, list.extra[i]!);
    items.length = list.baseLength + list.extra.length;
    this.base = list.base;
    this.fromBase = list.baseLength;
    return kept;
  }
}
