// Settings inference on the committed fixtures: an inconsistent session (a record edited so that
// no keepRecentTokens fits both compactions) names the compactions that disagree, and the
// settings the user gives are taken as known instead of inferred.
import { describe, expect, it } from "vitest";
import type { Session } from "../../../../src/core/model";
import { inferSettings } from "../../../../src/core/session/simulate/index";
import { fixtureCase } from "../../../support/fixtures";

function withFirstKept(session: Session, compactionIndex: number, firstKeptEntryId: string): Session {
  let seen = 0;
  const entries = session.entries.map((e) => {
    if (e.type !== "compaction") return e;
    seen++;
    return seen === compactionIndex ? { ...e, raw: { ...e.raw, firstKeptEntryId } } : e;
  });
  return { ...session, entries };
}

describe("settings inference", () => {
  const fixture = fixtureCase("pi/print-openai-autocompact");

  it("gives one keepRecentTokens interval for the session, with the compactions that bound it", () => {
    const inference = inferSettings(fixture.session, { profile: "pi" }, "pi");
    const keep = inference.settings.find((s) => s.setting === "keepRecentTokens")!;
    expect([keep.min, keep.max, keep.value]).toEqual([1788, 1804, 1804]);
    expect(keep.bounds.map((b) => [b.side, b.compaction])).toEqual([["min", 1], ["max", 1]]);
    expect(inference.parameters.keepRecentTokens).toBe(1804);
  });

  it("an inconsistent session says which compaction disagrees", () => {
    // Compaction 2 moved to the cut a budget of at most 1220 gives; compaction 1 needs 1788–1804.
    const edited = withFirstKept(fixture.session, 2, "ddea802c");
    const inference = inferSettings(edited, { profile: "pi" }, "pi");
    const keep = inference.settings.find((s) => s.setting === "keepRecentTokens")!;
    expect(inference.consistent).toBe(false);
    expect(keep.conflict).toMatch(/^keepRecentTokens: compaction 1 \(after turn \d+\) needs ≥ 1788, compaction 2 \(after turn \d+\) needs ≤ \d+$/);
    expect(inference.conflicts).toEqual([keep.conflict]);
    expect(keep.value).toBeNull();
    expect(inference.parameters.keepRecentTokens).toBeUndefined();
  });

  it("a setting the user gives is not inferred", () => {
    const inference = inferSettings(fixture.session, { profile: "pi" }, "pi", { parameters: { keepRecentTokens: 1800 }, limits: { contextWindow: 16000 } });
    expect(inference.settings.map((s) => s.setting)).toEqual(["reserveTokens"]);
    const reserve = inference.settings[0]!;
    expect(reserve.min! <= 11600 && reserve.max! >= 11600).toBe(true);
    expect(reserve.assumes).toContain("16000");
  });
});
