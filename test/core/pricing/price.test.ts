// Prices applied to usage: exact figures for a known model, "not priced" for an unknown one (never
// $0.00), "partly priced" when a part's price is missing, lookups by model id and normalised id,
// user edits marked, long-prompt tiers, break cost, and the dollar format of sub-cent amounts.
import { describe, expect, it } from "vitest";
import {
  applyPriceOverrides,
  findPriceRow,
  formatDollars,
  formatPriced,
  normaliseModelId,
  priceRebilled,
  priceUsage,
  sessionCost,
  sumPriced,
  turnCost,
  type TurnCostInput,
} from "../../../src/core/pricing";
import { datasetPriceTable } from "../../../src/core/pricing/dataset";

const TABLE = datasetPriceTable();

const usage = { uncachedInput: 1000, cacheRead: 20000, cacheWrite: 3000, output: 500 };

describe("priceUsage", () => {
  it("prices every part of an Anthropic usage at the table's figures", () => {
    const priced = priceUsage(usage, { provider: "anthropic", modelId: "claude-sonnet-4-5" }, TABLE);
    expect(priced.status).toBe("priced");
    // 1000 × $3 + 20000 × $0.30 + 3000 × $3.75 + 500 × $15, per million.
    expect(priced.dollars).toBeCloseTo((1000 * 3 + 20000 * 0.3 + 3000 * 3.75 + 500 * 15) / 1e6, 12);
    expect(priced.parts.map((p) => p.kind)).toEqual(["input", "cached input", "cache write 5m", "output"]);
    expect(priced.match).toBe("dataset");
    expect(priced.row).toBe("anthropic/claude-sonnet-4-5");
  });

  it("uses the 1-hour write price for the 1-hour part of a split write", () => {
    const priced = priceUsage({ ...usage, cacheWrite5m: 1000, cacheWrite1h: 2000 }, { provider: "anthropic", modelId: "claude-opus-4-5" }, TABLE);
    const oneHour = priced.parts.find((p) => p.kind === "cache write 1h")!;
    expect(oneHour.perMillion).toBe(10);
    expect(priced.parts.find((p) => p.kind === "cache write 5m")!.perMillion).toBe(6.25);
  });

  it("is not priced, with null dollars, for an unknown model", () => {
    const priced = priceUsage(usage, { provider: "fake", modelId: "fake-model" }, TABLE);
    expect(priced.status).toBe("not priced");
    expect(priced.dollars).toBeNull();
    expect(formatPriced(priced)).toBe("not priced");
    expect(priceUsage(null, { provider: "openai", modelId: "gpt-4.1" }, TABLE).status).toBe("not priced");
  });

  it("is partly priced when the row lacks a part's price", () => {
    const table = applyPriceOverrides(TABLE, { "anthropic/claude-haiku-4-5": { cacheWrite5m: null } });
    const priced = priceUsage(usage, { provider: "anthropic", modelId: "claude-haiku-4-5" }, table);
    expect(priced.status).toBe("partly priced");
    expect(priced.dollars).toBeCloseTo((1000 * 1 + 20000 * 0.1 + 500 * 5) / 1e6, 12);
    expect(formatPriced(priced)).toMatch(/^≥ \$0\.\d+ \(partly priced\)$/);
  });

  it("finds the table's rows by model id alone and after normalising dated or routed ids", () => {
    const row = { provider: "openai", model: "gpt-4.1", input: 2, cachedInput: 0.5, cacheWrite5m: 2, cacheWrite1h: 2, output: 8, reasoning: null, source: "test", date: "" };
    const opus = { ...row, provider: "anthropic", model: "claude-opus-4-5" };
    const table = { rows: [row, opus] };
    expect(findPriceRow({ provider: "openrouter", modelId: "gpt-4.1" }, table)?.match).toBe("model");
    expect(findPriceRow({ provider: "anthropic", modelId: "claude-opus-4-5-20251101" }, table)).toMatchObject({ match: "normalised", row: { model: "claude-opus-4-5" } });
    expect(findPriceRow({ provider: "custom", modelId: "GPT-4.1" }, { rows: [{ ...row, aliases: ["custom/gpt-4.1"] }] })?.match).toBe("exact");
    expect(normaliseModelId("anthropic/claude-sonnet-4-20250514")).toBe("claude-sonnet-4-0");
    expect(normaliseModelId("gpt-5-2025-08-07")).toBe("gpt-5");
    expect(findPriceRow({ provider: "anthropic", modelId: "claude-opus-5-5" }, table)).toBeNull();
    // The dataset's matching finds dated ids itself.
    expect(findPriceRow({ provider: "anthropic", modelId: "claude-opus-4-5-20251101" }, TABLE)).toMatchObject({ match: "dataset", row: { model: "claude-opus-4-5" } });
  });

  it("answers a model asked again in a row, by provider and model, the way it answered it first", () => {
    const row = { provider: "openai", model: "gpt-4.1", input: 2, cachedInput: 0.5, cacheWrite5m: 2, cacheWrite1h: 2, output: 8, reasoning: null, source: "test", date: "" };
    const routed = { ...row, provider: "openrouter", input: 3 };
    const table = { rows: [row, routed] };
    for (let round = 0; round < 2; round++) {
      expect(findPriceRow({ provider: "openai", modelId: "gpt-4.1" }, table)?.row).toBe(row);
      expect(findPriceRow({ provider: "openai", modelId: "gpt-4.1" }, table)?.row).toBe(row);
      expect(findPriceRow({ provider: "openrouter", modelId: "gpt-4.1" }, table)?.row).toBe(routed);
      expect(findPriceRow({ provider: "openrouter", modelId: "gpt-4.2" }, table)).toBeNull();
      expect(findPriceRow({ provider: "openai", modelId: "gpt-4.1" }, { rows: [routed] })).toMatchObject({ match: "model", row: routed });
    }
  });

  it("applies Gemini's long-prompt prices above 200k input tokens", () => {
    const long = priceUsage({ uncachedInput: 250000, cacheRead: 0, cacheWrite: 0, output: 1000 }, { provider: "google", modelId: "gemini-2.5-pro" }, TABLE);
    expect(long.parts[0]!.perMillion).toBe(2.5);
    expect(long.parts[1]!.perMillion).toBe(15);
  });

  it("every row of the dataset names an https source and the dataset's version", () => {
    const row = findPriceRow({ provider: "openai", modelId: "gpt-4.1" }, TABLE)!.row;
    expect(row.source).toMatch(/^https:\/\//);
    expect(row.date).toBe("@pydantic/genai-prices 0.1.8");
  });
});

describe("edits, totals, breaks", () => {
  it("marks edited and added rows", () => {
    const table = applyPriceOverrides(TABLE, { "openai/gpt-4.1": { input: 1 }, "fake/fake-model": { input: 1, output: 2, cachedInput: 0.5, cacheWrite5m: 1 } });
    expect(table.rows.find((r) => r.model === "gpt-4.1")).toMatchObject({ input: 1, edited: true, output: 8 });
    expect(priceUsage({ uncachedInput: 1e6, cacheRead: 0, cacheWrite: 0, output: 0 }, { provider: "openai", modelId: "gpt-4.1-2025-04-14" }, table).dollars).toBe(1);
    const added = priceUsage({ uncachedInput: 1e6, cacheRead: 0, cacheWrite: 0, output: 1e6 }, { provider: "fake", modelId: "fake-model" }, table);
    expect(added).toMatchObject({ status: "priced", dollars: 3 });
  });

  it("sums a session honestly", () => {
    expect(sumPriced([{ status: "priced", dollars: 1 }, { status: "not priced", dollars: null }])).toMatchObject({ status: "partly priced", dollars: 1 });
    expect(sumPriced([{ status: "not priced", dollars: null }])).toMatchObject({ status: "not priced", dollars: null });
    const cost = sessionCost([
      { turn: 1, model: { provider: "openai", modelId: "gpt-4.1" }, recorded: usage, predicted: { uncachedInput: 24000, cacheRead: 0, cacheWrite: 0 }, rebilledTokens: 0 },
      { turn: 2, model: { provider: "openai", modelId: "gpt-4.1" }, recorded: usage, predicted: null, rebilledTokens: 10000 },
    ], TABLE);
    expect(cost.recorded.status).toBe("priced");
    expect(cost.turn(1)!.predicted.dollars).toBeCloseTo((24000 * 2 + 500 * 8) / 1e6, 12);
    // A break re-bills 10000 tokens at input ($2) instead of cached input ($0.50).
    expect(cost.turn(2)!.break!.dollars).toBeCloseTo((10000 * 1.5) / 1e6, 12);
    expect(cost.breaks.dollars).toBeCloseTo((10000 * 1.5) / 1e6, 12);
    expect(cost.predicted.dollars).toBeCloseTo(cost.turn(1)!.predicted.dollars! + cost.turn(2)!.predicted.dollars!, 12);
    // Asked again, a turn's cost is the same object (a view redrawing keeps its rows).
    expect(cost.turn(1)).toBe(cost.turn(1));
    expect(cost.turn(3)).toBeNull();
    expect(priceRebilled(10, { provider: "x", modelId: "y" }, TABLE).status).toBe("not priced");
  });

  it("totals a session as the sum of its turns' own costs, whatever each turn lacks", () => {
    const sonnet = { provider: "anthropic", modelId: "claude-sonnet-4-5" };
    // A row without a 1-hour write price: a turn writing for an hour is partly priced.
    const table = applyPriceOverrides(TABLE, { "fake/half": { input: 1, output: 2, cachedInput: 0.5, cacheWrite5m: 1.25 } });
    const half = { provider: "fake", modelId: "half" };
    const inputs: TurnCostInput[] = [
      { turn: 1, model: sonnet, recorded: usage, predicted: { uncachedInput: 24000, cacheRead: 0, cacheWrite: 0 }, rebilledTokens: 0 },
      { turn: 2, model: sonnet, recorded: null, predicted: { uncachedInput: 100, cacheRead: 900, cacheWrite: 0 }, rebilledTokens: 900 },
      { turn: 3, model: { provider: "nobody", modelId: "unknown-model" }, recorded: usage, predicted: null, rebilledTokens: 50 },
      { turn: 4, model: half, recorded: { ...usage, cacheWrite5m: 1000, cacheWrite1h: 2000 }, predicted: { uncachedInput: 10, cacheRead: 0, cacheWrite: 3000, cacheWrite1h: 3000 }, rebilledTokens: 0 },
      { turn: 5, model: null, recorded: null, predicted: null, rebilledTokens: 0 },
      { turn: 6, model: half, recorded: { ...usage, reasoningOutput: 200 }, predicted: { uncachedInput: 10, cacheRead: 5, cacheWrite: 0 }, rebilledTokens: 7 },
    ];
    const cost = sessionCost(inputs, table);
    const turns = inputs.map((input) => turnCost(input, table));
    expect(turns.map((turn) => turn.predicted.status)).toEqual(["priced", "partly priced", "not priced", "partly priced", "not priced", "priced"]);
    expect(cost.recorded).toEqual(sumPriced(turns.map((turn) => turn.recorded)));
    expect(cost.predicted).toEqual(sumPriced(turns.map((turn) => turn.predicted)));
    expect(cost.breaks).toEqual(sumPriced(turns.flatMap((turn) => (turn.break ? [turn.break] : []))));
    for (const input of inputs) expect(cost.turn(input.turn)).toEqual(turnCost(input, table));
  });

  it("prices a turn without making its parts when asked, with the same status, dollars and missing prices", () => {
    const table = applyPriceOverrides(TABLE, { "fake/half": { input: 1, output: 2, cachedInput: 0.5, cacheWrite5m: 1.25 } });
    const inputs: TurnCostInput[] = [
      { turn: 1, model: { provider: "anthropic", modelId: "claude-sonnet-4-5" }, recorded: usage, predicted: { uncachedInput: 24000, cacheRead: 0, cacheWrite: 0 }, rebilledTokens: 5 },
      { turn: 2, model: { provider: "fake", modelId: "half" }, recorded: { ...usage, cacheWrite1h: 2000 }, predicted: { uncachedInput: 10, cacheRead: 0, cacheWrite: 3000, cacheWrite1h: 3000 }, rebilledTokens: 0 },
      { turn: 3, model: { provider: "google", modelId: "gemini-2.5-pro" }, recorded: { uncachedInput: 250000, cacheRead: 0, cacheWrite: 0, output: 1000 }, predicted: null, rebilledTokens: 0 },
    ];
    for (const input of inputs) {
      const full = turnCost(input, table);
      const lean = turnCost(input, table, false);
      expect(full.recorded.parts.length).toBeGreaterThan(0);
      expect(lean.recorded.parts).toEqual([]);
      expect(lean.predicted.parts).toEqual([]);
      const strip = (priced: typeof full.recorded) => ({ ...priced, parts: [] });
      expect(lean.recorded).toEqual(strip(full.recorded));
      expect(lean.predicted).toEqual(strip(full.predicted));
      expect(lean.break).toEqual(full.break);
    }
    expect(turnCost(inputs[2]!, table, false).recorded.longContext).toEqual({ aboveInputTokens: 200000, inputTokens: 250000 });
    expect(turnCost(inputs[1]!, table, false).recorded.missing).toEqual(["cache write 1h price"]);
  });

  it("formats sub-cent amounts with enough digits", () => {
    expect(formatDollars(0.0042)).toBe("$0.0042");
    expect(formatDollars(0.000012345)).toBe("$0.000012");
    expect(formatDollars(0.123)).toBe("$0.12");
    expect(formatDollars(12.5)).toBe("$12.50");
    expect(formatDollars(0)).toBe("$0");
  });
});
