// Repeated keys of one JSON object, found in one pass: nesting, strings holding braces and quotes,
// arrays of objects (each its own key set), and the count beyond the listed ones.
import { describe, expect, it } from "vitest";
import { duplicateKeys, duplicateKeysReason } from "../../../src/core/util/json-duplicate-keys";

describe("duplicateKeys", () => {
  it("finds a key written twice in one object, not the same key in sibling objects", () => {
    expect(duplicateKeys('[{"a":1},{"a":2}]').total).toBe(0);
    expect(duplicateKeys('{"a":{"b":1},"c":"{\\"a\\":1}","a":2}').found).toEqual([{ key: "a", line: 1 }]);
    expect(duplicateKeys('{"a":[1,{"a":1,"a":2}]}').found).toEqual([{ key: "a", line: 1 }]);
  });
  it("counts lines and keys beyond the limit", () => {
    const text = `{\n${Array.from({ length: 8 }, (_, i) => `"k":${i}`).join(",\n")}\n}`;
    const result = duplicateKeys(text, 2);
    expect(result.total).toBe(7);
    expect(result.found).toEqual([{ key: "k", line: 3 }, { key: "k", line: 4 }]);
    expect(duplicateKeysReason(result)).toContain("and 5 more");
  });
  it("reads escaped keys as JSON does", () => {
    expect(duplicateKeys('{"\\u0061":1,"a":2}').found).toEqual([{ key: "a", line: 1 }]);
  });
});
