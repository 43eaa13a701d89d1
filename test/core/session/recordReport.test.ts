import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readSessionText } from "../../../src/core/session/index";
import { newerVersionSentence, recordReport } from "../../../src/core/session/recordReport";
import { fixturePath } from "../../support/fixtures";

function report(name: string) {
  const file = fixturePath(name);
  return recordReport(readSessionText(readFileSync(file, "utf8"), name.split("/").pop()!))!;
}

describe("a file's agent version against the newest verified", () => {
  it("names the versions newer than the newest verified, in plain words", () => {
    const newer = report("claude/structures/newer-version.jsonl");
    expect(newer.versions).toEqual(["2.1.332", "2.1.400"]);
    expect(newer.newestVerified).toBe("2.1.332");
    expect(newer.newerThanVerified).toEqual(["2.1.400"]);
    expect(newerVersionSentence(newer)).toBe("Claude Code 2.1.400 is newer than the newest version verified, 2.1.332");
  });
  it("says nothing of an older version", () => {
    const older = report("claude/structures/unknown-types.jsonl");
    expect(older.versions).toEqual(["2.1.143"]);
    expect(older.newerThanVerified).toEqual([]);
    expect(newerVersionSentence(older)).toBeNull();
  });
});
