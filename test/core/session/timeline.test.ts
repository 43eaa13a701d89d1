// timelineWithAuxiliary: auxiliary requests (opencode title / summariser) placed in the timeline
// the app and the CLI show — before their turn, after that turn's compaction, at the end when no
// turn follows — and checked on the opencode fixture's analysis.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { AuxiliaryRequestEvent, TimelineItem } from "../../../src/core/model";
import { analyzeSession } from "../../../src/core/session/pipeline";
import { readSessionText } from "../../../src/core/session/index";
import { timelineWithAuxiliary } from "../../../src/core/session/timeline";
import { fixtureCase } from "../../support/fixtures";

function aux(index: number, beforeTurn: number | null, purpose: "title" | "summary" = "summary"): AuxiliaryRequestEvent {
  return { kind: "auxiliary", index, purpose, entryId: null, beforeTurn, timestamp: null, rule: "synth:x", ruleId: "X", label: "x" };
}

const compaction = (beforeTurn: number | null): TimelineItem => ({
  kind: "compaction",
  entryId: `c${beforeTurn}`,
  beforeTurn,
  timestamp: null,
  tokensBefore: null,
  firstKeptEntryId: null,
  summaryChars: 0,
});

const key = (item: TimelineItem) =>
  item.kind === "turn" ? `t${item.turn}` : item.kind === "compaction" ? `c${item.beforeTurn}` : `a${item.index}`;

describe("timelineWithAuxiliary", () => {
  it("puts each event before its turn, after that turn's compaction; unknown or null turns at the end", () => {
    const timeline: TimelineItem[] = [{ kind: "turn", turn: 1 }, compaction(2), { kind: "turn", turn: 2 }];
    const merged = timelineWithAuxiliary(timeline, [aux(0, 1, "title"), aux(1, 2), aux(2, null), aux(3, 9)]);
    expect(merged.map(key)).toEqual(["a0", "t1", "c2", "a1", "t2", "a2", "a3"]);
  });

  it("returns the timeline unchanged without auxiliary events and never duplicates them", () => {
    const timeline: TimelineItem[] = [{ kind: "turn", turn: 1 }];
    expect(timelineWithAuxiliary(timeline, undefined)).toEqual(timeline);
    const once = timelineWithAuxiliary(timeline, [aux(0, 1)]);
    expect(timelineWithAuxiliary(once, [aux(0, 1)]).map(key)).toEqual(["a0", "t1"]);
  });

  it("places opencode's title and summariser requests of the fixture", () => {
    const file = fixtureCase("opencode/run-autocompact").path("session/export.json");
    const session = readSessionText(readFileSync(file, "utf8"), "export.json");
    const analysis = analyzeSession(session, { profile: "pi" });
    const merged = timelineWithAuxiliary(analysis.timeline, analysis.auxiliary);
    expect(merged.filter((item) => item.kind === "turn")).toHaveLength(17);
    const around = merged.flatMap((item, at) => (item.kind === "auxiliary" ? [`${key(merged[at - 1] ?? item)}>${key(item)}>${key(merged[at + 1]!)}`] : []));
    expect(around).toEqual(["a0>a0>t1", "c9>a1>t9", "c14>a2>t14"]);
  });
});
