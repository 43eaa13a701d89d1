// Cache rules, simulation, expiry, usage normalisation and comparison (CA-*).
import { describe, expect, it } from "vitest";
import { compareUsage } from "../../../src/core/caching/compare";
import { classifyExpiry } from "../../../src/core/caching/expiry";
import { anthropicMinimum, anthropicModelKey, geminiMinimum, isOpenAiBreakpointModel, openAiCachedTokens } from "../../../src/core/caching/rules";
import { createCacheSimulationState, simulateCache } from "../../../src/core/caching/simulate";
import { dedupeClaudeCodeUsage, normalizeUsage } from "../../../src/core/caching/usage";
import { analyzePrefixes } from "../../../src/core/prefix/analyze";
import { diffRequests } from "../../../src/core/prefix/diff";
import { segmentRequest } from "../../../src/core/prefix/segment-request";

const est = { tokenizer: "estimate" as const };
/** A text of exactly `tokens` chars/4 tokens. */
const sized = (tokens: number, tag = "x") => (tag + "y".repeat(tokens * 4)).slice(0, tokens * 4);
const marked = (t: string) => ({ type: "text", text: t, cache_control: { type: "ephemeral" } });
const plain = (t: string) => ({ type: "text", text: t });

describe("rules (CA-3, CA-13, CA-14, CA-18)", () => {
  it("OpenAI 1024 minimum and 128-token blocks (spec §5 case 4)", () => {
    expect([1023, 1024, 1300].map(openAiCachedTokens)).toEqual([0, 1024, 1280]);
  });
  it("model keys and minimum resolution with conflicts", () => {
    expect(anthropicModelKey("claude-sonnet-4-20250514")).toBe("sonnet-4");
    expect(anthropicModelKey("claude-opus-4-1-20250805")).toBe("opus-4.1");
    expect(anthropicModelKey("claude-3-7-sonnet-20250219")).toBe("sonnet-3.7");
    expect(anthropicModelKey("claude-3-5-haiku-20241022")).toBe("haiku-3.5");
    expect(anthropicMinimum("claude-opus-4-6").value).toBe(4096);
    const sonnet46 = anthropicMinimum("claude-sonnet-4-6");
    expect(sonnet46.value).toBe(1024);
    expect(sonnet46.primary).toBe(true);
    expect(sonnet46.conflicts.map((c) => c.value)).toEqual([2048]);
    const opus47 = anthropicMinimum("claude-opus-4-7");
    expect(opus47.value).toBe(4096);
    expect(opus47.conflicts.map((c) => c.value)).toEqual([2048]);
    const unknown = anthropicMinimum("claude-opus-5-5");
    expect(unknown.value).toBe(1024);
    expect(unknown.warning).toMatch(/claude-opus-5-5/);
    expect(anthropicMinimum("claude-opus-5-5", { minimumByModel: { "claude-opus-5-5": 512 } }).value).toBe(512);
    expect(geminiMinimum("gemini-2.5-flash").value).toBe(2048);
    expect(geminiMinimum("gemini-2.5-flash").conflicts.map((c) => c.value)).toEqual([1024]);
    expect(isOpenAiBreakpointModel("gpt-5.6-mini")).toBe(true);
    expect(isOpenAiBreakpointModel("gpt-5.5")).toBe(false);
    expect(isOpenAiBreakpointModel("gpt-4.1")).toBe(false);
  });
});

