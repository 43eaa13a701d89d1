// Copilot CLI's model ids and usage in the shapes every agent records. The usage figures are those
// of two public logs' session.shutdown (docs/formats/copilot-cli.md, "Real files checked"): each
// model's inputTokens is its tokenDetails' input + cache_read + cache_write, so the uncached input
// left after taking the cache out must equal the tokenDetails' own input count.
import { describe, expect, it } from "vitest";
import { copilotModelRef, copilotUsage } from "../../../../src/core/agents/copilot-cli/usage";

describe("Copilot CLI usage and model ids", () => {
  it("takes the cache reads and writes out of inputTokens, leaving the tokenDetails' input count", () => {
    // claude-sonnet-4.6, Copilot CLI 1.0.49-1: tokenDetails input 4.
    expect(copilotUsage({ inputTokens: 48243, outputTokens: 414, cacheReadTokens: 24072, cacheWriteTokens: 24167, reasoningTokens: 0 })).toEqual({ input: 4, output: 414, cacheRead: 24072, cacheWrite: 24167, totalTokens: 48657 });
    // claude-opus-4.7-1m-internal and claude-haiku-4.5, Copilot CLI 1.0.55-1: tokenDetails input 8 and 17.
    expect(copilotUsage({ inputTokens: 81666, outputTokens: 521, cacheReadTokens: 54064, cacheWriteTokens: 27594 })!.input).toBe(8);
    expect(copilotUsage({ inputTokens: 17050, outputTokens: 226, cacheReadTokens: 13964, cacheWriteTokens: 3069 })!.input).toBe(17);
    expect(copilotUsage({ inputTokens: 0, outputTokens: 0 })).toBeNull();
    expect(copilotUsage("not usage")).toBeNull();
  });

  it("names the provider's model for Copilot's ids", () => {
    expect(copilotModelRef("claude-sonnet-4.5")).toEqual({ provider: "anthropic", modelId: "claude-sonnet-4-5" });
    expect(copilotModelRef("claude-opus-4.6-1m")).toEqual({ provider: "anthropic", modelId: "claude-opus-4-6" });
    expect(copilotModelRef("claude-opus-4.7-1m-internal")).toEqual({ provider: "anthropic", modelId: "claude-opus-4-7" });
    expect(copilotModelRef("copilot/gpt-5.4")).toEqual({ provider: "openai", modelId: "gpt-5.4" });
    expect(copilotModelRef("gpt-5.3-codex")).toEqual({ provider: "openai", modelId: "gpt-5.3-codex" });
    expect(copilotModelRef("gemini-3-pro")).toEqual({ provider: "google", modelId: "gemini-3-pro" });
    expect(copilotModelRef("auto")).toEqual({ provider: "github-copilot", modelId: "auto" });
    expect(copilotModelRef("")).toBeNull();
  });
});
