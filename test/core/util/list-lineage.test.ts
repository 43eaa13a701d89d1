import { describe, expect, it } from "vitest";
import { recordSharedHead, sharedHeadWith } from "../../../src/core/util/list-lineage";

describe("list lineage", () => {
  it("answers the recorded shared head, through lists in between, and nothing for unrelated lists", () => {
    const a = [{}, {}, {}];
    const b = [...a, {}];
    const c = [...b.slice(0, 2), {}, {}];
    recordSharedHead(b, a, 3);
    recordSharedHead(c, b, 2);
    expect(sharedHeadWith(b, a)).toBe(3);
    expect(sharedHeadWith(c, b)).toBe(2);
    expect(sharedHeadWith(c, a)).toBe(2);
    expect(sharedHeadWith(a, b)).toBeUndefined();
    expect(sharedHeadWith([{}], a)).toBeUndefined();
    expect(sharedHeadWith(a, a)).toBe(3);
  });

  it("never claims more than either list holds", () => {
    const a = [1, 2];
    const b = [1, 2, 3];
    recordSharedHead(b, a, 10);
    expect(sharedHeadWith(b, a)).toBe(2);
  });

  it("keeps a walk's chain only as long as it is followed, so earlier lists are not held by the newest", () => {
    const lists: object[][] = [[{}]];
    for (let i = 1; i < 10; i++) {
      const next = [...lists[i - 1]!, {}];
      recordSharedHead(next, lists[i - 1]!, i);
      lists.push(next);
    }
    // Four links are followed from the newest list; the link below them has been let go.
    expect(sharedHeadWith(lists[9]!, lists[5]!)).toBe(6);
    expect(sharedHeadWith(lists[6]!, lists[5]!)).toBe(6);
    expect(sharedHeadWith(lists[5]!, lists[4]!)).toBeUndefined();
    expect(sharedHeadWith(lists[9]!, lists[4]!)).toBeUndefined();
  });
});
