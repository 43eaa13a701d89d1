// The compare view's pair texts: both requests as pretty JSON (the Request tab's text) and the
// first difference located in B's text, for a path inside a string, a setting, and a one-sided pair.
import { describe, expect, it } from "vitest";
import { comparePair, compareView, sideOf } from "../../../src/features/compare/compareModel";
import { formatRequestJson } from "../../../src/core/export/request-json";
import { buildTurnRequest } from "../../../src/core/session/pipeline";
import type { PipelineOptions } from "../../../src/core/model";
import { fixtureCase } from "../../support/fixtures";

const options: PipelineOptions = { profile: "pi", api: null, header: null, leafId: null, notes: false };

describe("compare view of two branches", () => {
  const session = fixtureCase("pi/compare-branches").session;
  const a = sideOf(session, { ...options, leafId: "a2" });
  const b = sideOf(session, { ...options, leafId: "a3b" });

  it("labels the sides by branch and finds the first difference at turn 2", () => {
    const view = compareView(a, b, true);
    expect(view.a.label).toContain("branch ending at a2");
    expect(view.b.label).toContain("branch ending at a3b");
    expect(view.comparison.firstDifference).toBe(1);
  });

  it("marks the first differing character of the edited prompt in B's JSON", () => {
    const pair = comparePair(a, b, 2, 2, "messages[3].content[0].text");
    expect(pair.leftJson).toBe(formatRequestJson(buildTurnRequest(session, a.options, 2).body));
    expect(pair.rightJson).toBe(formatRequestJson(buildTurnRequest(session, b.options, 2).body));
    // "Now read the first one" vs "Now read the second one": they part at "f" / "s".
    expect(pair.rightJson.slice(pair.boundaryOffset!, pair.boundaryOffset! + 6)).toBe("second");
  });

  it("a pair only B has: left text empty", () => {
    const pair = comparePair(a, b, null, 3, null);
    expect(pair.leftJson).toBe("");
    expect(pair.rightJson).toContain("Thanks");
  });
});

describe("compare view: a setting that differs", () => {
  it("points at the setting's value in B's request (inside the string, at the first differing character)", () => {
    const a = sideOf(fixtureCase("pi/check-steady").session, options);
    const b = sideOf(fixtureCase("pi/check-thinking-change").session, options);
    const pair = comparePair(a, b, 2, 2, "settings.reasoning_effort");
    expect(pair.rightJson.slice(pair.boundaryOffset! - 21, pair.boundaryOffset!)).toContain('"reasoning_effort": "');
    expect(pair.rightJson.slice(pair.boundaryOffset!)).toMatch(/^high"/);
  });
});
