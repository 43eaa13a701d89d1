// What the file does not hold (system prompt, tools) is sized from recorded usage and counted by
// the cache simulation, so that predicted cache reads compare with the recorded ones.
import { describe, expect, it } from "vitest";
import { notRecorded } from "../../../src/core/model";
import { createPrefixAnalyzer, type PrefixTurnInput } from "../../../src/core/prefix/analyze";

const est = { tokenizer: "estimate" as const };
const long = (word: string) => `${word} `.repeat(2000);

function turn(index: number, messages: Array<{ role: string; content: string }>, usage: { input: number; read: number; write: number } | null, extra: Partial<PrefixTurnInput> = {}): PrefixTurnInput {
  return {
    turn: index,
    api: "anthropic-messages",
    // The top-level marker asks for automatic caching of the whole prefix.
    body: { model: "claude-sonnet-4-5", cache_control: { type: "ephemeral" }, system: notRecorded("system prompt"), tools: notRecorded("tools"), messages },
    timestamp: `2026-01-01T00:00:${String(index).padStart(2, "0")}Z`,
    usage: usage && { source: "anthropic", raw: { input_tokens: usage.input, cache_read_input_tokens: usage.read, cache_creation_input_tokens: usage.write, output_tokens: 10 } },
    ...extra,
  };
}

describe("the part the file does not hold", () => {
  const first = [{ role: "user", content: long("alpha") }];
  const second = [...first, { role: "assistant", content: long("beta") }, { role: "user", content: long("gamma") }];

  it("is sized from the first recorded usage and counted by the simulation, not by the rebuilt count", () => {
    const analyzer = createPrefixAnalyzer(est);
    const one = analyzer.next(turn(1, first, { input: 10, read: 0, write: 30_000 }));
    expect(one.unrecorded).toEqual({ tokens: 30_010 - one.tokens, fromTurn: 1 });
    const two = analyzer.next(turn(2, second, { input: 10, read: 30_010, write: 5_000 }));
    expect(two.unrecorded).toEqual(one.unrecorded);
    // `tokens` stays the rebuilt request's own count …
    expect(two.tokens).toBeLessThan(10_000);
    // … while the predicted read covers the missing part too, as the provider's did.
    expect(two.predictedCachedTokens).toBeGreaterThanOrEqual(one.unrecorded!.tokens);
    expect(two.usageComparison?.agrees).toBe(true);
  });

  it("without it the prediction misses what the provider read", () => {
    const analyzer = createPrefixAnalyzer({ ...est, inferUnrecorded: false });
    analyzer.next(turn(1, first, { input: 10, read: 0, write: 30_000 }));
    const two = analyzer.next(turn(2, second, { input: 10, read: 30_010, write: 5_000 }));
    expect(two.unrecorded).toBeNull();
    expect(two.usageComparison?.agrees).toBe(false);
  });

  it("is sized again after a compaction", () => {
    const analyzer = createPrefixAnalyzer(est);
    analyzer.next(turn(1, first, { input: 10, read: 0, write: 30_000 }));
    const after = analyzer.next(turn(2, [{ role: "user", content: "summary" }], { input: 5, read: 0, write: 12_000 }, { facts: { compactionBetween: true } }));
    expect(after.unrecorded?.fromTurn).toBe(2);
    expect(after.unrecorded!.tokens).toBe(12_005 - after.tokens);
  });

  it("is not inferred when the request holds everything or the rebuilt count exceeds the billed one", () => {
    const complete = createPrefixAnalyzer(est).next({ ...turn(1, first, { input: 10, read: 0, write: 30_000 }), body: { model: "m", system: "you are", messages: first } });
    expect(complete.unrecorded).toBeNull();
    const overshoot = createPrefixAnalyzer(est).next(turn(1, first, { input: 10, read: 0, write: 0 }));
    expect(overshoot.unrecorded).toBeNull();
  });
});
