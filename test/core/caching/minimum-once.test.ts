// A model's cache minimum without a user override is resolved once and handed out again (the
// simulation asks for it every turn); an override is resolved on its own, every time.
import { describe, expect, it } from "vitest";
import { anthropicMinimum, geminiMinimum } from "../../../src/core/caching/rules";

describe("cache minimums resolved once per model", () => {
  it("hands out the same resolved figure for a model asked again", () => {
    expect(anthropicMinimum("claude-sonnet-4-5")).toBe(anthropicMinimum("claude-sonnet-4-5"));
    expect(geminiMinimum("gemini-2.5-pro")).toBe(geminiMinimum("gemini-2.5-pro"));
    expect(anthropicMinimum(null)).toBe(anthropicMinimum(null));
    expect(anthropicMinimum("claude-opus-4-6")).not.toBe(anthropicMinimum("claude-sonnet-4-5"));
    expect(anthropicMinimum("claude-opus-4-6").value).toBe(4096);
  });

  it("resolves a user override apart, without changing the model's figure", () => {
    const plain = anthropicMinimum("claude-opus-4-6");
    const overridden = anthropicMinimum("claude-opus-4-6", { minimumByModel: { "claude-opus-4-6": 512 } });
    expect(overridden.value).toBe(512);
    expect(overridden.source).toBe("user override");
    expect(anthropicMinimum("claude-opus-4-6")).toBe(plain);
    expect(plain.value).toBe(4096);
  });
});
