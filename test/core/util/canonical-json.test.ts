// The one canonical JSON of core. Each case names the former copy it would fail on: the Claude Code
// one (rendered in place, functions as null, array holes lost) or the opencode one (a key-sorted
// copy handed to JSON.stringify, a top-level string returned unquoted).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../../src/core/util/canonical-json";

describe("canonicalJson", () => {
  it("sorts keys at every depth, keeps array order and non-ASCII text", () => {
    expect(canonicalJson({ role: "user", content: [{ type: "text", text: "é", a: 1 }] })).toBe(
      '{"content":[{"a":1,"text":"é","type":"text"}],"role":"user"}',
    );
  });

  it("orders integer-like keys as strings, not first and numerically (opencode copy)", () => {
    expect(canonicalJson({ b: 1, a: 2, "10": 3, "2": 4, "": 5 })).toBe('{"":5,"10":3,"2":4,"a":2,"b":1}');
    expect(canonicalJson({ x: { "1": true, "0": false, "-1": null } })).toBe('{"x":{"-1":null,"0":false,"1":true}}');
  });

  it("renders nested arrays, and array holes as null (Claude Code copy)", () => {
    expect(canonicalJson([[{ b: 1, a: [{ d: 1, c: 2 }] }], [], [[]]])).toBe('[[{"a":[{"c":2,"d":1}],"b":1}],[],[[]]]');
    const sparse: unknown[] = [1, , [2, , 3]];
    expect(canonicalJson(sparse)).toBe("[1,null,[2,null,3]]");
    expect(canonicalJson(sparse)).toBe(JSON.stringify(sparse));
  });

  it("drops undefined, function and symbol values in objects, writes them null in arrays", () => {
    expect(canonicalJson({ a: undefined, b: [undefined], c: { d: undefined }, e: null })).toBe('{"b":[null],"c":{},"e":null}');
    // Claude Code copy: a function value was written `"f":null`.
    expect(canonicalJson({ f: () => 1, s: Symbol("s"), g: 1 })).toBe('{"g":1}');
    expect(canonicalJson([() => 1, Symbol("s")])).toBe("[null,null]");
  });

  it("renders a top-level undefined as null and a top-level string quoted (opencode copy)", () => {
    expect(canonicalJson(undefined)).toBe("null");
    expect(canonicalJson("é \"q\"")).toBe('"é \\"q\\""');
    expect(canonicalJson(42)).toBe("42");
    expect(canonicalJson(Number.NaN)).toBe("null");
  });

  it("keeps unicode as JSON.stringify writes it: raw non-ASCII, escaped lone surrogates", () => {
    expect(canonicalJson({ k: "é한😀", "\u0001": "\n" })).toBe('{"\\u0001":"\\n","k":"é한😀"}');
    expect(canonicalJson(["\ud800", "\udc00x"])).toBe('["\\ud800","\\udc00x"]');
    // UTF-16 code unit order: U+1F600 (a surrogate pair, 0xD83D…) sorts before U+FFFF.
    expect(canonicalJson({ "\uffff": 1, "😀": 2, é: 3 })).toBe('{"é":3,"😀":2,"\uffff":1}');
  });

  it("keeps an own __proto__ key of parsed data (opencode copy dropped it)", () => {
    const parsed: unknown = JSON.parse('{"b":1,"__proto__":{"x":1}}');
    expect(canonicalJson(parsed)).toBe('{"__proto__":{"x":1},"b":1}');
  });

  it("renders the value's own keys only: toJSON is not called", () => {
    expect(canonicalJson({ when: new Date(0) })).toBe('{"when":{}}');
  });

  it("is JSON that parses back to the value, whatever the key order", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
        expect(canonicalJson(JSON.parse(text))).toBe(text);
        const reversed = JSON.parse(JSON.stringify(value), (_key, v: unknown) =>
          typeof v === "object" && v !== null && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).reverse()) : v,
        ) as unknown;
        expect(canonicalJson(reversed)).toBe(text);
      }),
    );
  });
});