describe("Anthropic simulation (CA-8 … CA-11)", () => {
  const sonnet = "claude-sonnet-4-5";
  function run(bodies: Record<string, unknown>[], times: (number | null)[] = bodies.map(() => null)) {
    const state = createCacheSimulationState();
    let previous: ReturnType<typeof segmentRequest> | null = null;
    return bodies.map((body, i) => {
      const request = segmentRequest("anthropic-messages", body, est);
      const result = simulateCache(state, request, previous ? diffRequests(previous, request, est) : null, times[i]!);
      previous = request;
      return result;
    });
  }
  it("writes at the breakpoint, then reads it on the next turn", () => {
    const first = { model: sonnet, messages: [{ role: "user", content: [marked(sized(2000))] }] };
    const second = { model: sonnet, messages: [{ role: "user", content: [plain(sized(2000))] }, { role: "assistant", content: [plain("ok")] }, { role: "user", content: [marked(sized(100, "z"))] }] };
    const [a, b] = run([first, second]);
    expect(a!.cacheRead).toBe(0);
    expect(a!.cacheWrite).toBe(2000);
    expect(b!.cacheRead).toBe(2000);
    expect(b!.cacheWrite).toBe(b!.totalInput - 2000);
    expect(b!.uncachedInput).toBe(0);
    expect(b!.costUnits).toBeCloseTo(2000 * 0.1 + (b!.totalInput - 2000) * 1.25);
  });
  it("below the minimum nothing is written, no error (spec §5 case 5)", () => {
    const body = { model: sonnet, messages: [{ role: "user", content: [marked(sized(900))] }] };
    const [a, b] = run([body, body]);
    expect(a!.cacheWrite).toBe(0);
    expect(b!.cacheRead).toBe(0);
    expect(b!.uncachedInput).toBe(900);
  });
  it("a turn appending 25 blocks is out of the 20-block lookback (spec §5 case 6)", () => {
    const base = [{ role: "user", content: [plain(sized(2000))] }];
    const blocks = (n: number) => Array.from({ length: n }, (_, i) => plain(`block ${i}`));
    const first = { model: sonnet, messages: [{ role: "user", content: [marked(sized(2000))] }] };
    const far = { model: sonnet, messages: [...base, { role: "assistant", content: [...blocks(24), marked("last")] }] };
    const near = { model: sonnet, messages: [...base, { role: "assistant", content: [...blocks(19), marked("last")] }] };
    expect(run([first, far])[1]!.cacheRead).toBe(0);
    expect(run([first, near])[1]!.cacheRead).toBe(2000);
  });
  it("a 6-minute gap expires a 5m entry; a 1h marker keeps it", () => {
    const body = { model: sonnet, messages: [{ role: "user", content: [marked(sized(2000))] }] };
    expect(run([body, body], [0, 6 * 60_000])[1]!.cacheRead).toBe(0);
    expect(run([body, body], [0, 4 * 60_000])[1]!.cacheRead).toBe(2000);
    const long = { model: sonnet, messages: [{ role: "user", content: [{ ...marked(sized(2000)), cache_control: { type: "ephemeral", ttl: "1h" } }] }] };
    const [w, r] = run([long, long], [0, 30 * 60_000]);
    expect(w!.cacheWrite1h).toBe(2000);
    expect(r!.cacheRead).toBe(2000);
  });
  it("automatic caching puts the breakpoint on the last block; more than 4 markers warn", () => {
    const auto = { model: sonnet, cache_control: { type: "ephemeral" }, messages: [{ role: "user", content: [plain(sized(2000))] }] };
    expect(run([auto])[0]!.cacheWrite).toBe(2000);
    const five = { model: sonnet, messages: [{ role: "user", content: Array.from({ length: 5 }, () => marked(sized(300))) }] };
    expect(run([five])[0]!.warnings.join(" ")).toMatch(/HTTP 400/);
  });
});

