// Session-level driver of prefix stability: fed the turn requests in order, one at a
// time, it segments each request, diffs it against the previous one, names the cause, classifies
// cache expiry from the gap, simulates the provider cache and compares with recorded usage. It
// keeps only the previous request's segments (plus the per-content caches), so it streams.
import { compareUsage, type UsageComparison } from "../caching/compare";
import { classifyExpiry, type ExpiryReport } from "../caching/expiry";
import type { CacheRuleOverrides } from "../caching/rules";
import { createCacheSimulationState, simulateCache, type CachePrediction } from "../caching/simulate";
import { normalizeUsage, type NormalizedUsage, type UsageSource } from "../caching/usage";
import type { ApiId, ContextMessage, ServerCacheVerdict } from "../model";
import { causeInWords } from "./cause-words";
import { classifyBreak } from "./causes";
import { diffRequests } from "./diff";
import { carryOf, createSegmentCache, type MessageCarry, type SegmentCache } from "./segment-builder";
import { segmentRequest, type SegmentOptions } from "./segment-request";
import type { CacheLevel, CauseReport, PrefixCause, SegmentedRequest, TurnFacts } from "./types";
import { firstNotRecorded, inferUnrecorded, withUnrecordedTokens, type UnrecordedEstimate } from "./unrecorded";
import { readServerVerdict, type ServerAgreement } from "./server-verdict";

export interface PrefixTurnInput {
  turn: number;
  api: ApiId;
  body: Record<string, unknown>;
  /** Context messages the body was built from, with provenance (for insertion / note causes). */
  messages?: readonly ContextMessage[] | null;
  /** ISO time of the request (CA-11), null when unknown. */
  timestamp?: string | null;
  facts?: TurnFacts | null;
  /** Usage the session recorded for this request: raw with its source, or already normalised. */
  usage?: { source: UsageSource; raw: unknown } | NormalizedUsage | null;
  /** What the provider's server said about this call's prompt cache, when the file records it. */
  serverVerdict?: ServerCacheVerdict | null;
}

export interface PrefixAnalysisOptions extends Omit<SegmentOptions, "cache"> {
  /** Run the cache simulation (CA-8 … CA-20). Default true. */
  simulate?: boolean;
  /**
   * Count what the file does not hold (system prompt, tools) in the cache simulation, sized from
   * the first recorded usage (./unrecorded.ts). Default true.
   */
  inferUnrecorded?: boolean;
  cacheRules?: CacheRuleOverrides;
  /**
   * Per-content segment cache to reuse across analyses of the same session (e.g. the worker's
   * estimate pass, then its exact pass, then another branch): each distinct content is measured
   * once per token counter. Default: a fresh cache per analyzer.
   */
  segmentCache?: SegmentCache;
}

export interface PrefixTurnReport {
  turn: number;
  api: ApiId;
  model: string | null;
  bytes: number;
  sharedBytes: number;
  tokens: number;
  sharedTokens: number;
  /** Token counts are exact for the text (o200k on OpenAI shapes); false: estimates. */
  tokensExact: boolean;
  tokenizer: string;
  /** Framing constants were added (PD-3): token offsets are approximate. */
  framingApproximate: boolean;
  breakPath: string | null;
  breakSegment: string | null;
  breakByteOffsetInSegment: number | null;
  breakLevel: string | null;
  cause: PrefixCause | null;
  causeDetail: string | null;
  contributing: PrefixCause[];
  settingsChanged: string[];
  diagnosticsName: CauseReport["diagnosticsName"];
  /** Segments not recorded in the session (PD-4): compared equal to themselves, 0 tokens. */
  notRecorded: string[];
  /**
   * Tokens of what the file does not hold, inferred from recorded usage and counted by the cache
   * simulation (not by `tokens`), with the turn whose usage gave it; null when nothing is missing
   * or no usage allowed the inference (yet).
   */
  unrecorded: UnrecordedEstimate | null;
  gapMs: number | null;
  expiry: ExpiryReport | null;
  cache: CachePrediction | null;
  /** Cached tokens the simulation predicts (Gemini: possible hit tokens). */
  predictedCachedTokens: number | null;
  recordedUsage: NormalizedUsage | null;
  usageComparison: UsageComparison | null;
  /** The server's own cache verdict recorded for this call (`tools_changed`, `none`, …), null when the file records none. */
  serverVerdict: string | null;
  /** Input tokens the server says missed the cache after the divergence; null when it gives no figure. */
  serverMissedTokens: number | null;
  /** The server's verdict against the break above: agree, disagree, inconclusive, or no verdict recorded. */
  serverAgreement: ServerAgreement;
  /** The server names a change (a break it reported, whether or not the rebuilt requests show one). */
  serverBreak: boolean;
  /** The recorded usage shows a cache miss that neither the break above, an expired cache nor the server explains. */
  unexplainedMiss: boolean;
  /** The server's verdict beside ours, or the unexplained miss, in plain words; null when there is nothing to say. */
  serverNote: string | null;
}

