// CarriedMap: the leading items that are the previous list's objects keep their results; the rest
// are mapped; `map` returns the caller's own array, `mapped` the map's list. CarriedSum: the same
// for a running total.
import { describe, expect, it } from "vitest";
import { CarriedMap, CarriedSum } from "../../../src/core/util/carried-map";

describe("CarriedMap", () => {
  it("maps only the items past the repeated run, and returns a fresh array", () => {
    const calls: string[] = [];
    const map = new CarriedMap((item: { id: string }) => {
      calls.push(item.id);
      return { of: item.id };
    });
    const a = { id: "a" };
    const b = { id: "b" };
    const c = { id: "c" };
    const first = map.map([a, b]);
    const second = map.map([a, b, c]);
    expect(calls).toEqual(["a", "b", "c"]);
    expect(second[0]).toBe(first[0]);
    expect(second.map((out) => out.of)).toEqual(["a", "b", "c"]);
    // A changed item ends the run: it and everything after it are mapped again.
    const b2 = { id: "b2" };
    expect(map.map([a, b2, c]).map((out) => out.of)).toEqual(["a", "b2", "c"]);
    expect(calls).toEqual(["a", "b", "c", "b2", "c"]);
    second.push({ of: "mine" });
    expect(map.map([a, b2, c])).toHaveLength(3);
  });
});

describe("CarriedMap.mapped", () => {
  it("gives the map's own list, brought up to date by the next call", () => {
    const map = new CarriedMap((item: number) => item * 10);
    const first = map.mapped([1, 2]);
    expect([...first]).toEqual([10, 20]);
    const second = map.mapped([1, 3, 4]);
    expect(second).toBe(first);
    expect([...second]).toEqual([10, 30, 40]);
  });
});

describe("CarriedSum", () => {
  it("measures only the items past the repeated run and sums like a walk from the top", () => {
    const measured: string[] = [];
    const sum = new CarriedSum((item: { id: string; size: number }) => {
      measured.push(item.id);
      return item.size;
    });
    const a = { id: "a", size: 1 };
    const b = { id: "b", size: 10 };
    const c = { id: "c", size: 100 };
    expect(sum.sum([a, b])).toBe(11);
    expect(sum.sum([a, b, c])).toBe(111);
    expect(measured).toEqual(["a", "b", "c"]);
    const b2 = { id: "b2", size: 20 };
    expect(sum.sum([a, b2, c])).toBe(121);
    expect(measured).toEqual(["a", "b", "c", "b2", "c"]);
    expect(sum.sum([a])).toBe(1);
    expect(sum.sum([])).toBe(0);
  });
});
