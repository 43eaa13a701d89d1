// The Anthropic estimate: Claude's public vocabulary × the factor fitted on recorded usage, chosen
// by `counterForApi` for Anthropic shapes in "auto" mode only; OpenAI stays exact o200k, Google and
// an explicit claudeFactor stay o200k-based, "estimate" stays chars/4. Its label states the error.
import { describe, expect, it } from "vitest";
import { CLAUDE_ESTIMATE_ERROR, CLAUDE_USAGE_FACTOR, countClaudeVocabulary } from "../../../src/core/tokens/claude";
import { charsPerFourCounter, claudeEstimateCounter, counterForApi, o200kCounter } from "../../../src/core/tokens/counters";

describe("the Anthropic estimate", () => {
  it("counts with Claude's vocabulary, scaled by the fitted factor", () => {
    const text = "Hello world, this is a test of the tokenizer. function foo() { return 42; }";
    expect(countClaudeVocabulary(text)).toBe(19);
    expect(claudeEstimateCounter.count(text)).toBe(Math.round(19 * CLAUDE_USAGE_FACTOR));
    expect(claudeEstimateCounter.count("")).toBe(0);
    expect(claudeEstimateCounter.exact).toBe(false);
  });

  it("states its measured error in its label", () => {
    expect(claudeEstimateCounter.label).toContain(`±${Math.round(CLAUDE_ESTIMATE_ERROR.median * 100)}% on real sessions`);
    expect(claudeEstimateCounter.label.startsWith("estimate")).toBe(true);
  });

  it("is the auto counter for Anthropic shapes only", () => {
    expect(counterForApi("anthropic-messages")).toBe(claudeEstimateCounter);
    expect(counterForApi("anthropic-messages", { tokenizer: "auto" })).toBe(claudeEstimateCounter);
    expect(counterForApi("openai-responses")).toBe(o200kCounter);
    expect(counterForApi("openai-completions")).toBe(o200kCounter);
    expect(counterForApi("google-generative-ai").id).toBe("o200k×1");
    expect(counterForApi("anthropic-messages", { tokenizer: "estimate" })).toBe(charsPerFourCounter);
    expect(counterForApi("anthropic-messages", { tokenizer: "o200k" }).id).toBe("o200k×1");
    expect(counterForApi("anthropic-messages", { claudeFactor: 1.1 }).id).toBe("o200k×1.1");
  });

  it("a counter given in the options overrides every choice (the benchmark's candidates)", () => {
    const counter = { id: "test", exact: false, label: "test", count: (text: string) => text.length };
    expect(counterForApi("openai-responses", { counter, tokenizer: "estimate" })).toBe(counter);
  });
});
