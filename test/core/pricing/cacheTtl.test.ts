// Cache writes by TTL end to end: a Claude Code usage's `cache_creation` split (5 min / 1 h) is
// kept in the turn's usage and the prefix report's normalised usage, and the 1-hour part is priced
// at the 1-hour write price — on a transcript built here and on a real Claude Code session.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { normalizeUsage } from "../../../src/core/caching/usage";
import { analyzeSession } from "../../../src/core/session/pipeline";
import { iterateSessionPrefixes } from "../../../src/core/session/sessionPrefixes";
import { costInputOfReport, findPriceRow, priceUsage, turnCost } from "../../../src/core/pricing";
import { readSessionText } from "../../../src/core/session/index";
import { costField } from "../../../src/cli/costFields";
import { datasetPriceTable } from "../../../src/core/pricing/dataset";

const TABLE = datasetPriceTable();
import { describeShared } from "../../support/fixtures";
import { assistant, readClaude, user } from "../agents/claude-code/helpers";

const splitUsage = {
  input_tokens: 10,
  cache_creation_input_tokens: 3000,
  cache_read_input_tokens: 500,
  output_tokens: 20,
  cache_creation: { ephemeral_5m_input_tokens: 1000, ephemeral_1h_input_tokens: 2000 },
};

function session() {
  const first = assistant("a1", "u1", "msg_1", [{ type: "text", text: "hello" }], splitUsage);
  (first.message as Record<string, unknown>).model = "claude-sonnet-4-5-20250929";
  return readClaude([user("u1", null, "hi"), first]);
}

describe("cache writes by TTL (own transcript)", () => {
  it("keeps the split in the turn's usage and in the normalised usage", () => {
    const analysis = analyzeSession(session(), { profile: "pi" });
    expect(analysis.turns[0]!.usage).toMatchObject({ input: 10, cacheWrite: 3000, cacheWrite5m: 1000, cacheWrite1h: 2000 });
    const report = [...iterateSessionPrefixes(session(), { profile: "pi" })][0]!;
    expect(report.recordedUsage).toMatchObject({ cacheWrite: 3000, cacheWrite5m: 1000, cacheWrite1h: 2000, totalInput: 3510 });
  });

  it("prices the 1-hour part at the 1-hour write price", () => {
    const report = [...iterateSessionPrefixes(session(), { profile: "pi" })][0]!;
    const cost = turnCost(costInputOfReport(report, null, { provider: "anthropic", modelId: "claude-sonnet-4-5-20250929" }), TABLE);
    // $3 input, $0.30 cached, $3.75 5-minute write, $6 1-hour write, $15 output, per million.
    expect(cost.recorded.status).toBe("priced");
    expect(cost.recorded.dollars).toBeCloseTo((10 * 3 + 500 * 0.3 + 1000 * 3.75 + 2000 * 6 + 20 * 15) / 1e6, 12);
    expect(cost.recorded.parts.find((p) => p.kind === "cache write 1h")).toMatchObject({ tokens: 2000, perMillion: 6 });
  });

  it("a usage without the split stays as it was (every write at the 5-minute price)", () => {
    const plain = normalizeUsage("pi", { input: 1, output: 2, cacheRead: 3, cacheWrite: 4, totalTokens: 10 });
    expect(plain).not.toHaveProperty("cacheWrite1h");
    expect(plain).not.toHaveProperty("cacheWrite5m");
  });
});

describeShared("cache writes by TTL (real Claude Code session)", (shared) => {
  it("prices each turn's recorded 1-hour writes at the 1-hour price", () => {
    const file = shared.path("realworld/claude-code/entire-bccb-2compactions-subagents.jsonl");
    const s = readSessionText(readFileSync(file, "utf8"), path.basename(file));
    const analysis = analyzeSession(s, { profile: "pi" });
    const models = new Map(analysis.turns.map((t) => [t.turn, t.model]));
    let withHour = 0;
    for (const report of iterateSessionPrefixes(s, { profile: "pi" }, { analysis })) {
      const usage = report.recordedUsage;
      if (!usage || !usage.cacheWrite1h) continue;
      withHour++;
      expect(usage.cacheWrite5m! + usage.cacheWrite1h).toBe(usage.cacheWrite);
      const model = models.get(report.turn) ?? null;
      const row = findPriceRow(model, TABLE)!.row;
      const cost = turnCost(costInputOfReport(report, null, model), TABLE);
      expect(cost.recorded.parts.find((p) => p.kind === "cache write 1h")).toMatchObject({ tokens: usage.cacheWrite1h, perMillion: row.cacheWrite1h });
      // Computed independently from the normalised counts and the row.
      const expected = (usage.uncachedInput * row.input! + usage.cacheRead * row.cachedInput! + usage.cacheWrite5m! * row.cacheWrite5m! + usage.cacheWrite1h * row.cacheWrite1h! + usage.output * row.output!) / 1e6;
      expect(cost.recorded.dollars).toBeCloseTo(expected, 12);
    }
    expect(withHour).toBeGreaterThan(3);
  });
});

