// The element scan of a JSON message list keeps every element it can on broken input: a missing
// comma does not join two messages, an element never closed is skipped up to the next line that
// starts an object, and every scan ends (found by the fuzz run on a transcript with a stray "[").
import { describe, expect, it } from "vitest";
import { scanTopLevelElements } from "../../../src/core/readers/json-elements";

const texts = (text: string) => scanTopLevelElements(text).elements.map((element) => [element.line, element.text]);

describe("scanTopLevelElements", () => {
  it("splits a well-formed list with no warning", () => {
    const scan = scanTopLevelElements('[\n{"role":"user","content":"a"},\n{"role":"assistant","content":"b"}\n]');
    expect(scan.elements.map((element) => element.line)).toEqual([2, 3]);
    expect(scan.warnings).toEqual([]);
  });

  it("a missing comma starts the next message instead of swallowing it", () => {
    const scan = scanTopLevelElements('[{"role":"user","content":"a"}\n{"role":"assistant","content":"b"}]');
    expect(texts('[{"role":"user","content":"a"}\n{"role":"assistant","content":"b"}]')).toEqual([
      [1, '{"role":"user","content":"a"}'],
      [2, '{"role":"assistant","content":"b"}'],
    ]);
    expect(scan.warnings.map((warning) => warning.line)).toEqual([2]);
  });

  it("an element never closed is skipped up to the next object line, and the rest is kept", () => {
    const text = '[{"role":"user","content":"a"}\n{"role":"assistant","content":"b"}\n{not json\n{"role":"user","content":"c"}\n';
    const scan = scanTopLevelElements(text);
    expect(scan.elements.map((element) => element.line)).toEqual([1, 2, 4]);
    expect(scan.warnings.some((warning) => warning.line === 3 && /never closed/.test(warning.reason))).toBe(true);
    expect(scan.warnings.at(-1)?.reason).toMatch(/truncated/);
  });

  it("ends when the file stops right after an element, and when it stops inside one", () => {
    expect(texts('[{"a":1}')).toEqual([[1, '{"a":1}']]);
    const cut = scanTopLevelElements('[{"a":1},{"b":');
    expect(cut.elements).toHaveLength(1);
    expect(cut.warnings[0]?.reason).toMatch(/message \[1\]: truncated/);
  });
});