describe("OpenAI and Gemini simulation", () => {
  const chat = (model: string, texts: string[]) => ({ model, messages: texts.map((t, i) => ({ role: i % 2 ? "assistant" : "user", content: t })) });
  function pair(api: "openai-completions" | "google-generative-ai", a: Record<string, unknown>, b: Record<string, unknown>, gap = 1000) {
    const state = createCacheSimulationState();
    const ra = segmentRequest(api, a, est);
    const rb = segmentRequest(api, b, est);
    simulateCache(state, ra, null, 0);
    return simulateCache(state, rb, diffRequests(ra, rb, est), gap);
  }
  it("pre-5.6: cached = 128-token blocks of the common prefix with the previous request", () => {
    const r = pair("openai-completions", chat("gpt-4.1", [sized(1300)]), chat("gpt-4.1", [sized(1300), "ok", "more"]));
    expect(r.cacheRead).toBe(1280);
    expect(r.cacheWrite).toBe(0);
    expect(pair("openai-completions", chat("gpt-4.1", [sized(1000)]), chat("gpt-4.1", [sized(1000), "ok"])).cacheRead).toBe(0);
    expect(pair("openai-completions", chat("gpt-4.1", [sized(1300)]), chat("gpt-4.1", [sized(1300), "ok"]), 11 * 60_000).cacheRead).toBe(0);
  });
  it("GPT-5.6+: writes at the implicit breakpoint, reads only exact earlier breakpoints", () => {
    const state = createCacheSimulationState();
    const a = segmentRequest("openai-completions", chat("gpt-5.6", [sized(1500)]), est);
    const b = segmentRequest("openai-completions", chat("gpt-5.6", [sized(1500), "ok", "next"]), est);
    const first = simulateCache(state, a, null, 0);
    expect(first.cacheWrite).toBe(a.tokens - a.primingTokens);
    const second = simulateCache(state, b, diffRequests(a, b, est), 1000);
    expect(second.cacheRead).toBe(a.tokens - a.primingTokens);
    expect(second.rule).toBe("openai-breakpoints");
  });
  it("Gemini 2.5 Pro: a 2100-token common prefix is a possible hit, not a certain one (spec §5 case 12)", () => {
    const g = (parts: string[]) => ({ model: "gemini-2.5-pro", contents: parts.map((t) => ({ role: "user", parts: [{ text: t }] })) });
    const r = pair("google-generative-ai", g([sized(2100)]), g([sized(2100), "more"]));
    expect(r.certainty).toBe("possible");
    expect(r.cacheRead).toBe(0);
    expect(r.possibleCachedTokens).toBe(2100);
  });
});

describe("expiry (CA-4, CA-13, CA-14)", () => {
  it("classifies gaps per provider", () => {
    expect(classifyExpiry({ api: "anthropic-messages", model: "m", gapMs: 6 * 60_000 }).status).toBe("expired");
    expect(classifyExpiry({ api: "anthropic-messages", model: "m", gapMs: 6 * 60_000, anthropicTtl: "1h" }).status).toBe("live");
    expect(classifyExpiry({ api: "openai-completions", model: "gpt-4.1", gapMs: 7 * 60_000 }).status).toBe("maybe-expired");
    expect(classifyExpiry({ api: "openai-completions", model: "gpt-4.1", gapMs: 11 * 60_000 }).status).toBe("expired");
    expect(classifyExpiry({ api: "openai-completions", model: "gpt-4.1", gapMs: 11 * 60_000, openaiRetention: "24h" }).status).toBe("live");
    expect(classifyExpiry({ api: "openai-responses", model: "gpt-5.7", gapMs: 20 * 60_000 }).status).toBe("live");
    expect(classifyExpiry({ api: "google-generative-ai", model: null, gapMs: 1 }).status).toBe("unknown");
  });
});

