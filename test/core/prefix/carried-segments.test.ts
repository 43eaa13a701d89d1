// A request whose leading messages are the previous request's objects takes their segments from it
// (segment-builder.ts `carryMessages`): the segments, sums, diff and cache simulation equal those of
// the same requests segmented with nothing carried, for every wire shape.
import { describe, expect, it } from "vitest";
import type { ApiId } from "../../../src/core/model";
import { notRecorded } from "../../../src/core/model";
import { createPrefixAnalyzer } from "../../../src/core/prefix/analyze";
import { carryOf, createSegmentCache } from "../../../src/core/prefix/segment-builder";
import { segmentRequest } from "../../../src/core/prefix/segment-request";

const est = { tokenizer: "estimate" as const };

/** Turn t's body: the messages of turn t-1 (same objects) and two more, per shape. */
function bodies(api: ApiId, turns: number): Record<string, unknown>[] {
  const list: unknown[] = [];
  const out: Record<string, unknown>[] = [];
  for (let t = 1; t <= turns; t++) {
    if (api === "google-generative-ai") list.push({ role: "user", parts: [{ text: `q${t}` }] }, { role: "model", parts: [{ text: `a${t} ${"x".repeat(t * 50)}` }] });
    else if (api === "openai-responses") list.push({ type: "message", role: "user", content: [{ type: "input_text", text: `q${t}` }] }, { type: "function_call", call_id: `c${t}`, name: "f", arguments: "{}" });
    else list.push({ role: "user", content: `q${t} ${"y".repeat(t * 40)}` }, { role: "assistant", content: [{ type: "text", text: `a${t} ${"word ".repeat(800)}` }] });
    const last = t % 3 === 0 ? [{ role: "user", content: [{ type: "text", text: "marked", cache_control: { type: "ephemeral", ttl: "1h" } }] }] : [];
    const messages = [...list, ...(api === "anthropic-messages" ? last : [])];
    if (api === "google-generative-ai") out.push({ contents: messages, systemInstruction: notRecorded("system"), tools: notRecorded("tools") });
    else if (api === "openai-responses") out.push({ model: "gpt-5", input: [{ type: "message", role: "developer", content: "dev" }, ...messages], tools: notRecorded("tools") });
    else if (api === "openai-completions") out.push({ model: "gpt-4.1", messages: [{ role: "system", content: "sys" }, ...messages], tools: notRecorded("tools") });
    else out.push({ model: "claude-sonnet-4-5", system: [{ type: "text", text: "sys", cache_control: { type: "ephemeral" } }], tools: notRecorded("tools"), messages, cache_control: { type: "ephemeral" } });
  }
  return out;
}

const APIS: ApiId[] = ["anthropic-messages", "openai-completions", "openai-responses", "google-generative-ai"];

describe("segments carried from the previous request", () => {
  for (const api of APIS) {
    it(`${api}: every turn's segments and totals equal a fresh segmentation, and the run is carried`, () => {
      const cache = createSegmentCache();
      const list = bodies(api, 8);
      list.forEach((body, i) => {
        const carried = segmentRequest(api, body, { ...est, cache });
        const fresh = segmentRequest(api, body, { ...est, cache: createSegmentCache() });
        expect(carried).toEqual(fresh);
        if (i > 0) expect(carryOf(carried)!.count).toBeGreaterThan(0);
      });
    });

    it(`${api}: each turn's comparison with the previous one equals that of an analysis that carries nothing`, () => {
      const usage = (t: number) => ({ source: "pi" as const, raw: { input: 500 + 300 * t, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 505 + 300 * t } });
      const walk = createPrefixAnalyzer(est);
      const reports = bodies(api, 8).map((body, i) => walk.next({ turn: i + 1, api, body, timestamp: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(), usage: usage(i + 1) }));
      // One analyzer per turn pair, each with its own cache: nothing is ever carried.
      const list = bodies(api, 8);
      const alone = list.map((body, i) => {
        const analyzer = createPrefixAnalyzer(est);
        if (i > 0) analyzer.next({ turn: i, api, body: list[i - 1]!, timestamp: new Date(Date.UTC(2026, 0, 1, 0, i - 1)).toISOString(), usage: usage(i) });
        return analyzer.next({ turn: i + 1, api, body, timestamp: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(), usage: usage(i + 1) });
      });
      // The comparison with the previous request (the cache figures depend on every turn before).
      const compared = (report: (typeof reports)[number]) => [report.bytes, report.sharedBytes, report.tokens, report.sharedTokens, report.breakPath, report.cause, report.notRecorded];
      reports.forEach((report, i) => expect(compared(report)).toEqual(compared(alone[i]!)));
      expect(reports.some((report) => report.sharedBytes > 0)).toBe(true);
    });
  }

  it("anthropic-messages: the simulated cache of a carried walk equals a walk segmented afresh each turn", () => {
    const list = bodies("anthropic-messages", 9);
    const time = (i: number) => new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString();
    const carried = createPrefixAnalyzer(est);
    const a = list.map((body, i) => carried.next({ turn: i + 1, api: "anthropic-messages", body, timestamp: time(i) }));
    // Fresh copies of every body: no message object repeats, so nothing can be carried.
    const copied = createPrefixAnalyzer(est);
    const b = list.map((body, i) => copied.next({ turn: i + 1, api: "anthropic-messages", body: structuredClone(body), timestamp: time(i) }));
    expect(a.map((r) => r.cache)).toEqual(b.map((r) => r.cache));
    expect(a.map((r) => r.expiry)).toEqual(b.map((r) => r.expiry));
    expect(a.some((r) => (r.cache?.cacheRead ?? 0) > 0)).toBe(true);
  });
});
