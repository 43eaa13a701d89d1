// The byte-for-byte comparison: sorted keys, leaf paths, JSON strings compared inside.
import { describe, expect, it } from "vitest";
import { differingPaths, sortedJson } from "../../../src/core/captures/diff";
import { billingSuffix, firstUserText } from "../../../src/core/agents/claude-code/billing";

describe("differingPaths", () => {
  it("ignores key order and names each differing leaf", () => {
    expect(differingPaths({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).toEqual([]);
    expect(differingPaths({ a: 1, b: { c: [1, 2] } }, { a: 2, b: { c: [1, 3] } })).toEqual(["$.a", "$.b.c[1]"]);
    expect(differingPaths({ t: [1] }, { t: [1, 2] })).toEqual(["$.t"]);
    expect(differingPaths({ "x-y": 1 }, { "x-y": 2 })).toEqual(['$["x-y"]']);
  });
  it("looks inside a string that holds a JSON object on both sides; key order inside a string counts", () => {
    expect(differingPaths({ m: JSON.stringify({ a: 1, b: 2 }) }, { m: JSON.stringify({ a: 1, b: 3 }) })).toEqual(["$.m<json>.b"]);
    expect(differingPaths({ m: '{"a":1,"b":2}' }, { m: '{"b":2,"a":1}' })).toEqual(["$.m"]);
  });
  it("sortedJson sorts nested keys only", () => {
    expect(sortedJson({ b: [{ d: 1, c: 2 }], a: 0 })).toBe('{"a":0,"b":[{"c":2,"d":1}]}');
  });
});

describe("Claude Code billing suffix", () => {
  it("reads the first user text that is not a system reminder", () => {
    const messages = [{ role: "user", content: [{ type: "text", text: "<system-reminder>x</system-reminder>" }, { type: "text", text: "hello world, how are you" }] }];
    expect(firstUserText(messages)).toBe("hello world, how are you");
    expect(firstUserText([{ role: "assistant", content: "x" }])).toBeNull();
  });
  it("reproduces the recorded suffixes (921 before the compaction, cf6 after)", () => {
    expect(billingSuffix([{ role: "user", content: "이 디렉터리의 파일을 확인하고 README를 요약해줘" }], "2.1.332")).toBe("921");
    const summary = "This session is being continued from a previous conversation that ran out of context.";
    expect(billingSuffix([{ role: "user", content: [{ type: "text", text: summary }] }], "2.1.332")).toBe("cf6");
    expect(billingSuffix([], "2.1.332")).toBeNull();
  });
});
