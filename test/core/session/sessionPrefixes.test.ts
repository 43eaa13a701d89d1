// Whole-session prefix analysis through the pipeline (src/core/session/sessionPrefixes.ts): on the pi
// fixtures every turn right after a compaction breaks with history-rewritten and every other
// turn extends the previous one; the recorded usage is normalised; the facts between turns come
// from the turn summaries; the Tokens tab's composition adds up.
import { describe, expect, it } from "vitest";
import type { PipelineOptions, Session, TurnSummary } from "../../../src/core/model";
import { analyzeSession } from "../../../src/core/session/pipeline";
import { tokenComposition } from "../../../src/core/prefix/composition";
import { analyzeSessionPrefixes, iterateSessionPrefixes, turnFactsOf } from "../../../src/core/session/sessionPrefixes";
import { buildAllTurnRequests } from "../../../src/core/session/turnRequests";
import { fixtureCase } from "../../support/fixtures";

function load(dir: string): Session {
  return fixtureCase(dir).session;
}

const CASES: { dir: string; options: PipelineOptions }[] = [
  { dir: "pi/print-openai-autocompact", options: { profile: "pi" } },
  { dir: "pi/rpc-anthropic-manualcompact", options: { profile: "pi" } },
  { dir: "senpi/print-openai-autocompact", options: { profile: "senpi" } },
];

describe("analyzeSessionPrefixes", () => {
  it.each(CASES)("$dir: breaks exactly after the compactions, with history-rewritten", ({ dir, options }) => {
    const session = load(dir);
    const analysis = analyzeSession(session, options);
    const reports = analyzeSessionPrefixes(session, options, { prefix: { tokenizer: "estimate" } });
    expect(reports.map((r) => r.turn)).toEqual(analysis.turns.map((t) => t.turn));
    const after = analysis.turns.filter((t) => t.afterCompaction).map((t) => t.turn);
    expect(after.length).toBeGreaterThan(0);
    for (const report of reports) {
      if (after.includes(report.turn)) {
        expect(report.cause, `turn ${report.turn}`).toBe("history-rewritten");
        expect(report.causeDetail).toBe("compaction");
      } else {
        expect(report.cause, `turn ${report.turn}`).toBeNull();
        expect(report.breakPath).toBeNull();
      }
      // The fixtures record usage on every answer; it is normalised (pi: input excludes cache reads).
      expect(report.recordedUsage?.source).toBe("pi");
    }
  });

  it("the iterator streams the same reports, and a shared analysis gives the same result", () => {
    const session = load("pi/print-openai-autocompact");
    const options: PipelineOptions = { profile: "pi" };
    const all = analyzeSessionPrefixes(session, options, { prefix: { tokenizer: "estimate" } });
    const iterator = iterateSessionPrefixes(session, options, { analysis: analyzeSession(session, options), prefix: { tokenizer: "estimate" } });
    const first = iterator.next();
    expect(first.done).toBe(false);
    expect(first.value).toEqual(all[0]);
    expect([first.value, ...iterator]).toEqual(all);
  });
});

describe("turnFactsOf", () => {
  const summary = (extra: Partial<TurnSummary>): TurnSummary => ({
    turn: 2,
    entryId: "a",
    timestamp: null,
    model: null,
    api: null,
    thinkingLevel: "off",
    messageCount: 1,
    estimatedTokens: 1,
    chars: 1,
    usage: null,
    stopReason: "stop",
    afterCompaction: false,
    modelSwitched: false,
    hasNote: false,
    hasDropped: false,
    ...extra,
  });

  it("maps compaction, failed previous turn and model switch", () => {
    expect(turnFactsOf(summary({ stopReason: "error" }), summary({ afterCompaction: true, modelSwitched: true }))).toEqual({
      compactionBetween: true,
      droppedFailedTurn: true,
      modelChanged: true,
    });
    expect(turnFactsOf(null, summary({ modelSwitched: true }))).toEqual({ compactionBetween: false, droppedFailedTurn: false, modelChanged: false });
  });
});

describe("tokenComposition", () => {
  it("groups a turn after a compaction into tools, system, messages and the summary; exact for OpenAI", () => {
    const session = load("pi/print-openai-autocompact");
    const analysis = analyzeSession(session, { profile: "pi" });
    const turn = analysis.turns.find((t) => t.afterCompaction)!.turn;
    const built = buildAllTurnRequests(session, { profile: "pi" })[turn - 1]!;
    const composition = tokenComposition(built);
    expect(composition.exact).toBe(true);
    expect(composition.rows.map((r) => r.kind)).toEqual(expect.arrayContaining(["tools", "system", "user", "assistant", "tool-result", "summary"]));
    expect(composition.rows.find((r) => r.kind === "summary")!.count).toBe(1);
    expect(composition.total).toBe(composition.rows.reduce((sum, r) => sum + r.tokens, 0));
    expect(composition.messages).toHaveLength(built.messages.length);
    // Not recorded system prompt and tools count 0 and are listed.
    expect(composition.notRecorded.length).toBeGreaterThan(0);
    const estimate = tokenComposition(built, { tokenizer: "estimate" });
    expect(estimate.exact).toBe(false);
    expect(estimate.total).not.toBe(composition.total);
  });
});
