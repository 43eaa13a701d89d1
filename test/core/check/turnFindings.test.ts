// The per-turn classification of `check`: which breaks are expected, a moved reply-language note,
// a compaction that does not reduce.
import { describe, expect, it } from "vitest";
import { noReductionFinding } from "../../../src/core/check/compactionFindings";
import { breakFindings, noteMoved, serverAgreementFinding, serverVerdictFindings } from "../../../src/core/check/turnFindings";
import type { ContextMessage } from "../../../src/core/model";
import { NOTE_RULE } from "../../../src/core/notes/insert";
import type { PrefixTurnReport } from "../../../src/core/prefix/analyze";

function report(cause: PrefixTurnReport["cause"], extra: Partial<PrefixTurnReport> = {}): PrefixTurnReport {
  return {
    turn: 3,
    api: "openai-completions",
    model: "m",
    bytes: 100,
    sharedBytes: 40,
    tokens: 30,
    sharedTokens: 10,
    tokensExact: true,
    tokenizer: "o200k",
    framingApproximate: true,
    breakPath: cause === null ? null : "messages[2].content[0].text",
    breakSegment: null,
    breakByteOffsetInSegment: null,
    breakLevel: "messages",
    cause,
    causeDetail: null,
    contributing: [],
    settingsChanged: [],
    diagnosticsName: null,
    notRecorded: [],
    unrecorded: null,
    gapMs: null,
    expiry: null,
    cache: null,
    predictedCachedTokens: null,
    recordedUsage: null,
    usageComparison: null,
    serverVerdict: null,
    serverMissedTokens: null,
    serverAgreement: "no-verdict",
    serverBreak: false,
    unexplainedMiss: false,
    serverNote: null,
    ...extra,
  };
}

function message(text: string, rule = "entry"): ContextMessage {
  return { message: { role: "user", content: [{ type: "text", text }], timestamp: 0 }, provenance: { rule, entryId: null } } as unknown as ContextMessage;
}

const place = { turn: 3, line: 12, entryId: "e3" };

describe("breakFindings", () => {
  it.each(["history-rewritten", "model-changed", "branch-switch"] as const)("%s is an expected break", (cause) => {
    expect(breakFindings(report(cause), place, [], []).map((f) => f.kind)).toEqual(["expected-prefix-break"]);
  });

  it.each(["system-changed", "mutation", "settings-changed", "timestamp-changed", "failed-turn-dropped"] as const)("%s is an unexpected break", (cause) => {
    const [found] = breakFindings(report(cause), place, [], []);
    expect(found).toMatchObject({ kind: "unexpected-prefix-break", severity: "error", turn: 3, line: 12, cause, path: "messages[2].content[0].text" });
  });

  it("no cause, no finding", () => {
    expect(breakFindings(report(null), place, [], [])).toEqual([]);
  });

  it("a note removed from the sent prefix is note-moved, not an unexpected break", () => {
    const previous = [message("hi"), message("Reply in Korean.", NOTE_RULE), message("more")];
    const next = [message("hi"), message("more"), message("next"), message("Reply in Korean.", NOTE_RULE)];
    const moved = report("note-removed");
    expect(noteMoved(moved, previous, next)).toBe(true);
    expect(breakFindings(moved, place, previous, next).map((f) => f.kind)).toEqual(["note-moved"]);
  });

  it("a note that stays where it was is not a move", () => {
    const previous = [message("hi"), message("Reply in Korean.", NOTE_RULE)];
    const next = [message("hi"), message("Reply in Korean.", NOTE_RULE), message("edited")];
    expect(noteMoved(report("mutation"), previous, next)).toBe(false);
    expect(noteMoved(report("note-removed"), previous, next)).toBe(false);
  });
});

describe("noReductionFinding", () => {
  const event = { kind: "compaction" as const, entryId: "c1", beforeTurn: 5, timestamp: null, tokensBefore: null, firstKeptEntryId: null, summaryChars: 10 };
  it("reports a compaction after which the request is not smaller", () => {
    const found = noReductionFinding(event, new Map([[4, 1000], [5, 1200]]), place);
    expect(found).toMatchObject({ kind: "compaction-no-reduction", severity: "error", entryId: "c1" });
    expect(found!.message).toContain("1000");
  });
  it("is silent when the request got smaller", () => {
    expect(noReductionFinding(event, new Map([[4, 1000], [5, 400]]), place)).toBeNull();
  });
});

describe("the provider's verdict in check", () => {
  it("a disagreement is a warning that carries the verdict and says it in words", () => {
    const disagree = report(null, { serverVerdict: "tools_changed", serverMissedTokens: 97_848, serverAgreement: "disagree", serverBreak: true, serverNote: "The server says the tool definitions changed …" });
    expect(serverVerdictFindings(disagree, place)).toEqual([
      expect.objectContaining({ kind: "server-verdict-disagrees", severity: "warning", turn: 3, line: 12, serverVerdict: "tools_changed", serverMissedTokens: 97_848, message: "The server says the tool definitions changed …" }),
    ]);
  });

  it("an unexplained miss is a warning; an agreement is no finding", () => {
    expect(serverVerdictFindings(report(null, { unexplainedMiss: true, serverNote: "A cache miss …" }), place).map((f) => f.kind)).toEqual(["unexplained-cache-miss"]);
    expect(serverVerdictFindings(report(null, { serverVerdict: "none", serverAgreement: "agree" }), place)).toEqual([]);
  });

  it("counts agreement once per session that records any verdict", () => {
    expect(serverAgreementFinding({ agree: 0, disagree: 0, inconclusive: 0, noVerdict: 9 })).toEqual([]);
    const [found] = serverAgreementFinding({ agree: 173, disagree: 1, inconclusive: 5, noVerdict: 0 });
    expect(found).toMatchObject({ turn: null, kind: "server-verdict-agreement", severity: "info" });
    expect(found!.message).toBe("the provider's cache verdicts recorded in the file: 173 agree with the rebuilt requests, 1 disagree, 5 inconclusive; 0 turns record none");
  });
});
