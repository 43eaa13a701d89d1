// The line step the JSONL readers of typed records share (src/core/readers/line-tally.ts): blank
// lines counted but passed over, a bad line or a record without a type skipped with a warning on
// its line, a depth cut named, and a bad last line reported as cut short at the end.
import { describe, expect, it } from "vitest";
import { LineTally } from "../../../src/core/readers/line-tally";

const NO_TYPE = "not a test record (no type), line skipped";

function tallyOf(lines: string[]): { tally: LineTally; records: (Record<string, unknown> | null)[] } {
  const tally = new LineTally();
  const records = lines.map((text, index) => tally.record(text, index + 1, NO_TYPE));
  return { tally, records };
}

describe("LineTally", () => {
  it("passes over blank lines, skips bad lines and records without a type, each with its line", () => {
    const { tally, records } = tallyOf(['{"type":"a"}', "", "{not json", "[1]", '{"x":1}', '{"type":"b","n":2}']);
    expect(records).toEqual([{ type: "a" }, null, null, null, null, { type: "b", n: 2 }]);
    expect(tally.warnings.map(({ line }) => line)).toEqual([3, 4, 5]);
    expect(tally.warnings[0]!.reason).toMatch(/^not valid JSON, line skipped \(/);
    expect(tally.warnings[1]!.reason).toBe("not a JSON object, line skipped");
    expect(tally.warnings[2]!.reason).toBe(NO_TYPE);
    expect(tally.lineCount).toBe(6);
    tally.finish(null);
    expect(tally.warnings).toHaveLength(3);
  });

  it("names a value cut at the depth cap and keeps the record", () => {
    const deep = `${"[".repeat(300)}${"]".repeat(300)}`;
    const { tally, records } = tallyOf([`{"type":"a","deep":${deep}}`]);
    expect(records[0]).toMatchObject({ type: "a" });
    expect(tally.warnings).toEqual([{ line: 1, reason: expect.stringMatching(/nested more than \d+ levels deep/) }]);
  });

  it("says a bad last line was cut short, and why nothing was read", () => {
    const { tally } = tallyOf(['{"x":1}', '{"type":"a","text":"cut']);
    tally.finish("nothing read");
    expect(tally.warnings).toEqual([
      { line: 1, reason: NO_TYPE },
      { line: 2, reason: expect.stringMatching(/^truncated last line skipped \(not valid JSON, line skipped \(/) },
      { line: 0, reason: "nothing read" },
    ]);
  });

  it("object() keeps an object without a type; skip() makes the line the last bad one", () => {
    const tally = new LineTally();
    expect(tally.object('{"x":1}', 1)).toEqual({ x: 1 });
    expect(tally.skip(1, "not ours")).toBeNull();
    tally.finish(null);
    expect(tally.warnings).toEqual([{ line: 1, reason: "truncated last line skipped (not ours)" }]);
  });

  it("an empty file is one warning", () => {
    const tally = new LineTally();
    tally.finish("nothing read");
    expect(tally.warnings).toEqual([{ line: 0, reason: "empty file: no lines to read" }]);
  });
});
