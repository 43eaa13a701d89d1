// The price dataset as the base layer: the pinned package version is the one named in the UI, it
// prices the models the agents' real sessions use (gpt-5.x Codex models, Claude 4.x, DeepSeek, GLM,
// Kimi, Qwen, Gemini) with cache and long-context prices, dated and hourly prices apply at the
// request's time, the user's edits apply over it, and a whole session's cost sums its threads.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { applyPriceOverrides, findPriceRow, priceUsage, rowAt, wholeSessionCost } from "../../../src/core/pricing";
import { datasetListedRows, datasetPriceRow, datasetPriceTable, datasetRowsFor, PRICE_DATASET } from "../../../src/core/pricing/dataset";
import { repoPath } from "../../support/fixtures";

const TABLE = datasetPriceTable();

describe("the price dataset", () => {
  it("is the exact version package.json pins and node_modules holds", () => {
    const pkg = JSON.parse(readFileSync(repoPath("package.json"), "utf8")) as { dependencies: Record<string, string> };
    expect(pkg.dependencies[PRICE_DATASET.name]).toBe(PRICE_DATASET.version);
    const installed = JSON.parse(readFileSync(repoPath("node_modules/@pydantic/genai-prices/package.json"), "utf8")) as { version: string };
    expect(installed.version).toBe(PRICE_DATASET.version);
  });

  // Each model as a real session names it, with the provider it records.
  const covered: [string, string, { input: number; cachedInput: number; output: number }][] = [
    ["openai", "gpt-5.3-codex", { input: 1.75, cachedInput: 0.175, output: 14 }],
    ["openai", "gpt-5.4", { input: 2.5, cachedInput: 0.25, output: 15 }],
    ["openai", "gpt-5.5", { input: 5, cachedInput: 0.5, output: 30 }],
    ["openai", "gpt-5.1-codex-max", { input: 1.25, cachedInput: 0.125, output: 10 }],
    ["anthropic", "claude-opus-4-6", { input: 5, cachedInput: 0.5, output: 25 }],
    ["anthropic", "claude-sonnet-4-5-20250929", { input: 3, cachedInput: 0.3, output: 15 }],
    ["anthropic", "claude-haiku-4-5-20251001", { input: 1, cachedInput: 0.1, output: 5 }],
    ["deepseek", "deepseek-v4-flash", { input: 0.14, cachedInput: 0.0028, output: 0.28 }],
    ["opencode", "glm-5", { input: 0.552, cachedInput: 0.138, output: 2.483 }],
    ["moonshotai", "kimi-k2.5", { input: 0.6, cachedInput: 0.1, output: 3 }],
    ["custom", "qwen3-coder-plus", { input: 0.65, cachedInput: 0.13, output: 3.25 }],
    ["google", "gemini-2.5-pro", { input: 1.25, cachedInput: 0.125, output: 10 }],
  ];
  for (const [provider, modelId, prices] of covered) {
    it(`prices ${provider}/${modelId} with its cache price`, () => {
      const row = datasetPriceRow({ provider, modelId });
      expect(row).toMatchObject(prices);
      expect(row!.source).toMatch(/^https:\/\//);
    });
  }

  it("keeps Anthropic's 5-minute and 1-hour cache-write prices and bills other providers' writes as input", () => {
    expect(datasetPriceRow({ provider: "anthropic", modelId: "claude-opus-4-6" })).toMatchObject({ cacheWrite5m: 6.25, cacheWrite1h: 10 });
    expect(datasetPriceRow({ provider: "openai", modelId: "gpt-5.4" })).toMatchObject({ cacheWrite5m: 2.5, cacheWrite1h: 2.5 });
  });

  it("applies GPT-5.4's long-context tier above 272k input tokens", () => {
    const usage = { uncachedInput: 100_000, cacheRead: 200_000, cacheWrite: 0, output: 1000 };
    const priced = priceUsage(usage, { provider: "openai", modelId: "gpt-5.4" }, TABLE);
    expect(priced.longContext).toEqual({ aboveInputTokens: 271_999, inputTokens: 300_000 });
    expect(priced.dollars).toBeCloseTo((100_000 * 5 + 200_000 * 0.5 + 1000 * 22.5) / 1e6, 12);
  });

  it("prices a DeepSeek call at the prices in force when it was sent (a dated change, hours with other prices)", () => {
    const row = datasetPriceRow({ provider: "deepseek", modelId: "deepseek-v4-flash" })!;
    expect(rowAt(row, "2026-05-01T12:00:00Z")).toMatchObject({ input: 0.14, output: 0.28 });
    expect(rowAt(row, "2026-09-01T12:00:00Z")).toMatchObject({ input: 0.22, output: 0.66 });
    expect(rowAt(row, "2026-09-01T02:30:00Z")).toMatchObject({ input: 0.44, output: 1.32 });
    expect(rowAt(row, null)).toBe(row);
    // Before 2026-08-17 DeepSeek charged one flat price all day: the peak hours start on that day.
    expect(rowAt(row, "2026-05-01T02:30:00Z")).toMatchObject({ input: 0.14, output: 0.28 });
    expect(rowAt(row, "2026-08-16T07:00:00Z")).toMatchObject({ input: 0.14, output: 0.28 });
    expect(rowAt(row, "2026-08-17T07:00:00Z")).toMatchObject({ input: 0.44, output: 1.32 });
    const usage = { uncachedInput: 1e6, cacheRead: 0, cacheWrite: 0, output: 0 };
    expect(priceUsage(usage, { provider: "deepseek", modelId: "deepseek-v4-flash" }, TABLE, "2026-09-01T12:00:00Z").dollars).toBeCloseTo(0.22, 12);
  });

  it("prices a Claude Code session on deepseek-v4-pro sent in peak hours before 2026-08-17 at the flat price, as DeepSeek and ccusage do", () => {
    // ccusage 20.0.24 priced 30 input, 1,500 cache-write, 1,000 cache-read and 110 output tokens
    // sent 2026-05-21T02:00Z at $0.000764875: $0.435/M input and cache write, $0.003625/M cache read, $0.87/M output.
    const usage = { uncachedInput: 30, cacheRead: 1000, cacheWrite: 1500, output: 110 };
    const priced = priceUsage(usage, { provider: "anthropic", modelId: "deepseek-v4-pro" }, TABLE, "2026-05-21T02:00:02Z");
    expect(priced.dollars).toBeCloseTo(0.000764875, 12);
    // From 2026-08-17 the same tokens in peak hours pay DeepSeek's peak price.
    const peak = priceUsage(usage, { provider: "anthropic", modelId: "deepseek-v4-pro" }, TABLE, "2026-09-10T02:00:00Z");
    expect(peak.dollars).toBeCloseTo((1530 * 1.32 + 1000 * 0.044 + 110 * 3.96) / 1e6, 12);
  });

  it("reads a window of hours that wraps past midnight, and a time zone in the window's bounds", () => {
    const base = { provider: "x", model: "m", input: 1, cachedInput: 1, cacheWrite5m: 1, cacheWrite1h: 1, output: 1, reasoning: null, source: "test", date: "" };
    const night = { ...base, variants: [{ timeOfDay: { start: "22:00:00Z", end: "02:00:00Z" }, prices: { input: 0.5, cachedInput: 0.5, cacheWrite5m: 0.5, cacheWrite1h: 0.5, output: 0.5 } }] };
    expect(rowAt(night, "2026-01-01T23:30:00Z").input).toBe(0.5);
    expect(rowAt(night, "2026-01-02T01:59:59Z").input).toBe(0.5);
    expect(rowAt(night, "2026-01-02T02:00:00Z").input).toBe(1);
    const zoned = { ...base, variants: [{ timeOfDay: { start: "08:00:00+08:00", end: "12:00:00+08:00" }, prices: { input: 2, cachedInput: 2, cacheWrite5m: 2, cacheWrite1h: 2, output: 2 } }] };
    expect(rowAt(zoned, "2026-01-01T01:00:00Z").input).toBe(2);
    expect(rowAt(zoned, "2026-01-01T05:00:00Z").input).toBe(1);
  });

  it("makes the row in force once per row and variant, not per turn priced, and each row's from its own prices", () => {
    const row = datasetPriceRow({ provider: "deepseek", modelId: "deepseek-v4-flash" })!;
    // Two turns in the same peak hours, and one in other hours of the same price.
    const peak = rowAt(row, "2026-09-01T02:30:00Z");
    expect(rowAt(row, "2026-09-02T03:00:00Z")).toBe(peak);
    expect(rowAt(row, "2026-09-01T12:00:00Z")).not.toBe(peak);
    // A row made from another (an edit keeping the variants) shares its variant objects, not its priced row.
    const other = { ...row, reasoning: 9 };
    const otherPeak = rowAt(other, "2026-09-01T02:30:00Z");
    expect(otherPeak).not.toBe(peak);
    expect(otherPeak).toMatchObject({ input: 0.44, output: 1.32, reasoning: 9 });
    expect(rowAt(row, "2026-09-01T02:30:00Z")).toMatchObject({ input: 0.44, output: 1.32, reasoning: row.reasoning });
  });

  it("lacks made-up models: they stay not priced, named", () => {
    const priced = priceUsage({ uncachedInput: 1, cacheRead: 0, cacheWrite: 0, output: 1 }, { provider: "acme", modelId: "acme-coder-9" }, TABLE);
    expect(priced).toMatchObject({ status: "not priced", dollars: null, missing: ["no price for acme/acme-coder-9"] });
  });

  it("hands the page the rows of a session's models, each with the names the session used", () => {
    const rows = datasetRowsFor([
      { provider: "anthropic", modelId: "claude-sonnet-4-5-20250929" },
      { provider: "anthropic", modelId: "claude-sonnet-4-5" },
      { provider: "acme", modelId: "acme-coder-9" },
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.aliases).toEqual(["anthropic/claude-sonnet-4-5-20250929", "anthropic/claude-sonnet-4-5"]);
    // Without the dataset (the page's main thread) the rows alone find the model.
    expect(findPriceRow({ provider: "anthropic", modelId: "claude-sonnet-4-5-20250929" }, { rows })?.row.model).toBe("claude-sonnet-4-5");
  });

  it("lists the usual providers' models for the price panel, each with input and output prices", () => {
    const rows = datasetListedRows();
    expect(rows.length).toBeGreaterThan(100);
    expect(rows.map((row) => `${row.provider}/${row.model}`)).toContain("openai/gpt-5.5");
  });

  it("applies the user's edit of a dataset row that no session row listed yet, keeping its other figures", () => {
    const table = applyPriceOverrides(TABLE, { "openai/gpt-5.4": { input: 3 } });
    const row = findPriceRow({ provider: "openai", modelId: "gpt-5.4" }, table)!.row;
    expect(row).toMatchObject({ input: 3, cachedInput: 0.25, output: 15, edited: true });
    expect(row.variants).toBeUndefined();
  });
});

describe("the whole session's cost", () => {
  const usage = { input: 1000, output: 100, cacheRead: 10_000, cacheWrite: 0, totalTokens: 11_100 };
  it("sums the main thread and its sub-agents, line by line, naming unpriced models", () => {
    const cost = wholeSessionCost(
      [
        { id: null, label: "Main thread", turns: [{ model: { provider: "openai", modelId: "gpt-5.4" }, at: null, usage }] },
        { id: "a", label: "Explore", turns: [{ model: { provider: "openai", modelId: "gpt-5.4" }, at: null, usage }, { model: null, at: null, usage: null }] },
        { id: "b", label: "Mystery", turns: [{ model: { provider: "acme", modelId: "acme-coder-9" }, at: null, usage }] },
      ],
      TABLE,
    );
    const one = (1000 * 2.5 + 10_000 * 0.25 + 100 * 15) / 1e6;
    expect(cost.threads.map((line) => [line.label, line.turns, line.withoutUsage, line.recorded.status])).toEqual([
      ["Main thread", 1, 0, "priced"],
      ["Explore", 2, 1, "priced"],
      ["Mystery", 1, 0, "not priced"],
    ]);
    expect(cost.total.status).toBe("partly priced");
    expect(cost.total.dollars).toBeCloseTo(2 * one, 12);
    expect(cost.unpricedModels).toEqual(["acme/acme-coder-9"]);
  });
});
