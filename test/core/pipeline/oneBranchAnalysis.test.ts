// The analysis of a one-branch session (src/core/pipeline/oneBranchAnalysis.ts): compactions stand
// before the first turn after them (or at the end), a turn after one is marked, a model change
// marks the turn, and the one branch ends at the file's last entry.
import { describe, expect, it } from "vitest";
import type { CompactionEvent, ModelRef, Session, SessionEntry } from "../../../src/core/model";
import { analyzeOneBranch, oneBranchSummary, type TurnPlace } from "../../../src/core/pipeline/oneBranchAnalysis";

interface Turn {
  turn: number;
  model: string | null;
}

const entry = (id: string): SessionEntry => ({ id, parentId: null, type: "record", timestamp: `t-${id}`, line: 1, raw: {} });

function sessionOf(entries: SessionEntry[]): Session {
  return { formatId: "test", formatLabel: "test", fileName: "test.jsonl", formatVersion: null, header: null, entries, warnings: [], lineCount: entries.length };
}

function compaction(position: number): CompactionEvent {
  return { kind: "compaction", entryId: `c${position}`, beforeTurn: null, timestamp: null, tokensBefore: null, firstKeptEntryId: null, summaryChars: 0 };
}

function analyze(turns: Turn[], turnsBefore: number[], entries = [entry("e1"), entry("e2")]) {
  const places: TurnPlace[] = [];
  const describe = {
    compactionEvent: compaction,
    modelOf: (turn: Turn): ModelRef | null => (turn.model === null ? null : { provider: "openai", modelId: turn.model }),
    summary: (turn: Turn, place: TurnPlace) => {
      places.push(place);
      return oneBranchSummary({ turn: turn.turn, entry: { id: `a${turn.turn}`, timestamp: null }, api: "openai-completions", thinkingLevel: "off", messageCount: 2, chars: 10, usage: null }, place);
    },
  };
  const fold = { turns, compactions: turnsBefore.map((count) => ({ turnsBefore: count })), warnings: [{ line: 3, reason: "a fold warning" }] };
  return { analysis: analyzeOneBranch(sessionOf(entries), fold, describe), places };
}

describe("analyzeOneBranch", () => {
  it("puts each compaction before the first turn after it, and those after the last turn at the end", () => {
    const { analysis } = analyze([{ turn: 1, model: "m" }, { turn: 2, model: "m" }, { turn: 3, model: "m" }], [1, 1, 3]);
    expect(analysis.timeline.map((item) => (item.kind === "turn" ? `t${item.turn}` : item.entryId))).toEqual(["t1", "c0", "c1", "t2", "t3", "c2"]);
    expect(analysis.turns.map((turn) => turn.afterCompaction)).toEqual([false, true, false]);
  });

  it("marks a turn whose model is not the turn before's, never the first", () => {
    const { places } = analyze([{ turn: 1, model: "m" }, { turn: 2, model: "m" }, { turn: 3, model: "n" }, { turn: 4, model: null }, { turn: 5, model: null }], []);
    expect(places.map((place) => place.modelSwitched)).toEqual([false, false, true, true, false]);
    expect(places[2]!.model).toEqual({ provider: "openai", modelId: "n" });
  });

  it("ends the one branch at the last entry, with the fold's warnings", () => {
    const { analysis } = analyze([{ turn: 1, model: "m" }], []);
    expect(analysis.branches).toEqual([{ leafId: "e2", turns: 1, timestamp: "t-e2", label: null, isDefault: true }]);
    expect(analysis.leafId).toBe("e2");
    expect(analysis.warnings).toEqual([{ line: 3, reason: "a fold warning" }]);
    expect(analyze([], [], []).analysis).toMatchObject({ branches: [], leafId: null, turns: [], timeline: [] });
  });

  it("summarises a turn with its tokens estimated as a quarter of its characters, rounded up", () => {
    const { analysis } = analyze([{ turn: 1, model: "m" }], []);
    expect(analysis.turns[0]).toMatchObject({ turn: 1, entryId: "a1", estimatedTokens: 3, chars: 10, stopReason: null, hasNote: false, hasDropped: false });
  });
});
