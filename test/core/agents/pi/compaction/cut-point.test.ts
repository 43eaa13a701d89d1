// Cut point (PI-K8 … PI-K12) and boundary (PI-K15) on the recorded fixtures (§5.4 worked table,
// spec §6 rows 17–20) and on small synthetic paths.
import { describe, expect, it } from "vitest";
import type { SessionEntry } from "../../../../../src/core/model";
import { findCutPoint, findValidCutPoints } from "../../../../../src/core/agents/pi/compaction/cut-point";
import { prepareCompaction } from "../../../../../src/core/agents/pi/compaction/prepare";
import { loadPiFixture, type PiFixtureName } from "./fixture-sessions";

/** Path at the moment of the compaction on spec entry number `compactionEntry` (header = 0). */
function pathBefore(name: PiFixtureName, compactionEntry: number): SessionEntry[] {
  const entries = loadPiFixture(name).session.entries;
  // Spec entry n is file line n + 1 and path index n - 1 (the header is not an entry).
  return entries.slice(0, compactionEntry - 1);
}
const specEntry = (e: SessionEntry) => e.line - 1;

describe("findCutPoint on the fixtures (§5.4 worked table)", () => {
  it("print-openai #1: cut at entry 11 (user), not split, walk crosses 1800 at entry 11", () => {
    const path = pathBefore("print-openai-autocompact", 20);
    const cut = findCutPoint(path, 0, path.length, 1800);
    expect(specEntry(path[cut.firstKeptEntryIndex]!)).toBe(11);
    expect(cut.firstKeptEntryId).toBe("00bb350c"); // the recorded firstKeptEntryId
    expect(cut.isSplitTurn).toBe(false);
    expect(cut.turnStartIndex).toBe(-1);
    const last = cut.walk[cut.walk.length - 1]!;
    expect(specEntry(path[last.index]!)).toBe(11);
    expect(last.runningTotal).toBeGreaterThanOrEqual(1800);
    const previous = cut.walk[cut.walk.length - 2]!;
    expect(previous.runningTotal).toBeLessThan(1800);
    // §5.2 worked estimate: the architecture `cat` result (entry 13) is 1256 tokens.
    expect(cut.walk.find((r) => specEntry(path[r.index]!) === 13)!.tokens).toBe(1256);
    expect(cut.walk.find((r) => specEntry(path[r.index]!) === 12)!.tokens).toBe(11);
  });

  it("print-openai #2 (G2): boundary at entry 11, toolResult 13 reaches the budget → cut 14, split, turn start 11", () => {
    const path = pathBefore("print-openai-autocompact", 29);
    const prep = prepareCompaction(path, { reserveTokens: 11600, keepRecentTokens: 1800 }, { profile: "pi" })!;
    expect(specEntry(path[prep.boundaryStart]!)).toBe(11);
    const cut = prep.computedCut;
    expect(cut.firstKeptEntryId).toBe("1100d7d9");
    expect(specEntry(path[cut.firstKeptEntryIndex]!)).toBe(14);
    expect(specEntry(path[cut.budgetReachedAt!]!)).toBe(13);
    expect(cut.isSplitTurn).toBe(true);
    expect(specEntry(path[cut.turnStartIndex]!)).toBe(11);
    // The compaction entry (20) is walked over without an estimate (PI-K10).
    const compactionRow = cut.walk.find((r) => r.type === "compaction")!;
    expect(compactionRow.tokens).toBeNull();
    expect(specEntry(path[compactionRow.index]!)).toBe(20);
    // History is empty (boundary = turn start), prefix = entries 11…13.
    expect(prep.messagesToSummarize).toHaveLength(0);
    expect(prep.turnPrefixMessages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult"]);
    expect(prep.previousSummary).toMatch(/^## Goal/);
  });

  it("row 19: print-openai #2 with boundaryRule G1 → boundary 21, budget never reached, cut at 21, 11–19 dropped", () => {
    const path = pathBefore("print-openai-autocompact", 29);
    const prep = prepareCompaction(path, { reserveTokens: 11600, keepRecentTokens: 1800 }, { profile: "pi", boundaryRule: "G1" })!;
    expect(specEntry(path[prep.boundaryStart]!)).toBe(21);
    expect(prep.computedCut.budgetReachedAt).toBeNull();
    const total = prep.computedCut.walk[prep.computedCut.walk.length - 1]!.runningTotal;
    expect(total).toBeLessThan(1800);
    expect(total).toBeGreaterThan(800); // spec: ≈852 (the fixture copy gives 853)
    expect(specEntry(path[prep.firstKeptEntryIndex]!)).toBe(21);
    expect(prep.isSplitTurn).toBe(false);
    expect(prep.messagesToSummarize).toHaveLength(0);
    expect(prep.previousSummary).not.toBeNull();
    expect(prep.droppedWithoutSummary!.lines.map((l) => l - 1)).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19]);
    expect(prep.lints.some((l) => l.startsWith("kept messages dropped without summary"))).toBe(true);
  });

  it("rpc-anthropic #1: keep 40 → cut at user entry 25; #2 (G2): boundary 25, cut 33 split at turn start 32", () => {
    const first = pathBefore("rpc-anthropic-manualcompact", 27);
    const cut1 = findCutPoint(first, 0, first.length, 40);
    expect(cut1.firstKeptEntryId).toBe("7ecf7634");
    expect(specEntry(first[cut1.firstKeptEntryIndex]!)).toBe(25);
    expect(cut1.walk.map((r) => r.runningTotal)).toEqual([31, 44]);
    expect(cut1.isSplitTurn).toBe(false);

    const second = pathBefore("rpc-anthropic-manualcompact", 34);
    const prep = prepareCompaction(second, { reserveTokens: 4000, keepRecentTokens: 40 }, { profile: "pi" })!;
    expect(specEntry(second[prep.boundaryStart]!)).toBe(25);
    expect(prep.firstKeptEntryId).toBe("0d37da71");
    expect(prep.computedCut.walk.map((r) => [specEntry(second[r.index]!), r.runningTotal])).toEqual([[33, 70]]);
    expect(prep.isSplitTurn).toBe(true);
    expect(specEntry(second[prep.turnStartIndex]!)).toBe(32);
    // PI-K17: the previous compaction entry (27) inside the range contributes nothing.
    expect(prep.summarized.lines.map((l) => l - 1)).toEqual([25, 26, 27, 28, 29, 30, 31]);
    expect(prep.messagesToSummarize.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant", "toolResult", "assistant"]);
  });
});

// Synthetic entries ---------------------------------------------------------------------------

let nextLine = 1;
function entry(type: string, extra: Record<string, unknown> = {}): SessionEntry {
  const id = `e${String(nextLine).padStart(3, "0")}`;
  const line = ++nextLine;
  return { id, parentId: null, type, timestamp: "2026-01-01T00:00:00.000Z", line, raw: { type, id, ...extra } };
}
function msg(role: string, chars: number, extra: Record<string, unknown> = {}): SessionEntry {
  const text = "x".repeat(chars);
  const message =
    role === "assistant"
      ? { role, content: [{ type: "text", text }], ...extra }
      : role === "toolResult"
        ? { role, toolCallId: "c", toolName: "bash", content: [{ type: "text", text }], isError: false }
        : role === "bashExecution"
          ? { role, command: "", output: text, exitCode: 0, cancelled: false, truncated: false }
          : { role, content: [{ type: "text", text }] };
  return entry("message", { message });
}

describe("findCutPoint rules on synthetic paths", () => {
  it("PI-K8: toolResult and compaction are never valid cut points; branch_summary and custom_message are", () => {
    const path = [msg("user", 4), msg("toolResult", 4), entry("compaction"), entry("branch_summary", { summary: "s" }), entry("custom_message", { content: "c" }), entry("label")];
    expect(findValidCutPoints(path, 0, path.length, "pi")).toEqual([0, 3, 4]);
  });

  it("PI-K9: no valid cut point → keep from start, not split", () => {
    const path = [msg("toolResult", 400), msg("toolResult", 400)];
    const cut = findCutPoint(path, 0, 2, 10);
    expect(cut.firstKeptEntryIndex).toBe(0);
    expect(cut.isSplitTurn).toBe(false);
  });

  it("PI-K10: budget never reached → first valid cut point", () => {
    const path = [entry("model_change"), msg("toolResult", 4), msg("user", 4), msg("assistant", 4)];
    const cut = findCutPoint(path, 0, path.length, 1000);
    expect(cut.budgetReachedAt).toBeNull();
    // First valid cut point is 2; moving back stops at the toolResult message (PI-K11).
    expect(cut.firstKeptEntryIndex).toBe(2);
  });

  it("PI-K10: pi ignores custom_message sizes in the walk", () => {
    const path = [msg("user", 40), entry("custom_message", { content: "y".repeat(4000) }), msg("assistant", 40)];
    const cut = findCutPoint(path, 0, path.length, 15);
    expect(cut.walk.map((r) => r.tokens)).toEqual([10, null, 10]);
    expect(cut.firstKeptEntryIndex).toBe(0);
  });

  it("PI-K11: the cut moves back over settings entries but not over messages or compactions", () => {
    const path = [msg("user", 400), msg("assistant", 400), entry("thinking_level_change"), entry("model_change"), msg("user", 400), msg("assistant", 400)];
    const cut = findCutPoint(path, 0, path.length, 150);
    expect(cut.budgetReachedAt).toBe(4);
    expect(cut.firstKeptEntryIndex).toBe(2);
    expect(cut.movedOver).toEqual([3, 2]);
    // Entry 2 is not a user message: pi searches back for the turn start → user 0, split.
    expect(cut.isSplitTurn).toBe(true);
    expect(cut.turnStartIndex).toBe(0);
  });

  it("PI-K12: a bash execution starts a turn; an assistant cut with no turn start above is not split", () => {
    const withBash = [msg("bashExecution", 40), msg("assistant", 40), msg("toolResult", 400), msg("assistant", 400)];
    const cut = findCutPoint(withBash, 0, withBash.length, 150);
    expect(cut.firstKeptEntryIndex).toBe(3);
    expect(cut.isSplitTurn).toBe(true);
    expect(cut.turnStartIndex).toBe(0);

    const noStart = [msg("assistant", 40), msg("toolResult", 400), msg("assistant", 400)];
    const cut2 = findCutPoint(noStart, 0, noStart.length, 150);
    expect(cut2.firstKeptEntryIndex).toBe(2);
    expect(cut2.isSplitTurn).toBe(false);
  });

  it("PI-K13: refuses when the path already ends with a compaction", () => {
    expect(prepareCompaction([msg("user", 4), entry("compaction")], { reserveTokens: 1, keepRecentTokens: 1 }, { profile: "pi" })).toBeNull();
  });
});
