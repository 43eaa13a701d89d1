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

// Every compaction of the shared recordings and real files: the trigger figure of the compaction
// view ("at N tokens") is the recorded tokens before (the row's "N tokens before"), never another count.
const FILES_WITH_COMPACTIONS = [
  "pi/print-openai-autocompact/session/--home-dev-pi-print-openai-autocompact-lighthouse-notes--/2026-11-29T19-24-40-505Z_01a228c4-42b7-7303-bb87-25da37b563c2.jsonl",
  "pi/rpc-anthropic-manualcompact/session/--home-dev-pi-rpc-anthropic-manualcompact-lighthouse-notes--/2026-11-29T19-25-11-888Z_01a228c4-bd4f-721d-a5de-0c91492dc264.jsonl",
  "senpi/print-openai-autocompact/session/--home-dev-senpi-print-openai-autocompact-lighthouse-notes--/2026-11-29T19-40-31-741Z_01a228d2-c67d-7485-8867-b6e4b6363a66.jsonl",
  "codex/exec-autocompact/session/sessions/2026/11/29/rollout-2026-11-29T19-25-29-01a228c5-0111-7641-8ea4-161c4b3a44d5.jsonl",
  "claude/print-autocompact-manualcompact/session/projects/-home-dev-claude-print-autocompact-manualcompact-lighthouse-notes/ae06c21a-08ae-4c39-89e0-c4dcf08d14e8.jsonl",
  "realworld/claude-code/entire-bccb-2compactions-subagents.jsonl",
  "realworld/claude-code/codemie-session-624a4a58-compaction.jsonl",
  "realworld/openclaw/sirdeuce-mixed-ollama-openai-codex.jsonl",
];

describeShared("the trigger figure and the tokens before agree on every compaction", (shared) => {
  it.each(FILES_WITH_COMPACTIONS)("%s", (name) => {
    const file = shared.path(name);
    const session = readSessionText(readFileSync(file, "utf8"), file);
    const options = {};
    const analysis = analyzeSession(session, options);
    const events = analysis.timeline.filter((item) => item.kind === "compaction");
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) {
      if (event.kind !== "compaction" || event.tokensBefore === null) continue;
      const short = compactionOutcome(session, options, analysis, event.entryId)?.triggerShort ?? "";
      const at = /at ([\d,]+) tokens/.exec(short)?.[1];
      if (at !== undefined) expect(Number(at.replace(/,/g, "")), `${event.entryId}: ${short}`).toBe(event.tokensBefore);
    }
  });
});