export interface PrefixAnalyzer {
  /** Analyses the next turn of the sequence. */
  next(input: PrefixTurnInput): PrefixTurnReport;
  /** The segments of the request `next` analysed last (null before the first): for a caller that
   * reports more from the same request (its composition) without segmenting it again. */
  lastSegmented(): SegmentedRequest | null;
}

function timeOf(timestamp: string | null | undefined): number | null {
  if (!timestamp) return null;
  const ms = Date.parse(timestamp);
  return Number.isNaN(ms) ? null : ms;
}

function longestAnthropicTtl(request: SegmentedRequest): string | null {
  if (request.automaticCache?.ttl === "1h") return "1h";
  // Counted while segmenting (segment-builder.ts), so a turn does not walk its whole context here.
  const carry = carryOf(request);
  if (carry) return carry.oneHourMarkers > 0 ? "1h" : null;
  return request.segments.findIndex((s) => s.marker?.ttl === "1h") >= 0 ? "1h" : null;
}

/**
 * What the simulated request took from the previous one: the segmenter's carry, unless the
 * inferred missing tokens were put on a segment inside the carried run (the run's sums are then
 * not the simulated request's).
 */
function simulatedCarry(request: SegmentedRequest, simulated: SegmentedRequest): MessageCarry | null {
  const carry = carryOf(request) ?? null;
  if (!carry || simulated === request) return carry;
  const at = firstNotRecorded(request);
  return at >= 0 && at < carry.from ? carry : null;
}

/**
 * The cache levels of the request's not-recorded segments, in order. The walk stops at the last
 * one (`notRecorded` counts them): they sit before the messages, so a turn does not walk its
 * whole context here.
 */
function notRecordedLevels(request: SegmentedRequest): CacheLevel[] {
  const levels: CacheLevel[] = [];
  const segments = request.segments;
  for (let i = 0; i < segments.length && levels.length < request.notRecorded.length; i++) {
    const segment = segments.at(i)!;
    if (segment.notRecorded !== null) levels.push(segment.level);
  }
  return levels;
}

function isNormalized(usage: PrefixTurnInput["usage"]): usage is NormalizedUsage {
  return typeof usage === "object" && usage !== null && "totalInput" in usage;
}

