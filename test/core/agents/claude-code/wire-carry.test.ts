// The carry of a turn's wire items (wire-carry.ts): after each update its items are the list's,
// and the count it returns is how many leading items it held already (the same objects), whether
// the list grew in place, came through a recorded lineage, or is unrelated.
import { describe, expect, it } from "vitest";
import { WireCarry } from "../../../../src/core/agents/claude-code/wire-carry";
import { recordSharedHead } from "../../../../src/core/util/list-lineage";

const item = (n: number) => ({ n });

describe("a wire carry", () => {
  it("keeps the items of a list that only grows and takes on the rest", () => {
    const out = [item(1), item(2)];
    const pending = item(3);
    const carry = new WireCarry<object>();
    expect(carry.update({ base: out, baseLength: 2, extra: [pending] })).toBe(0);
    expect(carry.items).toEqual([out[0], out[1], pending]);
    // The pending item was flushed into the list: the same object at the same place is kept too.
    out.push(pending, item(4));
    expect(carry.update({ base: out, baseLength: 4, extra: [] })).toBe(3);
    expect(carry.items).toEqual(out);
    expect(carry.items[3]).toBe(out[3]);
  });

  it("reads a recorded head between two lists, and compares lists nothing links", () => {
    const first = [item(1), item(2), item(3)];
    const second = [first[0]!, first[1]!, item(9)];
    recordSharedHead(second, first, 2);
    const carry = new WireCarry<object>();
    carry.update({ base: first, baseLength: 3, extra: [] });
    expect(carry.update({ base: second, baseLength: 3, extra: [] })).toBe(2);
    expect(carry.items).toEqual(second);
    const unrelated = [second[0]!, item(7)];
    expect(carry.update({ base: unrelated, baseLength: 2, extra: [] })).toBe(1);
    expect(carry.items).toEqual(unrelated);
    expect(carry.items.length).toBe(2);
  });
});
