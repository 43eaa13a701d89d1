// Two lists handed out in turn (src/core/providers/alternating-lists.ts): each hand-out equals its
// source at that moment, is never the array handed out just before, leaves that one as it was, and
// starts over for another walk or another source.
import { describe, expect, it } from "vitest";
import { AlternatingLists } from "../../../src/core/providers/alternating-lists";

describe("AlternatingLists", () => {
  it("hands out A, B, A … each equal to the source, the previous one left as it was", () => {
    const lists = new AlternatingLists<number>();
    const walk = {};
    const source = [1, 2];
    const a = lists.next(source, walk);
    expect(a).toEqual([1, 2]);
    expect(a).not.toBe(source);
    source.push(3);
    const b = lists.next(source, walk);
    expect(b).toEqual([1, 2, 3]);
    expect(b).not.toBe(a);
    expect(a).toEqual([1, 2]);
    source.push(4);
    const c = lists.next(source, walk);
    expect(c).toBe(a);
    expect(c).toEqual([1, 2, 3, 4]);
    expect(b).toEqual([1, 2, 3]);
  });

  it("brings back the items the source changed after a cut, and the ones the caller touched", () => {
    const lists = new AlternatingLists<string>();
    const walk = {};
    const source = ["a", "b", "c"];
    const first = lists.next(source, walk);
    first[2] = "c*";
    lists.touched(2);
    lists.next(source, walk);
    // The source changes its second item: cut first, then change.
    lists.cut(1);
    source.length = 1;
    source.push("B", "c", "d");
    const third = lists.next(source, walk);
    expect(third).toBe(first);
    expect(third).toEqual(["a", "B", "c", "d"]);
  });

  it("starts over with new arrays for another walk, another source, or after forget", () => {
    const lists = new AlternatingLists<number>();
    const source = [1];
    const walk = {};
    const a = lists.next(source, walk);
    lists.next(source, walk);
    const other = lists.next(source, {});
    expect(other).not.toBe(a);
    expect(other).toEqual([1]);
    const again = lists.next([1, 2], walk);
    expect(again).not.toBe(a);
    expect(again).not.toBe(other);
    lists.forget();
    const fresh = lists.next([5], walk);
    expect([a, other, again]).not.toContain(fresh);
    expect(fresh).toEqual([5]);
  });
});
