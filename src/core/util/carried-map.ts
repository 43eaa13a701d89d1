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
    const known = Math.min(this.inputs.length, items.length);
    let same = 0;
    while (same < known && this.inputs[same] === items[same]) same++;
    this.inputs.length = same;
    this.outputs.length = same;
    for (let i = same; i < items.length; i++) {
      this.inputs.push(items[i]!);
      this.outputs.push(this.fn(items[i]!));
    }
    return this.outputs.slice();
  }
}
