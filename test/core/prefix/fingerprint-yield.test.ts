// The segmenter fingerprints a new object (segment-builder.ts `add`) to find a fresh copy of
// earlier content without hashing it; where its fingerprints of a slot rarely find anything
// (each new segment is new content), it takes them for a sample of the new values only. Either
// way a segment's figures are those of a fresh segmentation, and fresh copies are still found
// while they are common.
import { describe, expect, it } from "vitest";
import { createSegmentCache, type SegmentCache } from "../../../src/core/prefix/segment-builder";
import { segmentRequest } from "../../../src/core/prefix/segment-request";
import type { CacheSegment } from "../../../src/core/prefix/types";

const est = { tokenizer: "estimate" as const };

/** A chat request of `count` tool messages, each a fresh object: call id `call_<id(i)>`, content part `text(i)`. */
function body(count: number, text: (i: number) => string, id: (i: number) => number = (i) => i): Record<string, unknown> {
  const messages: unknown[] = [];
  for (let i = 0; i < count; i++) messages.push({ role: "tool", tool_call_id: `call_${id(i)}`, content: [{ type: "text", text: text(i) }] });
  return { model: "m", messages };
}

function figures(segments: Iterable<CacheSegment>): [string, number, number, number][] {
  return [...segments].map((segment) => [segment.label, segment.hash, segment.bytes, segment.tokens]);
}

function fingerprints(cache: SegmentCache): number {
  return cache.facts.fingerprints.size;
}

describe("fingerprints of new segments", () => {
  it("are taken for a sample of the values when they find nothing, with a fresh segmentation's figures", () => {
    const cache = createSegmentCache();
    const request = body(4000, (i) => `output number ${i} ${"x".repeat(i % 50)}`);
    const segmented = segmentRequest("openai-completions", request, { ...est, cache });
    // 4,000 headers, half of them the same content, and 4,000 content parts, each new.
    expect(fingerprints(cache)).toBeLessThan(4000 + 2000);
    const fresh = segmentRequest("openai-completions", structuredClone(request), { ...est, cache: createSegmentCache() });
    expect(figures(segmented.segments)).toEqual(figures(fresh.segments));
  });

  it("keep finding fresh copies of earlier content while they are common", () => {
    const cache = createSegmentCache();
    const text = (i: number) => `output number ${i % 300}`;
    const id = (i: number) => i % 300;
    segmentRequest("openai-completions", body(3000, text, id), { ...est, cache });
    const printed = fingerprints(cache);
    const again = segmentRequest("openai-completions", body(3000, text, id), { ...est, cache });
    // Every value of the second request is a fresh copy of one the first fingerprinted: no new fingerprint.
    expect(fingerprints(cache)).toBe(printed);
    const fresh = segmentRequest("openai-completions", body(3000, text, id), { ...est, cache: createSegmentCache() });
    expect(figures(again.segments)).toEqual(figures(fresh.segments));
  });
});
