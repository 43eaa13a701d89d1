// The timeline filter's rows (indexes into the timeline: the cache breaks, the compactions, the
// errors). The whole-session cost the overview strip shows is tested with the pricing module
// (test/core/pricing/dataset.test.ts, wholeSessionCost).
import { describe, expect, it } from "vitest";
import type { TimelineItem, TurnSummary } from "../../src/core/model";
import { filteredRows } from "../../src/page/timelineFilter";
import type { PrefixRow } from "../../src/features/prefix/protocol";

const turn = (number: number, stopReason: string | null = "stop") => ({ turn: number, stopReason }) as TurnSummary;
const prefix = (number: number, cause: string | null) => ({ turn: number, cause }) as PrefixRow;

describe("filteredRows", () => {
  const timeline: TimelineItem[] = [
    { kind: "turn", turn: 1 },
    { kind: "turn", turn: 2 },
    { kind: "compaction", entryId: "c1", beforeTurn: 3, timestamp: null, tokensBefore: null, firstKeptEntryId: null, summaryChars: 10 },
    { kind: "turn", turn: 3 },
    { kind: "turn", turn: 4 },
  ];
  const turns = [turn(1), turn(2, "error"), turn(3), turn(4, "aborted")];

  it("lists each filter's rows as timeline indexes, in order", () => {
    const rows = filteredRows({ analysis: { timeline, turns } as never, prefix: { rows: [prefix(1, null), prefix(3, "compaction"), prefix(4, "edited")] } as never });
    expect(rows).toEqual({ all: [0, 1, 2, 3, 4], breaks: [3, 4], compactions: [2], errors: [1, 4] });
  });

  it("counts a break the provider reported, and a miss nothing explains, although the rebuilt requests show none", () => {
    const server = { ...prefix(2, null), serverBreak: true, unexplainedMiss: false } as PrefixRow;
    const miss = { ...prefix(3, null), serverBreak: false, unexplainedMiss: true } as PrefixRow;
    const rows = filteredRows({ analysis: { timeline, turns } as never, prefix: { rows: [prefix(1, null), server, miss, { ...prefix(4, null), serverBreak: false, unexplainedMiss: false } as PrefixRow] } as never });
    expect(rows.breaks).toEqual([1, 3]);
  });

  it("has no breaks before the prefix pass has run", () => {
    expect(filteredRows({ analysis: { timeline, turns } as never, prefix: { rows: null } as never }).breaks).toEqual([]);
  });
});
