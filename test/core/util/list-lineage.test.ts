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

  it("goes back through at most four lists, with the smallest count on the way", () => {
    const lists = [[{}, {}, {}, {}, {}, {}]];
    for (let k = 1; k <= 5; k++) {
      const previous = lists[k - 1]!;
      const next = [...previous, {}];
      recordSharedHead(next, previous, k === 2 ? 3 : previous.length);
      lists.push(next);
    }
    expect(sharedHeadWith(lists[5]!, lists[4]!)).toBe(lists[4]!.length);
    expect(sharedHeadWith(lists[5]!, lists[1]!)).toBe(3);
    expect(sharedHeadWith(lists[4]!, lists[0]!)).toBe(3);
    expect(sharedHeadWith(lists[5]!, lists[0]!)).toBeUndefined();
  });

  it("a list recorded again replaces its old record, even when it now shares nothing", () => {
    const a = [{}, {}];
    const b = [...a];
    recordSharedHead(b, a, 2);
    expect(sharedHeadWith(b, a)).toBe(2);
    // b is reused for a later turn whose items are all new.
    b.length = 0;
    b.push({}, {});
    recordSharedHead(b, a, 0);
    expect(sharedHeadWith(b, a)).toBeUndefined();
  });
});
