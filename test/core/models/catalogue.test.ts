import { describe, expect, it } from "vitest";
import { API_IDS } from "../../../src/core/model";
import { MODEL_CATALOGUE, resolveModel } from "../../../src/core/models/catalogue";

describe("model catalogue data", () => {
  it("covers Anthropic, OpenAI and Google with sane figures and a source and date per entry", () => {
    const providers = new Set(MODEL_CATALOGUE.map((entry) => entry.provider));
    expect([...providers].sort()).toEqual(["anthropic", "google", "openai"]);
    for (const entry of MODEL_CATALOGUE) {
      expect(API_IDS).toContain(entry.api);
      expect(entry.contextWindow).toBeGreaterThan(entry.maxTokens);
      expect(entry.maxTokens).toBeGreaterThan(0);
      expect(entry.source).toBe("catalogue (unverified)");
      expect(entry.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
    const keys = MODEL_CATALOGUE.map((entry) => `${entry.provider}/${entry.id}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const id of ["claude-sonnet-4-5", "claude-opus-4-6", "claude-haiku-4-5", "gpt-4o", "gpt-4.1", "gpt-5", "o3", "gemini-2.5-pro", "gemini-3-pro-preview"]) {
      expect(keys.some((key) => key.endsWith(`/${id}`)), id).toBe(true);
    }
  });
});

describe("resolveModel", () => {
  it("matches provider and id exactly", () => {
    const model = resolveModel({ provider: "anthropic", modelId: "claude-sonnet-4-5" }, null);
    expect(model).toMatchObject({ provider: "anthropic", id: "claude-sonnet-4-5", api: "anthropic-messages", reasoning: true });
    expect(model.source).toBe("catalogue (unverified)");
    expect("date" in model).toBe(false);
  });

  it("lets the session's API win over the catalogue's", () => {
    expect(resolveModel({ provider: "openai", modelId: "gpt-4o" }, "openai-completions").api).toBe("openai-completions");
    expect(resolveModel({ provider: "openai", modelId: "gpt-4o" }, null).api).toBe("openai-responses");
  });

  it("falls back to the id alone, keeping the session's provider", () => {
    const model = resolveModel({ provider: "openrouter", modelId: "gpt-5" }, "openai-completions");
    expect(model.provider).toBe("openrouter");
    expect(model.reasoning).toBe(true);
    expect(model.api).toBe("openai-completions");
    expect(model.source).toMatch(/matched by id from openai/);
  });

  it("gives an unknown model (the fixtures' fake/fake-model) the labelled default", () => {
    expect(resolveModel({ provider: "fake", modelId: "fake-model" }, "anthropic-messages")).toEqual({
      provider: "fake",
      id: "fake-model",
      api: "anthropic-messages",
      contextWindow: 128000,
      maxTokens: 16384,
      reasoning: false,
      supportsDeveloperRole: false,
      supportsReasoningEffort: false,
      supportsImages: false,
      source: "catalogue-default",
    });
    expect(resolveModel(null, null)).toMatchObject({ api: "openai-completions", provider: "unknown", source: "catalogue-default" });
  });

  it("applies user overrides keyed provider/modelId, which win and say so", () => {
    const overrides = { "fake/fake-model": { contextWindow: 16000, maxTokens: 4000, id: "ignored", supportsImages: undefined } };
    const model = resolveModel({ provider: "fake", modelId: "fake-model" }, "openai-completions", overrides);
    expect(model).toMatchObject({ id: "fake-model", contextWindow: 16000, maxTokens: 4000, supportsImages: false, source: "user" });
    const catalogued = resolveModel({ provider: "anthropic", modelId: "claude-haiku-4-5" }, null, {
      "anthropic/claude-haiku-4-5": { reasoning: false },
    });
    expect(catalogued).toMatchObject({ reasoning: false, contextWindow: 200000, source: "user" });
    expect(resolveModel({ provider: "anthropic", modelId: "claude-haiku-4-5" }, null, { "x/y": { reasoning: false } }).reasoning).toBe(true);
  });

  it("does not hand out the catalogue's own objects", () => {
    const model = resolveModel({ provider: "openai", modelId: "o3" }, null);
    model.maxTokens = 1;
    expect(resolveModel({ provider: "openai", modelId: "o3" }, null).maxTokens).toBe(100000);
  });
});
