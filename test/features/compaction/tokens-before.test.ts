// One "tokens before" per compaction: the figure the agent's trigger compared with its threshold,
// as the file records it. The timeline row, the trigger sentence of the compaction view and the
// simulator's trigger all give it. Truth: the `compactMetadata.preTokens` of the real file's
// compact_boundary line, read here from the raw line.
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { analyzeSession, readSessionText, simulateCompaction, recordedCompactionPoints } from "../../../src/core/session/index";
import { compactionOutcome } from "../../../src/features/compaction/compactionOutcomeModel";
import { describeShared } from "../../support/fixtures";

describeShared("tokens before a Claude Code compaction", (shared) => {
  it("row, compaction view and simulator give the recorded preTokens (167,181), and say it crossed the default threshold", () => {
    const file = shared.path("realworld/claude-code/entire-6309-v2.1.39-compaction-4subagents.jsonl");
    const text = readFileSync(file, "utf8");
    const boundary = text
      .split("\n")
      .filter((line) => line.includes('"compact_boundary"'))
      .map((line) => JSON.parse(line) as { uuid: string; compactMetadata: { preTokens: number } })[0]!;
    expect(boundary.compactMetadata.preTokens).toBe(167181);
    const session = readSessionText(text, file);
    const options = {};
    const analysis = analyzeSession(session, options);
    const event = analysis.timeline.find((item) => item.kind === "compaction");
    expect(event?.kind === "compaction" && event.tokensBefore).toBe(167181);
    const outcome = compactionOutcome(session, options, analysis, boundary.uuid)!;
    expect(outcome.recordedBefore).toBe(167181);
    // It used to say "it fired at 164,769 tokens, below the 167,000 …" beside "167,181 before".
    expect(outcome.trigger).toContain("167,181 tokens >= the threshold 167,000");
    const point = recordedCompactionPoints(session, options).find((p) => p.entryId === boundary.uuid)!;
    const { trigger } = simulateCompaction({ session, options, turn: point.turn, policyId: "claude-code", recordedCompactionEntryId: boundary.uuid, manual: false, triggerOnly: true, followingTurns: 0 });
    expect(trigger.left).toBe(167181);
    expect(trigger.result).toBe(true);
  });
});
