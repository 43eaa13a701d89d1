// A map over a list that mostly repeats the list mapped before it: in a session walk, turn N+1's
// messages are turn N's objects followed by a few new ones, so the leading items that are the same
// objects at the same places take their earlier results (one comparison each, no cache lookup) and
// only the rest are mapped. `fn` must give the same result for the same item every time.
export class CarriedMap<I, O> {
  private inputs: I[] = [];
  private outputs: O[] = [];

  constructor(private readonly fn: (item: I) => O) {}

  /** `items.map(fn)`, as a new array. */
  map(items: readonly I[]): O[] {
    return this.mapped(items).slice();
  }

  /**
   * `items.map(fn)` as the map's own list, valid until the next call: for a caller that reads it
   * at once and keeps nothing of it (no copy of the whole list per call).
   */
  mapped(items: readonly I[]): readonly O[] {
    const known = Math.min(this.inputs.length, items.length);
    let same = 0;
    while (same < known && this.inputs[same] === items[same]) same++;
    this.inputs.length = same;
    this.outputs.length = same;
    for (let i = same; i < items.length; i++) {
      this.inputs.push(items[i]!);
      this.outputs.push(this.fn(items[i]!));
    }
    return this.outputs;
  }
}

/**
 * The sum of `fn` over a list that mostly repeats the list summed before it, kept as running
 * totals: the leading items that are the same objects at the same places take their total, and
 * only the rest are measured. `fn` must give the same number for the same item every time.
 */
export class CarriedSum<I> {
  private inputs: I[] = [];
  private totals: number[] = [];

  constructor(private readonly fn: (item: I) => number) {}

  sum(items: readonly I[]): number {
    const known = Math.min(this.inputs.length, items.length);
    let same = 0;
    while (same < known && this.inputs[same] === items[same]) same++;
    this.inputs.length = same;
    this.totals.length = same;
    let total = same > 0 ? this.totals[same - 1]! : 0;
    for (let i = same; i < items.length; i++) {
      total += this.fn(items[i]!);
      this.inputs.push(items[i]!);
      this.totals.push(total);
    }
    return total;
  }
}
