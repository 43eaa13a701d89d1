// A request's tools and system blocks that repeat the previous request's content (the same
// objects, or fresh objects an agent rebuilt every turn) are the previous request's segments
// (segment-builder.ts `add`): no new segment per tool or block per turn, and the same figures as
// a fresh segmentation; a block that changed is measured again.
import { describe, expect, it } from "vitest";
import { notRecorded } from "../../../src/core/model";
import { createSegmentCache } from "../../../src/core/prefix/segment-builder";
import { segmentRequest } from "../../../src/core/prefix/segment-request";
import { sameContent } from "../../../src/core/prefix/same-content";
import type { CacheSegment } from "../../../src/core/prefix/types";

const est = { tokenizer: "estimate" as const };

/** A body rebuilt from scratch: fresh tools and system objects with the same content each time. */
function body(systemText: string, message: object): Record<string, unknown> {
  return {
    model: "claude-sonnet-4-5",
    tools: [{ name: "Bash", description: "Run a command", input_schema: { type: "object", properties: { command: { type: "string" } } } }],
    system: [{ type: "text", text: systemText, cache_control: { type: "ephemeral" } }, { type: "text", text: { $notRecorded: "system prompt" } }],
    messages: [message],
  };
}

function withoutSource(segment: CacheSegment): Omit<CacheSegment, "source"> {
  const { source: _source, ...rest } = segment;
  return rest;
}

describe("head segments repeated from the previous request", () => {
  it("fresh objects with the same content reuse the previous request's segments, with a fresh segmentation's figures", () => {
    const cache = createSegmentCache();
    const first = segmentRequest("anthropic-messages", body("sys", { role: "user", content: "q1" }), { ...est, cache });
    const secondBody = body("sys", { role: "user", content: "q2" });
    const second = segmentRequest("anthropic-messages", secondBody, { ...est, cache });
    const fresh = segmentRequest("anthropic-messages", secondBody, { ...est, cache: createSegmentCache() });
    for (let i = 0; i < 3; i++) expect(second.segments.at(i)).toBe(first.segments.at(i));
    expect([...second.segments].map(withoutSource)).toEqual([...fresh.segments].map(withoutSource));
    expect(second.bytes).toBe(fresh.bytes);
    expect(second.tokens).toBe(fresh.tokens);
    expect(second.notRecorded).toEqual(fresh.notRecorded);
  });

  it("a changed block is measured again, the unchanged ones are reused", () => {
    const cache = createSegmentCache();
    const first = segmentRequest("anthropic-messages", body("sys", { role: "user", content: "q1" }), { ...est, cache });
    const changedBody = body("another system text", { role: "user", content: "q2" });
    const changed = segmentRequest("anthropic-messages", changedBody, { ...est, cache });
    const fresh = segmentRequest("anthropic-messages", changedBody, { ...est, cache: createSegmentCache() });
    expect(changed.segments.at(0)).toBe(first.segments.at(0));
    expect(changed.segments.at(1)).not.toBe(first.segments.at(1));
    expect(changed.segments.at(1)!.hash).toBe(fresh.segments.at(1)!.hash);
    expect(changed.segments.at(1)!.hash).not.toBe(first.segments.at(1)!.hash);
    expect(changed.tokens).toBe(fresh.tokens);
  });

  it("a not-recorded part is reused with its label", () => {
    const cache = createSegmentCache();
    const make = () => ({ model: "m", tools: notRecorded("tool definitions"), system: notRecorded("system prompt"), messages: [] });
    const first = segmentRequest("anthropic-messages", make(), { ...est, cache });
    const second = segmentRequest("anthropic-messages", make(), { ...est, cache });
    expect(second.segments.at(0)).toBe(first.segments.at(0));
    expect(second.notRecorded).toEqual(first.notRecorded);
  });
});

describe("sameContent", () => {
  it("is true for equal JSON content only, key order included", () => {
    expect(sameContent({ a: [1, "x", null, true], b: { c: 2 } }, { a: [1, "x", null, true], b: { c: 2 } })).toBe(true);
    expect(sameContent({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false);
    expect(sameContent({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(sameContent([1, 2], [1, 2, 3])).toBe(false);
    expect(sameContent({ a: [1] }, { a: { 0: 1 } })).toBe(false);
    expect(sameContent(new Date(0), new Date(0))).toBe(false);
    expect(sameContent(Number.NaN, Number.NaN)).toBe(false);
  });
});
