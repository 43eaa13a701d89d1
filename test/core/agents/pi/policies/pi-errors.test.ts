// CP-PI-7 / PI-K26: pi's summariser error verdicts — an error stop of the history request gives
// `Summarization failed: <message>`, of the turn-prefix request `Turn prefix summarization failed:
// <message>` (default message `Unknown error`); the compaction is not written (verdict `failed`).
import { describe, expect, it } from "vitest";
import { simulateCompaction } from "../../../../../src/core/session/simulate/index";
import { summariserFailure } from "../../../../../src/core/agents/pi/policies/pi-policy";
import { fixtureCase } from "../../../../support/fixtures";

const rpc = fixtureCase("pi/rpc-anthropic-manualcompact");
const print = fixtureCase("pi/print-openai-autocompact");
const run = (session: typeof rpc.session, entryId: string, parameters: Record<string, string | number | null>) =>
  simulateCompaction({ session, options: { profile: "pi" }, turn: 1, recordedCompactionEntryId: entryId, policyId: "pi", parameters, manual: true, followingTurns: 0 });

describe("CP-PI-7 summariser errors", () => {
  it("history + turn prefix (rpc-anthropic compaction 2): the history error wins; a prefix error alone names the turn prefix", () => {
    const params = { reserveTokens: 4000, keepRecentTokens: 40 };
    expect(run(rpc.session, "6a015245", params).verdict.verdict).toBe("compacted");
    const history = run(rpc.session, "6a015245", { ...params, summaryError: "429 rate limited", turnPrefixError: "overloaded" });
    expect(history.verdict.verdict).toBe("failed");
    expect(history.verdict.message).toBe("Summarization failed: 429 rate limited — the compaction is not written");
    const prefix = run(rpc.session, "6a015245", { ...params, turnPrefixError: "" });
    expect(prefix.verdict.message).toBe("Turn prefix summarization failed: Unknown error — the compaction is not written");
  });

  it("a split turn with an empty history sends no history request, so only a prefix error fails it (print-openai compaction 2)", () => {
    const params = { reserveTokens: 11600, keepRecentTokens: 1800 };
    expect(run(print.session, "2ca2e615", { ...params, summaryError: "boom" }).verdict.verdict).toBe("compacted");
    expect(run(print.session, "2ca2e615", { ...params, turnPrefixError: "boom" }).verdict.message).toContain("Turn prefix summarization failed: boom");
  });

  it("summariserFailure", () => {
    expect(summariserFailure(["history"], {})).toBeNull();
    expect(summariserFailure(["history"], { summaryError: "" })).toBe("Summarization failed: Unknown error");
  });
});