/** A stateful analyzer for one request sequence (one branch of one session). */
export function createPrefixAnalyzer(options: PrefixAnalysisOptions = {}): PrefixAnalyzer {
  const { segmentCache, ...rest } = options;
  const segmentOptions: SegmentOptions = { ...rest, cache: segmentCache ?? createSegmentCache() };
  const simulation = createCacheSimulationState();
  let previous: { request: SegmentedRequest; messages: readonly ContextMessage[] | null; timeMs: number | null; recordedInput: number | null } | null = null;
  let unrecorded: UnrecordedEstimate | null = null;

  return {
    lastSegmented: () => previous?.request ?? null,
    next(input) {
      const request = segmentRequest(input.api, input.body, segmentOptions);
      const timeMs = timeOf(input.timestamp);
      const facts: TurnFacts = { ...(input.facts ?? {}) };
      if (previous && previous.request.api !== request.api) facts.modelChanged = true;
      const diff = diffRequests(previous?.request ?? null, request, segmentOptions);
      const causes = previous
        ? classifyBreak({
            previous: previous.request,
            next: request,
            diff,
            previousMessages: previous.messages,
            nextMessages: input.messages ?? null,
            facts,
          })
        : null;
      const gapMs = facts.gapMs ?? (previous && previous.timeMs !== null && timeMs !== null ? timeMs - previous.timeMs : null);
      const expiry = previous
        ? classifyExpiry({
            api: request.api,
            model: request.model,
            gapMs,
            anthropicTtl: request.api === "anthropic-messages" ? longestAnthropicTtl(previous.request) : null,
            openaiRetention: request.openaiCache.ttl ?? request.openaiCache.retention,
          })
        : null;
      const usage = input.usage ?? null;
      const recordedUsage = usage === null ? null : isNormalized(usage) ? usage : normalizeUsage(usage.source, usage.raw);
      // A compaction or another model may come with another system prompt or tool set: size the
      // missing part again from the first usage after it.
      if (facts.compactionBetween || facts.modelChanged) unrecorded = null;
      if (unrecorded === null && options.inferUnrecorded !== false) unrecorded = inferUnrecorded(input.turn, request, recordedUsage?.totalInput ?? null);
      const missing = unrecorded !== null && request.notRecorded.length > 0 ? unrecorded : null;
      const seen = missing ? withUnrecordedTokens(request, diff, missing.tokens, previous !== null) : { request, diff };
      const cache = options.simulate === false ? null : simulateCache(simulation, seen.request, previous ? seen.diff : null, timeMs, { overrides: options.cacheRules ?? {}, carry: simulatedCarry(request, seen.request) });
      const usageComparison =
        cache && recordedUsage
          ? compareUsage(cache, recordedUsage, { firstRequest: previous === null, cause: causes?.cause ?? null, expiry, sharedTokens: seen.diff.sharedTokens })
          : null;
      const server = readServerVerdict({
        verdict: input.serverVerdict,
        hasPrevious: previous !== null,
        cause: causes?.cause ?? null,
        causeWords: causes?.cause ? causeInWords(causes.cause, causes.detail) : null,
        diagnosticsName: causes?.diagnosticsName ?? null,
        breakPath: diff.breakPath,
        // Only a verdict that disagrees is worded with them: the walk over the segments is skipped without one.
        unrecordedLevels: input.serverVerdict ? notRecordedLevels(request) : [],
        usage: recordedUsage,
        previousRecordedInput: previous?.recordedInput ?? null,
        expiry,
      });
      previous = { request, messages: input.messages ?? null, timeMs, recordedInput: recordedUsage?.totalInput ?? null };
      return {
        turn: input.turn,
        api: request.api,
        model: request.model,
        bytes: diff.bytes,
        sharedBytes: diff.sharedBytes,
        tokens: diff.tokens,
        sharedTokens: diff.sharedTokens,
        tokensExact: diff.tokensExact,
        tokenizer: request.tokenizer,
        framingApproximate: request.framingApproximate,
        breakPath: diff.breakPath,
        breakSegment: diff.breakSegment,
        breakByteOffsetInSegment: diff.breakByteOffsetInSegment,
        breakLevel: diff.breakLevel,
        cause: causes?.cause ?? null,
        causeDetail: causes?.detail ?? null,
        contributing: causes?.contributing ?? [],
        settingsChanged: causes?.settingsChanged ?? [],
        diagnosticsName: causes?.diagnosticsName ?? null,
        notRecorded: request.notRecorded,
        unrecorded: missing,
        gapMs,
        expiry,
        cache,
        predictedCachedTokens: cache ? (cache.certainty === "possible" ? cache.possibleCachedTokens : cache.cacheRead) : null,
        recordedUsage,
        usageComparison,
        serverVerdict: server.serverVerdict,
        serverMissedTokens: server.serverMissedTokens,
        serverAgreement: server.serverAgreement,
        serverBreak: server.serverBreak,
        unexplainedMiss: server.unexplainedMiss,
        serverNote: server.note,
      };
    },
  };
}

/** Analyses a whole sequence of turn requests, consuming the iterable one turn at a time. */
export function analyzePrefixes(turnRequests: Iterable<PrefixTurnInput>, options: PrefixAnalysisOptions = {}): PrefixTurnReport[] {
  const analyzer = createPrefixAnalyzer(options);
  const reports: PrefixTurnReport[] = [];
  for (const input of turnRequests) reports.push(analyzer.next(input));
  return reports;
}
