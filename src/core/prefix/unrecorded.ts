// The part of a request the session file does not hold (the system prompt and the tool
// definitions of most agents) has no tokens in a rebuilt request, but the provider counted it.
// The recorded usage of the first turn that has one tells how much: its recorded prompt tokens
// minus the rebuilt request's tokens. That part is the stable start of every request of the
// session, so the figure is applied to every turn from there on; the cache simulation counts it,
// which is what lets predicted cached tokens be compared with the recorded cache reads.
import type { CacheSegment, PrefixDiff, SegmentedRequest } from "./types";
import { carryOf } from "./segment-builder";

/** The inferred size of what the file does not hold, and the turn whose usage gave it. */
export interface UnrecordedEstimate {
  tokens: number;
  fromTurn: number;
}

/**
 * Infers the missing part from one turn: null when the request holds everything, when no prompt
 * tokens were recorded, or when the rebuilt request already counts at least as many tokens as the
 * provider billed (the count overshoots; nothing can be said about the missing part).
 */
export function inferUnrecorded(turn: number, request: SegmentedRequest, recordedPromptTokens: number | null): UnrecordedEstimate | null {
  if (request.notRecorded.length === 0 || recordedPromptTokens === null || recordedPromptTokens <= 0) return null;
  const missing = recordedPromptTokens - request.tokens;
  return missing > 0 ? { tokens: missing, fromTurn: turn } : null;
}

/**
 * The segment lists with the missing tokens of one analyzer's turns, carried from turn to turn:
 * a request that took its message segments from the previous one (segment-builder.ts
 * `carryOf`) takes them from the previous list too, so a turn costs its new segments, not its
 * whole context. A list handed out is valid until the next turn's is asked for.
 */
export class PatchedSegments {
  private list: CacheSegment[] = [];
  /** The carry id of the request the list was made for (0: none). */
  private carryId = 0;
  private from = -1;

  /** `request.segments` with `patched` at `at`. */
  of(request: SegmentedRequest, at: number, patched: CacheSegment): CacheSegment[] {
    const carry = carryOf(request);
    const segments = request.segments;
    let list = this.list;
    if (carry && this.carryId !== 0 && carry.previousId === this.carryId && carry.from === this.from && at < carry.from) {
      // Before `from`: this request's own segments; then the run both requests share; then the new ones.
      list.length = carry.from + carry.count;
      for (let i = 0; i < carry.from; i++) list[i] = segments[i]!;
      for (let i = list.length; i < segments.length; i++) list.push(segments[i]!);
    } else {
      list = segments.slice();
    }
    list[at] = patched;
    this.list = list;
    this.carryId = carry?.id ?? 0;
    this.from = carry?.from ?? -1;
    return list;
  }
}

/**
 * The request and its diff as the provider saw them: the first not-recorded segment carries the
 * missing tokens (the request's other segments are the same objects). The missing part is shared
 * with the previous request whenever the shared prefix reaches past it.
 */
export function withUnrecordedTokens(
  request: SegmentedRequest,
  diff: PrefixDiff,
  missingTokens: number,
  hasPrevious: boolean,
  carried: PatchedSegments = new PatchedSegments(),
): { request: SegmentedRequest; diff: PrefixDiff } {
  const at = request.segments.findIndex((segment) => segment.notRecorded !== null);
  if (at < 0 || missingTokens <= 0) return { request, diff };
  const shared = hasPrevious && (diff.breakSegmentIndex === null || diff.breakSegmentIndex > at);
  // The segment list is made only when read, from the previous turn's list when the request
  // carried its segments; the cache simulation reads it segment by segment (`segmentAt`) instead.
  const seen = { ...request, tokens: request.tokens + missingTokens };
  const segment = { ...request.segments[at]!, tokens: missingTokens };
  let segments: CacheSegment[] | null = null;
  Object.defineProperty(seen, "segments", {
    enumerable: true,
    get: () => {
      segments ??= carried.of(request, at, segment);
      return segments;
    },
  });
  adjusted.set(seen, { base: request, at, segment });
  return {
    request: seen,
    diff: { ...diff, tokens: diff.tokens + missingTokens, sharedTokens: diff.sharedTokens + (shared ? missingTokens : 0) },
  };
}

/** The requests `withUnrecordedTokens` made: the request they stand for, and the one segment that differs. */
const adjusted = new WeakMap<SegmentedRequest, { base: SegmentedRequest; at: number; segment: CacheSegment }>();

/** `request.segments[i]`, without copying the segment list of a request `withUnrecordedTokens` made. */
export function segmentAt(request: SegmentedRequest, i: number): CacheSegment | undefined {
  const made = adjusted.get(request);
  if (!made) return request.segments[i];
  return i === made.at ? made.segment : made.base.segments[i];
}

/** `request.segments.length`, without copying (see `segmentAt`). */
export function segmentCount(request: SegmentedRequest): number {
  return (adjusted.get(request)?.base ?? request).segments.length;
}
