// The part of a request the session file does not hold (the system prompt and the tool
// definitions of most agents) has no tokens in a rebuilt request, but the provider counted it.
// The recorded usage of the first turn that has one tells how much: its recorded prompt tokens
// minus the rebuilt request's tokens. That part is the stable start of every request of the
// session, so the figure is applied to every turn from there on; the cache simulation counts it,
// which is what lets predicted cached tokens be compared with the recorded cache reads.
import type { PrefixDiff, SegmentedRequest } from "./types";

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
 * The request and its diff as the provider saw them: the first not-recorded segment carries the
 * missing tokens. The segment list is the request's with that one segment replaced, sharing
 * every other part with it (segment-list.ts `with`), so a turn costs nothing here whatever its
 * context. The missing part is shared with the previous request whenever the shared prefix
 * reaches past it.
 */
export function withUnrecordedTokens(
  request: SegmentedRequest,
  diff: PrefixDiff,
  missingTokens: number,
  hasPrevious: boolean,
): { request: SegmentedRequest; diff: PrefixDiff } {
  const at = firstNotRecorded(request);
  if (at < 0 || missingTokens <= 0) return { request, diff };
  const shared = hasPrevious && (diff.breakSegmentIndex === null || diff.breakSegmentIndex > at);
  const segment = { ...request.segments.at(at)!, tokens: missingTokens };
  return {
    request: { ...request, tokens: request.tokens + missingTokens, segments: request.segments.with(at, segment) },
    diff: { ...diff, tokens: diff.tokens + missingTokens, sharedTokens: diff.sharedTokens + (shared ? missingTokens : 0) },
  };
}

/** Index of the request's first not-recorded segment, else −1. */
export function firstNotRecorded(request: SegmentedRequest): number {
  return request.segments.findIndex((segment) => segment.notRecorded !== null);
}
