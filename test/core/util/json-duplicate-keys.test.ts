// Repeated keys of one JSON object, found in one pass: nesting, strings holding braces and quotes,
// arrays of objects (each its own key set), and the count beyond the listed ones; the same found
// on a line's UTF-8 bytes as on its decoded text.
import { describe, expect, it } from "vitest";
import { duplicateKeys, duplicateKeysInBytes, duplicateKeysReason } from "../../../src/core/util/json-duplicate-keys";

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

describe("duplicateKeysInBytes", () => {
  const encoder = new TextEncoder();
  /** The text's bytes inside a larger buffer, so that the range's bounds are the ones read. */
  const inBytes = (text: string, limit?: number, firstLine?: number) => {
    const body = encoder.encode(text);
    const bytes = new Uint8Array(body.length + 8);
    bytes.set(encoder.encode('"{"a'), 0);
    bytes.set(body, 4);
    bytes.set(encoder.encode('"}"a'), 4 + body.length);
    return duplicateKeysInBytes(bytes, 4, 4 + body.length, limit, firstLine);
  };
  const texts = [
    '[{"a":1},{"a":2}]',
    '{"a":{"b":1},"c":"{\\"a\\":1}","a":2}',
    '{"a":[1,{"a":1,"a":2}]}',
    '{"\\u0061":1,"a":2}',
    '{"é":1,"\\u00e9":2,"é":3}',
    '{"\uFEFFk":1,"k":2,"\uFEFFk":3}',
    '{"t":"ends in a backslash \\\\","t":"a \\" quote","t":"ü 😀 \\\\\\""}',
    '{"x":"{\\"x\\":[","y":{"x":1,"x":2},"x":null}',
    `{\n${Array.from({ length: 8 }, (_, i) => `"k":"${"ü".repeat(i)}"`).join(",\n")}\n}`,
    '{"k":"unclosed',
    '{"k\\',
  ];
  it("finds what duplicateKeys finds on the decoded text, without reading past the range", () => {
    for (const text of texts) {
      expect(inBytes(text), text).toEqual(duplicateKeys(text));
      expect(inBytes(text, 1, 40), text).toEqual(duplicateKeys(text, 1, 40));
    }
    expect(inBytes('{"\uFEFFk":1,"k":2,"\uFEFFk":3}').found).toEqual([{ key: "\uFEFFk", line: 1 }]);
    expect(inBytes(texts[8]!, 2).total).toBe(7);
  });
  it("agrees with the text's scan on generated objects", () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const keys = ["a", "b", "é", "\\u0062", "k\\\"q", "😀"];
    const value = (depth: number): string => {
      const pick = random(depth > 2 ? 3 : 5);
      if (pick === 0) return String(random(100));
      if (pick === 1) return JSON.stringify(`s${"\\\"{}[],é".slice(random(8))}`);
      if (pick === 2) return "null";
      if (pick === 3) return `[${Array.from({ length: random(3) }, () => value(depth + 1)).join(",")}]`;
      return `{${Array.from({ length: random(4) }, () => `"${keys[random(keys.length)]}":${value(depth + 1)}`).join(",")}}`;
    };
    let withRepeats = 0;
    for (let round = 0; round < 300; round++) {
      const text = `{${Array.from({ length: 1 + random(5) }, () => `"${keys[random(keys.length)]}":${value(0)}`).join(",")}}`;
      const expected = duplicateKeys(text);
      if (expected.total > 0) withRepeats++;
      expect(inBytes(text), text).toEqual(expected);
    }
    expect(withRepeats).toBeGreaterThan(30);
  });
});