describe("usage normalisation (CA-21, CA-22)", () => {
  it.each([
    ["anthropic", { input_tokens: 10, cache_read_input_tokens: 100, cache_creation_input_tokens: 5, output_tokens: 7, cache_creation: { ephemeral_5m_input_tokens: 5, ephemeral_1h_input_tokens: 0 } }, [10, 100, 5, 7]],
    ["openai-chat", { prompt_tokens: 1500, completion_tokens: 9, prompt_tokens_details: { cached_tokens: 1280 } }, [220, 1280, 0, 9]],
    ["openai-responses", { input_tokens: 2000, output_tokens: 30, input_tokens_details: { cached_tokens: 1024, cache_write_tokens: 500 } }, [476, 1024, 500, 30]],
    ["codex-rollout", { input_tokens: 12033, cached_input_tokens: 11904, cache_write_input_tokens: 0, output_tokens: 40, reasoning_output_tokens: 3 }, [129, 11904, 0, 40]],
    ["gemini", { promptTokenCount: 3000, cachedContentTokenCount: 2048, candidatesTokenCount: 12 }, [952, 2048, 0, 12]],
    ["pi", { input: 1406, output: 25, cacheRead: 3, cacheWrite: 4, totalTokens: 1438 }, [1406, 3, 4, 25]],
    ["opencode", { input: 50, output: 5, reasoning: 1, cache: { read: 900, write: 10 } }, [50, 900, 10, 5]],
  ] as const)("%s", (source, raw, [uncached, read, write, output]) => {
    const u = normalizeUsage(source, raw);
    expect([u.uncachedInput, u.cacheRead, u.cacheWrite, u.output]).toEqual([uncached, read, write, output]);
    expect(u.totalInput).toBe(uncached + read + write);
    expect(u.raw).toBe(raw);
  });
  it("Codex rollout 12033 / 11904 → uncached 129 (spec §5 case 9)", () => {
    expect(normalizeUsage("codex-rollout", { input_tokens: 12033, cached_input_tokens: 11904 }).uncachedInput).toBe(129);
  });
  it("Claude Code: one response split over 3 entries is counted once (spec §5 case 8)", () => {
    const usage = (out: number) => ({ input_tokens: 3, cache_read_input_tokens: 1000, cache_creation_input_tokens: 50, output_tokens: out });
    const rows = dedupeClaudeCodeUsage([
      { message: { id: "msg_1", usage: usage(1) } },
      { message: { id: "msg_1", usage: usage(1) } },
      { message: { id: "msg_1", usage: usage(80) } },
      { message: { id: "msg_2", usage: usage(5) } },
    ]);
    expect(rows.map((r) => r.messageId)).toEqual(["msg_1", "msg_2"]);
    expect(rows[0]!.usage.output).toBe(80);
    expect(rows.reduce((sum, r) => sum + r.usage.cacheRead, 0)).toBe(2000);
  });
});

describe("predicted against recorded (CA-12)", () => {
  const sonnet = "claude-sonnet-4-5";
  const body = { model: sonnet, messages: [{ role: "user", content: [marked(sized(2000))] }] };
  const usage = (read: number) => ({ source: "anthropic" as const, raw: { input_tokens: 0, cache_read_input_tokens: read, cache_creation_input_tokens: 0, output_tokens: 1 } });
  it("ttl-expired after a 6-minute gap with an equal prefix (spec §5 case 7)", () => {
    const [, second] = analyzePrefixes(
      [
        { turn: 1, api: "anthropic-messages", body, timestamp: "2026-11-29T10:00:00Z", usage: usage(0) },
        { turn: 2, api: "anthropic-messages", body, timestamp: "2026-11-29T10:06:00Z", usage: usage(0) },
      ],
      est,
    );
    expect(second!.expiry!.status).toBe("expired");
    expect(second!.usageComparison!.classification).toBe("ttl-expired");
  });
  it("cold-start, agreement, and provider-side", () => {
    const reports = analyzePrefixes(
      [
        { turn: 1, api: "anthropic-messages", body, timestamp: "2026-11-29T10:00:00Z", usage: usage(0) },
        { turn: 2, api: "anthropic-messages", body, timestamp: "2026-11-29T10:01:00Z", usage: usage(2000) },
        { turn: 3, api: "anthropic-messages", body, timestamp: "2026-11-29T10:02:00Z", usage: usage(0) },
      ],
      est,
    );
    expect(reports[0]!.usageComparison!.classification).toBe("cold-start");
    expect(reports[1]!.usageComparison!.agrees).toBe(true);
    expect(reports[1]!.predictedCachedTokens).toBe(2000);
    expect(reports[2]!.usageComparison!.classification).toBe("provider-side");
  });
  it("below-minimum", () => {
    const small = { model: sonnet, messages: [{ role: "user", content: [marked(sized(500))] }] };
    const state = createCacheSimulationState();
    const request = segmentRequest("anthropic-messages", small, est);
    const prediction = simulateCache(state, request, null, null);
    const comparison = compareUsage(prediction, normalizeUsage("anthropic", { input_tokens: 500 }), {
      firstRequest: false,
      cause: null,
      expiry: null,
      sharedTokens: 500,
    });
    expect(comparison.classification).toBe("below-minimum");
  });
});
