// Repeated keys of one JSON object, found in one pass: nesting, strings holding braces and quotes,
// arrays of objects (each its own key set), and the count beyond the listed ones; the same found
// on a line's UTF-8 bytes as on its decoded text, and as a plain scan that decodes every key and
// keeps a set of them per object finds (keys compared by their bytes, objects of many keys).
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

  /** The plain scan: every key decoded (JSON.parse of its literal), a set of them per open object. */
  const plainScan = (text: string) => {
    const found: { key: string; line: number }[] = [];
    let total = 0;
    const open: (Set<string> | null)[] = [];
    let line = 1;
    let expectKey = false;
    for (let at = 0; at < text.length; at++) {
      const char = text[at];
      if (char === "\n") line++;
      else if (char === '"') {
        const quote = at;
        for (at++; at < text.length && text[at] !== '"'; at++) if (text[at] === "\\") at++;
        const keys = open[open.length - 1];
        if (!(expectKey && keys)) continue;
        const key = JSON.parse(text.slice(quote, at + 1)) as string;
        if (keys.has(key)) {
          total++;
          if (found.length < 5) found.push({ key, line });
        } else keys.add(key);
        expectKey = false;
      } else if (char === "{") {
        open.push(new Set());
        expectKey = true;
      } else if (char === "[") {
        open.push(null);
        expectKey = false;
      } else if (char === "}" || char === "]") {
        open.pop();
        expectKey = false;
      } else if (char === ",") expectKey = open.length > 0 && open[open.length - 1] !== null;
    }
    return { found, total };
  };

  it("finds what a plain scan finds, in objects of few keys and of many, nested", () => {
    let seed = 11;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    // Keys that read the same written differently (escapes), keys of one length that differ in a byte.
    const keys = ["ab", "ac", "ba", "a\\u0062", "\\u0061b", "é", "\\u00e9", "k", ...Array.from({ length: 30 }, (_, i) => `key${i}`)];
    const object = (depth: number): string => {
      const size = depth === 0 && random(3) === 0 ? 14 + random(20) : random(depth === 0 ? 6 : 4);
      const members = Array.from({ length: size }, () => `"${keys[random(keys.length)]}":${depth < 2 && random(4) === 0 ? object(depth + 1) : depth < 2 && random(3) === 0 ? `[${object(depth + 1)}]` : String(random(9))}`);
      return `{${members.join(",\n")}}`;
    };
    let withRepeats = 0;
    for (let round = 0; round < 300; round++) {
      const text = object(0);
      const expected = plainScan(text);
      if (expected.total > 0) withRepeats++;
      expect(duplicateKeys(text), text).toEqual(expected);
      expect(inBytes(text), text).toEqual(expected);
    }
    expect(withRepeats).toBeGreaterThan(100);
  });
});

