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

describe("segments kept apart for messages that come back", () => {
  const message = (i: number) => ({ role: i % 2 === 0 ? "user" : "assistant", content: [{ type: "text", text: `message ${i} ${"z".repeat(80)}` }] });

  it("a session that only grows keeps no per-message copy of its segments", () => {
    const cache = createSegmentCache();
    const list: unknown[] = [];
    for (let turn = 0; turn < 30; turn++) {
      list.push(message(2 * turn), message(2 * turn + 1));
      segmentRequest("anthropic-messages", { system: "sys", messages: [...list] }, { ...est, cache });
    }
    expect(cache.memoized).toBe(0);
  });

  it("a request that diverges inside the run keeps the cut messages only, and takes them back at the same places", () => {
    const cache = createSegmentCache();
    const list = Array.from({ length: 10 }, (_, i) => message(i));
    const first = segmentRequest("anthropic-messages", { messages: list }, { ...est, cache });
    // Message 1 is replaced: messages 1 … 9 leave the run, 2 … 9 come back where they were.
    const edited = [list[0], message(100), ...list.slice(2)];
    const second = segmentRequest("anthropic-messages", { messages: edited }, { ...est, cache });
    expect(cache.memoized).toBe(9);
    // The same segment objects: taken back, not segmented again.
    for (let i = 4; i < first.segments.length; i++) expect(second.segments.at(i)).toBe(first.segments.at(i));
    expect(second.segments.toArray()).toEqual(segmentRequest("anthropic-messages", { messages: edited }, est).segments.toArray());
  });
});

describe("fingerprints of fresh objects", () => {
  it("a fresh object with earlier content takes its facts; a value that differs in a key, a type or a long text does not", () => {
    const cache = createSegmentCache();
    const long = "long text ".repeat(20);
    const body = (content: unknown) => ({ messages: [{ role: "user", content }] });
    const a = segmentRequest("anthropic-messages", body([{ type: "text", text: long, n: 1 }]), { ...est, cache });
    const printsAfterFirst = cache.facts.fingerprints.size;
    // Equal content in new objects: no new fingerprint.
    const b = segmentRequest("anthropic-messages", body([{ type: "text", text: `${long}`, n: 1 }]), { ...est, cache });
    expect(cache.facts.fingerprints.size).toBe(printsAfterFirst);
    expect(b.segments.at(1)!.hash).toBe(a.segments.at(1)!.hash);
    // Fingerprints are numbers: taking one builds no string.
    for (const key of cache.facts.fingerprints.keys()) expect(typeof key).toBe("number");
    for (const content of [
      [{ type: "text", text: long, n: "1" }],
      [{ type: "text", text: long, m: 1 }],
      [{ type: "text", text: `${long}!`, n: 1 }],
      [{ type: "text", text: long, n: 1.5 }],
    ]) {
      const other = segmentRequest("anthropic-messages", body(content), { ...est, cache });
      const alone = segmentRequest("anthropic-messages", body(content), est);
      expect(other.segments.toArray().map((s) => [s.hash, s.bytes, s.tokens])).toEqual(alone.segments.toArray().map((s) => [s.hash, s.bytes, s.tokens]));
      expect(other.segments.at(1)!.hash).not.toBe(a.segments.at(1)!.hash);
    }
  });
});
