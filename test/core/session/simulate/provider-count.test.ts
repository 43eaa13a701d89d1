// CP-0-5: the provider-accurate count beside each policy's estimate — exact o200k for OpenAI
// shapes, labelled an estimate otherwise; left out of whole-session replays.
import { describe, expect, it } from "vitest";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { simulateCompaction } from "../../../../src/core/session/simulate/index";
import { prefixText } from "../../../../src/core/simulate/prefix";
import { fixtureCase } from "../../../support/fixtures";

describe("CP-0-5 provider count", () => {
  it("OpenAI shape (pi print-openai, turn 8): exact o200k of turn 8's request, of the request after and of the summariser request", () => {
    const print = fixtureCase("pi/print-openai-autocompact");
    const r = simulateCompaction({ session: print.session, options: { profile: "pi" }, turn: 8, policyId: "pi", parameters: { reserveTokens: 11600, keepRecentTokens: 1800 }, limits: { contextWindow: 16000 }, followingTurns: 0 });
    const provider = r.tokens.provider!;
    expect(provider.counter).toBe("exact (o200k)");
    expect(provider.exact).toBe(true);
    expect(provider.after).toBe(countTokens(prefixText(r.after.request!.body)));
    expect(provider.summariserInput).toBe(countTokens(prefixText(r.summariserRequests[0]!.body)));
    expect(provider.saved).toBe(provider.before - provider.after);
    // The policy's own chars/4 estimate stays what the trigger used, and differs from the count.
    expect(r.tokens.before).not.toBe(provider.before);
  });

  it("Anthropic shape: an estimate, labelled so; a caller can leave it out", () => {
    const rpc = fixtureCase("pi/rpc-anthropic-manualcompact");
    const input = { session: rpc.session, options: { profile: "pi" as const }, turn: 5, policyId: "pi", manual: true, followingTurns: 0 };
    const r = simulateCompaction(input);
    expect(r.tokens.provider!.exact).toBe(false);
    expect(r.tokens.provider!.counter).toContain("estimate");
    expect(simulateCompaction({ ...input, providerCount: false }).tokens.provider).toBeUndefined();
  });
});
