// The Diff tab's text and boundary: the pretty printer equals JSON.stringify(value, null, 2), a
// path is located at the right offset, escapes are accounted for inside strings, and the
// boundary of a request that extends the previous one is its first new message.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { locateBoundary, offsetInJsonString, parsePath, prettyJsonWithOffset } from "../../../src/core/prefix/pretty-offset";
import { fixtureCase } from "../../support/fixtures";

const fixture = fixtureCase("pi/rpc-anthropic-manualcompact");
const body = (n: string) => fixture.request(Number(n));

describe("prettyJsonWithOffset", () => {
  it("prints like JSON.stringify(value, null, 2), recorded bodies and arbitrary JSON", () => {
    const recorded = body("002");
    expect(prettyJsonWithOffset(recorded, null).text).toBe(JSON.stringify(recorded, null, 2));
    fc.assert(fc.property(fc.jsonValue(), (value) => prettyJsonWithOffset(value, null).text === JSON.stringify(value, null, 2)));
    const odd = { a: undefined, b: [undefined, 1, Number.NaN], c: {}, d: [], e: "q\"\n" };
    expect(prettyJsonWithOffset(odd, null).text).toBe(JSON.stringify(odd, null, 2));
  });

  it("locates the value at a path, and the deepest existing part of a longer path", () => {
    const value = { messages: [{ role: "user", content: "hi" }, { role: "assistant", content: [{ type: "text", text: "ok" }] }] };
    const at = prettyJsonWithOffset(value, parsePath("messages[1].content[0].text"));
    expect(at.depth).toBe(5);
    expect(at.text.slice(at.offset!)).toMatch(/^"ok"/);
    const shorter = prettyJsonWithOffset(value, parsePath("messages[0].content[0].text"));
    expect(shorter.depth).toBe(3);
    expect(shorter.found).toBe("hi");
    expect(shorter.text.slice(shorter.offset!)).toMatch(/^"hi"/);
  });

  it("parses paths with indexes and quoted keys", () => {
    expect(parsePath('input[4].content[0]["odd key"].text')).toEqual(["input", 4, "content", 0, "odd key", "text"]);
  });

  it("maps a character of a string to its offset in the escaped JSON string", () => {
    expect(offsetInJsonString('a"b\nc', 4)).toBe(7);
    expect(JSON.stringify('a"b\nc').slice(offsetInJsonString('a"b\nc', 4))).toMatch(/^c/);
  });
});

describe("locateBoundary", () => {
  it("a break inside a string: at the first differing character", () => {
    const previous = { messages: [{ role: "user", content: "same start, then A" }] };
    const current = { messages: [{ role: "user", content: "same start, then B" }] };
    const { text, offset } = locateBoundary(previous, current, "messages[0].content[0].text");
    expect(text.slice(offset!)).toMatch(/^B"/);
  });

  it("a request that extends the previous one: at its first new message", () => {
    const previous = body("002");
    const current = body("003");
    const { text, offset } = locateBoundary(previous, current, null);
    const count = (previous.messages as unknown[]).length;
    const first = JSON.stringify((current.messages as unknown[])[count], null, 2).split("\n")[0];
    expect(offset).not.toBeNull();
    expect(text.slice(offset!).startsWith(first!)).toBe(true);
  });

  it("the first turn: the whole request is new", () => {
    expect(locateBoundary(null, { a: 1 }, null).offset).toBe(0);
  });
});
