// Times a file holds as numbers become ISO text, or absent when no Date can hold them; a
// transcript line with such a time is kept (found by the fuzz run: it used to throw).
import { describe, expect, it } from "vitest";
import { isoFromEpochMs } from "../../../src/core/util/iso-time";
import { readSessionText } from "../../../src/core/session/index";

describe("isoFromEpochMs", () => {
  it("reads representable times and leaves the others absent", () => {
    expect(isoFromEpochMs(0)).toBe("1970-01-01T00:00:00.000Z");
    expect(isoFromEpochMs(8.64e15)).toBe("+275760-09-13T00:00:00.000Z");
    for (const bad of [8.64e15 + 1, 1e308, -1e308, Number.NaN, Number.POSITIVE_INFINITY, "1", null, undefined]) {
      expect(isoFromEpochMs(bad)).toBeNull();
    }
  });

  it("a hermes transcript line whose timestamp is 1e308 is kept", () => {
    const text = [
      '{"role":"user","content":"Hallo","timestamp":1e+308}',
      '{"role":"assistant","content":"Hallo!"}',
      '{"role":"user","content":"Danke"}',
    ].join("\n");
    const session = readSessionText(text, "20251201_090000_ff0001.jsonl");
    expect(session.entries).toHaveLength(3);
    expect(session.entries[0]?.timestamp).toBeNull();
  });
});
