// The provider's recorded cache verdict against the break the rebuilt requests show: when the two
// agree, how a disagreement is worded (naming the verdict and what the file cannot show), the
// verdicts that say nothing about what changed, and a miss the recorded usage shows that nothing
// explains (never "no break"), as opposed to one an expired cache explains.
import { describe, expect, it } from "vitest";
import { normalizeUsage } from "../../../src/core/caching/usage";
import { emptyServerVerdictTally, readServerVerdict, tallyServerVerdict, type VerdictInput } from "../../../src/core/prefix/server-verdict";

const usage = (read: number, write: number) => normalizeUsage("pi", { input: 2, output: 10, cacheRead: read, cacheWrite: write });

function input(extra: Partial<VerdictInput>): VerdictInput {
  return {
    verdict: null,
    hasPrevious: true,
    cause: null,
    causeWords: null,
    diagnosticsName: null,
    breakPath: null,
    unrecordedLevels: [],
    usage: usage(40_000, 500),
    previousRecordedInput: 40_000,
    expiry: null,
    ...extra,
  };
}

describe("readServerVerdict", () => {
  it("agrees when the server names the part the rebuilt requests break in", () => {
    const reading = readServerVerdict(
      input({ verdict: { type: "system_changed", missedTokens: 1200 }, cause: "system-changed", causeWords: "system prompt changed", diagnosticsName: "system_changed", breakPath: "system[1].text" }),
    );
    expect(reading).toMatchObject({ serverVerdict: "system_changed", serverMissedTokens: 1200, serverAgreement: "agree", serverBreak: true, unexplainedMiss: false });
    expect(reading.note).toBe("The server says the system prompt changed (1,200 input tokens missed the cache), as the rebuilt requests show.");
  });

  it("a change the file does not record: names the verdict and says the transcript cannot show it", () => {
    const reading = readServerVerdict(input({ verdict: { type: "tools_changed", missedTokens: 97_848 }, unrecordedLevels: ["tools"], usage: usage(0, 125_929) }));
    expect(reading).toMatchObject({ serverAgreement: "disagree", serverBreak: true, unexplainedMiss: false });
    expect(reading.note).toBe(
      "The server says the tool definitions changed (97,848 input tokens missed the cache). The file does not record the tool definitions, so the rebuilt requests cannot show the change: the difference is in something the transcript does not record.",
    );
  });

  it("a change in a part the file records, rebuilt identical: says so", () => {
    const reading = readServerVerdict(input({ verdict: { type: "messages_changed", missedTokens: 258_099 } }));
    expect(reading.serverAgreement).toBe("disagree");
    expect(reading.note).toBe(
      "The server says the messages changed (258,099 input tokens missed the cache); the messages rebuilt from the file are identical up to here — the difference is in something the transcript does not record.",
    );
  });

  it("a break in another part than the server names", () => {
    const reading = readServerVerdict(
      input({ verdict: { type: "system_changed", missedTokens: null }, cause: "mutation", causeWords: "earlier message edited", diagnosticsName: "messages_changed", breakPath: "messages[3].content[0].text" }),
    );
    expect(reading.serverAgreement).toBe("disagree");
    expect(reading.note).toContain("The server says the system prompt changed; the rebuilt requests first differ in the messages at messages[3].content[0].text (earlier message edited)");
  });

  it("the server found nothing changed: agrees with no break, disagrees with one", () => {
    expect(readServerVerdict(input({ verdict: { type: "none", missedTokens: null } }))).toMatchObject({ serverAgreement: "agree", serverBreak: false, note: null });
    const broke = readServerVerdict(
      input({ verdict: { type: "none", missedTokens: null }, cause: "timestamp-changed", causeWords: "timestamp changed", diagnosticsName: "messages_changed", breakPath: "messages[0].content[0].text" }),
    );
    expect(broke.serverAgreement).toBe("disagree");
    expect(broke.note).toContain("The server found nothing changed since the previous request; the rebuilt requests differ at messages[0].content[0].text (timestamp changed)");
  });

  it.each([
    ["previous_message_not_found", "the server no longer had the previous request to compare with"],
    ["unavailable", "the server gave no diagnosis for this request"],
    ["pending", "the server's comparison had not finished"],
  ])("%s is inconclusive, said in words", (type, words) => {
    const reading = readServerVerdict(input({ verdict: { type, missedTokens: null } }));
    expect(reading).toMatchObject({ serverAgreement: "inconclusive", serverBreak: false });
    expect(reading.note).toContain(words);
  });

  it("the first request has nothing to compare with", () => {
    expect(readServerVerdict(input({ verdict: { type: "none", missedTokens: null }, hasPrevious: false })).serverAgreement).toBe("inconclusive");
  });

  it("no verdict: a miss nothing explains is named, never 'no break'", () => {
    const reading = readServerVerdict(input({ usage: usage(17_481, 28_568), previousRecordedInput: 43_006 }));
    expect(reading).toMatchObject({ serverVerdict: null, serverAgreement: "no-verdict", unexplainedMiss: true });
    expect(reading.note).toBe(
      "A cache miss the rebuilt requests cannot explain: the recorded usage reads 17,481 tokens from the cache and writes 28,568 again, where the previous call had 43,006, and no break shows in the rebuilt requests.",
    );
  });

  it("a miss an expired cache, a break or the server's verdict explains is not unexplained", () => {
    const missed = { usage: usage(0, 59_058), previousRecordedInput: 56_000 };
    expect(readServerVerdict(input(missed)).unexplainedMiss).toBe(true);
    expect(readServerVerdict(input({ ...missed, expiry: { status: "expired", gapMs: 6e6, ttlMs: 3.6e6, rule: "anthropic 1h", ruleId: "CA-4" } })).unexplainedMiss).toBe(false);
    expect(readServerVerdict(input({ ...missed, cause: "mutation", diagnosticsName: "messages_changed" })).unexplainedMiss).toBe(false);
    expect(readServerVerdict(input({ ...missed, verdict: { type: "tools_changed", missedTokens: 50_000 } })).unexplainedMiss).toBe(false);
    // A request that grew by more than the previous one held is no miss when it reads what that one held.
    expect(readServerVerdict(input({ usage: usage(40_000, 45_000), previousRecordedInput: 40_000 })).unexplainedMiss).toBe(false);
    // A previous prompt shorter than any provider caches could never be read back.
    expect(readServerVerdict(input({ usage: usage(0, 300), previousRecordedInput: 290 })).unexplainedMiss).toBe(false);
    expect(readServerVerdict(input({ usage: usage(0, 3_000), previousRecordedInput: 2_900 })).unexplainedMiss).toBe(true);
  });
});

it("tallies agreement per session", () => {
  const tally = emptyServerVerdictTally();
  for (const agreement of ["agree", "agree", "disagree", "inconclusive", "no-verdict"] as const) tallyServerVerdict(tally, agreement);
  expect(tally).toEqual({ agree: 2, disagree: 1, inconclusive: 1, noVerdict: 1 });
});