describe("long-context prices", () => {
  const sonnet = { provider: "anthropic", modelId: "claude-sonnet-4-5" };
  it("bills a Claude Sonnet 4.5 request above 200k input tokens at the long-context prices, and says so", () => {
    const usage = { uncachedInput: 1000, cacheRead: 190_000, cacheWrite: 15_000, cacheWrite5m: 5_000, cacheWrite1h: 10_000, output: 2000 };
    const priced = priceUsage(usage, sonnet, TABLE);
    expect(priced.longContext).toEqual({ aboveInputTokens: 200_000, inputTokens: 206_000 });
    // $6 input, $0.60 cached, $7.50 5-minute write, $12 1-hour write, $22.50 output, per million.
    expect(priced.dollars).toBeCloseTo((1000 * 6 + 190_000 * 0.6 + 5_000 * 7.5 + 10_000 * 12 + 2000 * 22.5) / 1e6, 12);
  });

  it("keeps the standard prices at or below the threshold and for models without a tier", () => {
    const usage = { uncachedInput: 0, cacheRead: 200_000, cacheWrite: 0, output: 10 };
    expect(priceUsage(usage, sonnet, TABLE).longContext).toBeUndefined();
    expect(priceUsage(usage, sonnet, TABLE).dollars).toBeCloseTo((200_000 * 0.3 + 10 * 15) / 1e6, 12);
    expect(priceUsage({ ...usage, cacheRead: 300_000 }, { provider: "anthropic", modelId: "claude-opus-4-5" }, TABLE).longContext).toBeUndefined();
  });

  it("applies Gemini 2.5 Pro's tier above 200k", () => {
    const priced = priceUsage({ uncachedInput: 250_000, cacheRead: 0, cacheWrite: 0, output: 100 }, { provider: "google", modelId: "gemini-2.5-pro" }, TABLE);
    expect(priced.longContext?.inputTokens).toBe(250_000);
    expect(priced.dollars).toBeCloseTo((250_000 * 2.5 + 100 * 15) / 1e6, 12);
  });

  it("the dataset's tiers keep their thresholds: 200k for Claude and Gemini Pro, 272k for GPT-5.4 and 5.5", () => {
    const threshold = (provider: string, modelId: string) => findPriceRow({ provider, modelId }, TABLE)!.row.longContext?.aboveInputTokens;
    expect(threshold("anthropic", "claude-sonnet-4-5")).toBe(200_000);
    expect(threshold("google", "gemini-2.5-pro")).toBe(200_000);
    expect(threshold("google", "gemini-3-pro-preview")).toBe(200_000);
    expect(threshold("openai", "gpt-5.4")).toBe(271_999);
    expect(threshold("openai", "gpt-5.5")).toBe(271_999);
    expect(threshold("anthropic", "claude-opus-4-5")).toBeUndefined();
  });
});

describe("the CLI's cost field", () => {
  it("names the long-context tier on the turns it applied to, and only there", () => {
    const model = { provider: "anthropic", modelId: "claude-sonnet-4-5" };
    const long = turnCost({ turn: 1, model, recorded: { uncachedInput: 250_000, cacheRead: 0, cacheWrite: 0, output: 1 }, predicted: null, rebilledTokens: 0 }, TABLE);
    const short = turnCost({ turn: 1, model, recorded: { uncachedInput: 1000, cacheRead: 0, cacheWrite: 0, output: 1 }, predicted: null, rebilledTokens: 0 }, TABLE);
    expect(costField(long, { predicted: false })).toMatchObject({ recorded: { status: "priced", longContext: { aboveInputTokens: 200_000, inputTokens: 250_000 } } });
    expect(costField(short, { predicted: false }).recorded).toEqual({ status: "priced", dollars: (1000 * 3 + 15) / 1e6 });
  });
});
