// CarriedMap: the leading items that are the previous list's objects keep their results; the rest
// are mapped; the array returned is the caller's own.
import { describe, expect, it } from "vitest";
import { CarriedMap } from "../../../src/core/util/carried-map";

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
