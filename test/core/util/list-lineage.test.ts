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
});
