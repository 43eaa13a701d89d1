// Claude Code versions that keep nothing verbatim across a compaction (CP-CC-INF-6): a boundary
// without preservedMessages / preservedSegment (2.0.76, 2.1.17) means the summary alone continued.
// Own fixture: the committed recording with those fields taken out of its boundaries; real users'
// transcripts from ../shared: the inferred window interval is non-empty and every recorded
// compaction's kept messages (none) are reproduced.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Session } from "../../../../src/core/model";
import { readSessionText } from "../../../../src/core/session/index";
import { inferSettings, replayRecordedCompactions } from "../../../../src/core/session/simulate/index";
import { describeShared, fixtureCase } from "../../../support/fixtures";

function withoutPreserved(session: Session): Session {
  const entries = session.entries.map((e) => {
    if (e.type !== "system" || e.raw.subtype !== "compact_boundary") return e;
    const { preservedMessages: _m, preservedSegment: _s, ...metadata } = e.raw.compactMetadata as Record<string, unknown>;
    return { ...e, raw: { ...e.raw, compactMetadata: metadata } };
  });
  return { ...session, entries };
}

describe("Claude Code boundaries without preserved messages", () => {
  const session = fixtureCase("claude/print-autocompact-manualcompact").session;

  it("a recording with preserved messages still keeps the last answer (and the pending prompt)", () => {
    const lines = replayRecordedCompactions(session, { profile: "pi" }, "claude-code", { parameters: { autoCompactWindow: 100000 } });
    expect(lines.map((l) => l.keptMatches)).toEqual([true, true]);
    expect(lines[0]!.simulatedKept.length).toBe(2);
  });

  it("without them the record says nothing was kept, and the simulation keeps nothing", () => {
    const lines = replayRecordedCompactions(withoutPreserved(session), { profile: "pi" }, "claude-code", { parameters: { autoCompactWindow: 100000 } });
    expect(lines.map((l) => [l.keptMatches, l.recordedKept, l.simulatedKept])).toEqual([[true, [], []], [true, [], []]]);
  });

  it("the user can still ask for the newer behaviour, which then does not match", () => {
    const lines = replayRecordedCompactions(withoutPreserved(session), { profile: "pi" }, "claude-code", { parameters: { autoCompactWindow: 100000, preserveMessages: "on" } });
    expect(lines.map((l) => l.keptMatches)).toEqual([false, false]);
  });
});

describeShared("real users' Claude Code transcripts with compactions", (shared) => {
  const cases = [
    { file: "realworld/claude-code/codemie-session-624a4a58-compaction.jsonl", compactions: 1 },
    { file: "realworld/claude-code/entire-bccb-2compactions-subagents.jsonl", compactions: 2 },
  ];
  for (const { file, compactions } of cases) {
    it(`${file}: a non-empty window interval, and every recorded compaction's kept messages reproduced`, () => {
      const path = shared.path(file);
      const session = readSessionText(readFileSync(path, "utf8"), path);
      const inference = inferSettings(session, { profile: "pi" }, "claude-code");
      const window = inference.settings.find((s) => s.setting === "autoCompactWindow")!;
      expect(window.conflict).toBeNull();
      expect(window.min! <= window.max!).toBe(true);
      const lines = replayRecordedCompactions(session, { profile: "pi" }, "claude-code", { parameters: inference.parameters, limits: inference.limits });
      expect(lines.length).toBe(compactions);
      expect(lines.map((l) => [l.keptMatches, l.verdict])).toEqual(Array.from({ length: compactions }, () => [true, "compacted"]));
    }, 240_000);
  }
});
