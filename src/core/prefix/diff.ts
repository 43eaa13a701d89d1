// PD-1: compare request N with N+1 in cache order. First by segment hash (cheap, cached per
// content), then — only inside the first differing segment — by characters for the byte offset
// and by text leaves for the token offset. Work per turn is one hash comparison per segment.
import { counterForApi, type CounterOptions } from "../tokens/counters";
import { firstDifferingIndex, utf8ByteLength } from "../util/utf8";
import { renderCanonical } from "./canonical";
import { joinPath, locateDifference } from "./locate";
import { carryOf, segmentValue } from "./segment-builder";
import type { ApiId } from "../model";
import type { CacheLevel, CacheSegment, PrefixDiff, SegmentedRequest } from "./types";

/** Cache order of the levels per shape (PR-3 … PR-6). */
const LEVEL_ORDER: Record<ApiId, readonly CacheLevel[]> = {
  "anthropic-messages": ["tools", "system", "messages"],
  "openai-completions": ["system", "tools", "schema", "messages"],
  "openai-responses": ["system", "tools", "schema", "messages"],
  "google-generative-ai": ["system", "tools", "messages"],
};

function levelRank(api: ApiId, level: CacheLevel): number {
  return LEVEL_ORDER[api].indexOf(level);
}

function sameSegment(a: CacheSegment, b: CacheSegment): boolean {
  return a.hash === b.hash && a.bytes === b.bytes && (a.view === "header") === (b.view === "header");
}

/** Index of the first segment where N+1 differs from N (= N's length when N+1 extends N). */
export function firstDifferingSegment(previous: SegmentedRequest, next: SegmentedRequest): number {
  const common = Math.min(previous.segments.length, next.segments.length);
  let i = 0;
  while (i < common && sameSegment(previous.segments.at(i)!, next.segments.at(i)!)) i++;
  return i;
}

/** Compares two segmented requests (PD-1). `previous` null: the first turn, nothing shared. */
export function diffRequests(
  previous: SegmentedRequest | null,
  next: SegmentedRequest,
  options: CounterOptions = {},
): PrefixDiff {
  // The shared fields are written out in each result, not spread from one object: a spread
  // copies through a slower path, and this runs every turn.
  if (!previous) {
    return {
      bytes: next.bytes,
      tokens: next.tokens,
      tokensExact: next.tokensExact,
      sharedBytes: 0,
      sharedTokens: 0,
      breakPath: null,
      breakSegment: null,
      breakSegmentIndex: null,
      breakByteOffsetInSegment: null,
      breakLevel: null,
      nextIsPrefixOfPrevious: false,
    };
  }
  // One pass: compare and sum the shared segments together (a repeated message re-adds the
  // same segment objects, so most comparisons are one identity check).
  const common = Math.min(previous.segments.length, next.segments.length);
  let index = 0;
  let sharedBytes = 0;
  let sharedTokens = 0;
  // The segments `next` took from `previous` as they were (segment-builder.ts `carryMessages`)
  // are equal by construction: once the comparison reaches them, they are added as one run.
  const carry = carryOf(next);
  const before = carryOf(previous);
  const carried = carry && before && carry.count > 0 && carry.previousId === before.id && carry.from === before.from && carry.from + carry.count <= common ? carry : null;
  while (index < common) {
    if (carried && index === carried.from) {
      sharedBytes += carried.bytes;
      sharedTokens += carried.tokens;
      index += carried.count;
      continue;
    }
    const segment = next.segments.at(index)!;
    const before = previous.segments.at(index)!;
    if (segment !== before && !sameSegment(before, segment)) break;
    sharedBytes += segment.bytes;
    sharedTokens += segment.tokens;
    index++;
  }
  const prevSegment = previous.segments.at(index);
  const nextSegment = next.segments.at(index);
  if (!prevSegment) {
    // N is a prefix of N+1: nothing to pay again.
    return {
      bytes: next.bytes,
      tokens: next.tokens,
      tokensExact: next.tokensExact,
      sharedBytes,
      sharedTokens,
      breakPath: null,
      breakSegment: null,
      breakSegmentIndex: null,
      breakByteOffsetInSegment: null,
      breakLevel: null,
      nextIsPrefixOfPrevious: false,
    };
  }
  if (!nextSegment) {
    // N+1 ends inside N: a truncation at a segment boundary.
    return {
      bytes: next.bytes,
      tokens: next.tokens,
      tokensExact: next.tokensExact,
      sharedBytes,
      sharedTokens,
      breakPath: prevSegment.label,
      breakSegment: prevSegment.label,
      breakSegmentIndex: index,
      breakByteOffsetInSegment: 0,
      breakLevel: prevSegment.level,
      nextIsPrefixOfPrevious: true,
    };
  }
  // When the segments at the break are different kinds (a structural shift, e.g. the leading
  // developer run got shorter so tools moved up), name the one earlier in cache order.
  const sameLabel = prevSegment.label === nextSegment.label;
  const named = sameLabel || levelRank(next.api, nextSegment.level) <= levelRank(next.api, prevSegment.level) ? nextSegment : prevSegment;
  const prevValue = segmentValue(prevSegment);
  const nextValue = segmentValue(nextSegment);
  const prevRendering = renderCanonical(prevValue);
  const nextRendering = renderCanonical(nextValue);
  const charOffset = firstDifferingIndex(prevRendering, nextRendering);
  const byteOffset = utf8ByteLength(nextRendering, 0, charOffset);
  const location = locateDifference(prevValue, nextValue);
  const counter = counterForApi(next.api, options);
  let partialTokens = 0;
  if (nextSegment.notRecorded === null) {
    if (nextSegment.tokenMode === "json") partialTokens = counter.count(nextRendering.slice(0, charOffset));
    else if (location) partialTokens = counter.count(location.sharedText);
  }
  return {
    bytes: next.bytes,
    tokens: next.tokens,
    tokensExact: next.tokensExact,
    sharedBytes: sharedBytes + byteOffset,
    sharedTokens: sharedTokens + partialTokens,
    breakPath: sameLabel ? joinPath(nextSegment.label, location?.path ?? []) : named.label,
    breakSegment: named.label,
    breakSegmentIndex: index,
    breakByteOffsetInSegment: byteOffset,
    breakLevel: named.level,
    nextIsPrefixOfPrevious: false,
  };
}
