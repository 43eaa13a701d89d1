// Turn alignment of `compare`: by user message (runs of the same prompt matched by LCS, turns
// inside a run by position), then by position between matches; left-over turns stay one-sided.
import { describe, expect, it } from "vitest";
import { alignTurns, runsOf } from "../../../src/core/compare";

describe("alignTurns", () => {
  it("pairs identical sessions one to one by user message", () => {
    expect(alignTurns(["p", "p", "q"], ["p", "p", "q"])).toEqual([
      { a: 1, b: 1, by: "user-message" },
      { a: 2, b: 2, by: "user-message" },
      { a: 3, b: 3, by: "user-message" },
    ]);
  });

  it("a run with more tool-loop turns on one side leaves the extra turn one-sided", () => {
    expect(alignTurns(["p", "q"], ["p", "p", "q"])).toEqual([
      { a: 1, b: 1, by: "user-message" },
      { a: null, b: 2, by: "unmatched" },
      { a: 2, b: 3, by: "user-message" },
    ]);
  });

  it("an edited prompt between two equal ones pairs by position", () => {
    expect(alignTurns(["p", "x", "r"], ["p", "y", "y", "r"])).toEqual([
      { a: 1, b: 1, by: "user-message" },
      { a: 2, b: 2, by: "position" },
      { a: null, b: 3, by: "unmatched" },
      { a: 3, b: 4, by: "user-message" },
    ]);
  });

  it("an inserted prompt on one side is skipped, the rest still matches", () => {
    const pairs = alignTurns(["p", "q", "r"], ["p", "new", "q", "r"]);
    expect(pairs.filter((pair) => pair.by === "user-message").map((pair) => [pair.a, pair.b])).toEqual([
      [1, 1],
      [2, 3],
      [3, 4],
    ]);
    expect(pairs).toContainEqual({ a: null, b: 2, by: "unmatched" });
  });

  it("turns without a user message never match by text", () => {
    expect(runsOf([null, null]).length).toBe(2);
    expect(alignTurns([null], [null])).toEqual([{ a: 1, b: 1, by: "position" }]);
  });
});
