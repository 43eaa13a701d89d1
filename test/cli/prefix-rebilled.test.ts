// What a break made the provider bill again, on the turns right after a compaction: never more
// than the request the agent really sent (its recorded wire body, counted with o200k) and never
// more than the part of it the recorded usage says was not read from the cache. The dropped
// history is not sent after a compaction, so it is not billed again.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { analyzePrefixes } from "../../src/core/prefix/analyze";
import type { ApiId } from "../../src/core/model";
import { runCliCaptured } from "./cli-helpers";
import { fixtureCase } from "../support/fixtures";

/** The recorded main request bodies, in arrival order. */
function mainBodies(name: string): Record<string, unknown>[] {
  return fixtureCase(name)
    .requests()
    .filter((request) => request.kind === "main")
    .map((request) => request.body);
}

/** Tokens of a recorded body (o200k: exact for these OpenAI shapes). */
function wireTokens(api: ApiId, body: Record<string, unknown>): number {
  return analyzePrefixes([{ turn: 1, api, body }], { tokenizer: "o200k" })[0]!.tokens;
}

/** pi: per assistant message, its recorded input not read from the cache (`input` + `cacheWrite`). */
function piUncached(file: string): number[] {
  const out: number[] = [];
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (!line.trim()) continue;
    const entry = JSON.parse(line) as { type?: string; message?: { role?: string; usage?: { input?: number; cacheWrite?: number } } };
    if (entry.type === "message" && entry.message?.role === "assistant" && entry.message.usage) {
      out.push((entry.message.usage.input ?? 0) + (entry.message.usage.cacheWrite ?? 0));
    }
  }
  return out;
}

/** Codex: per model response (distinct running totals), input_tokens − cached_input_tokens. */
function codexUncached(file: string): number[] {
  const out: number[] = [];
  let total: number | null = null;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (!line.trim()) continue;
    const entry = JSON.parse(line) as { payload?: { type?: string; info?: { total_token_usage: { total_tokens: number }; last_token_usage: { input_tokens: number; cached_input_tokens: number } } } };
    const info = entry.payload?.type === "token_count" ? entry.payload.info : undefined;
    if (!info || info.total_token_usage.total_tokens === total) continue;
    total = info.total_token_usage.total_tokens;
    out.push(info.last_token_usage.input_tokens - info.last_token_usage.cached_input_tokens);
  }
  return out;
}

describe("tokens billed again after a compaction", () => {
  it("pi (OpenAI chat): within the recorded request and its recorded uncached input", async () => {
    const name = "pi/print-openai-autocompact";
    const bodies = mainBodies(name);
    const uncached = piUncached(fixtureCase(name).sessionPath);
    const run = await runCliCaptured(["prefix", fixtureCase(name).sessionPath, "--jobs", "1"]);
    const breaks = run.lines.filter((line) => line.cause !== null);
    expect(breaks.map((line) => line.turn)).toEqual([9, 13]);
    for (const line of breaks) {
      const turn = line.turn as number;
      const rebilled = (line.cost as { break: { rebilledTokens: number } }).break.rebilledTokens;
      const request = wireTokens("openai-completions", bodies[turn - 1]!);
      expect(rebilled, `turn ${turn}`).toBeGreaterThan(0);
      // The previous request's whole tail (2,643 tokens at turn 9) was counted before: more than
      // this request of about 1,830 tokens.
      expect(rebilled, `turn ${turn}`).toBeLessThanOrEqual(request);
      expect(rebilled, `turn ${turn}`).toBeLessThanOrEqual(uncached[turn - 1]!);
    }
  });

  it("Codex (Responses): within the recorded request and the provider's uncached input", async () => {
    const name = "codex/exec-autocompact";
    const bodies = mainBodies(name);
    const run = await runCliCaptured(["prefix", fixtureCase(name).sessionPath, "--jobs", "1"]);
    const uncached = codexUncached(fixtureCase(name).sessionPath);
    const breaks = run.lines.filter((line) => line.cause !== null);
    expect(breaks.map((line) => line.turn)).toEqual([9]);
    const rebilled = (breaks[0]!.cost as { break: { rebilledTokens: number } }).break.rebilledTokens;
    // Unpriced (a scripted model) used to print 0: the count does not depend on a price.
    expect(rebilled).toBeGreaterThan(0);
    expect(rebilled).toBeLessThanOrEqual(wireTokens("openai-responses", bodies[8]!));
    // The 10th model response is turn 9's (the 9th is the compaction's summariser call).
    expect(rebilled).toBeLessThanOrEqual(uncached[9]!);
  });
});
