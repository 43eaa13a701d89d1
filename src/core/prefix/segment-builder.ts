// Builds the segment list of one request and caches per-segment facts (hash, bytes, tokens) by
// content, so a message repeated across turns is rendered, hashed and tokenized once (design §3
// "never quadratic"). The cache is keyed by object identity (WeakMap), which hits whenever turns
// share message objects, and by string for string-only segments.
import { isNotRecorded } from "../model";
import type { TokenCounter } from "../tokens/counters";
import { utf8ByteLength } from "../tokens/utf8";
import { canonicalValue, markerOf, renderCanonical, tokenTextOf, type SegmentView } from "./canonical";
import { hashString } from "./hash";
import type { CacheLevel, CacheSegment } from "./types";

interface SegmentFacts {
  hash: number;
  bytes: number;
  tokens: number;
}

type Slot = "value" | "header" | "text-block";

/** Per-content caches of segment facts, one set per token counter. Reuse it across turns. */
export interface SegmentCache {
  byCounter: Map<string, { objects: Record<Slot, WeakMap<object, SegmentFacts>>; strings: Map<string, SegmentFacts> }>;
}

const STRING_CACHE_LIMIT = 256;

export function createSegmentCache(): SegmentCache {
  return { byCounter: new Map() };
}

function cachesFor(cache: SegmentCache, counter: TokenCounter) {
  let entry = cache.byCounter.get(counter.id);
  if (!entry) {
    entry = {
      objects: { value: new WeakMap(), header: new WeakMap(), "text-block": new WeakMap() },
      strings: new Map(),
    };
    cache.byCounter.set(counter.id, entry);
  }
  return entry;
}

export interface SegmentInput {
  label: string;
  level: CacheLevel;
  messageIndex: number | null;
  /** The body fragment the segment is derived from. */
  source: unknown;
  view: SegmentView;
  textType?: string;
  /** Object whose identity keys the cache (defaults to `source` when it is an object). */
  cacheKey?: object | null;
  isBlock?: boolean;
  framingTokens?: number;
  tokenMode?: "text" | "json";
  /** Label used for a `$notRecorded` source (PD-4). */
  notRecordedLabel?: string;
}

/** Collects the segments of one request. */
export class SegmentListBuilder {
  readonly segments: CacheSegment[] = [];
  bytes = 0;
  tokens = 0;
  readonly notRecorded: string[] = [];
  private readonly caches: ReturnType<typeof cachesFor>;

  constructor(
    private readonly counter: TokenCounter,
    cache: SegmentCache,
  ) {
    this.caches = cachesFor(cache, counter);
  }

  add(input: SegmentInput): CacheSegment {
    const view = input.view;
    const tokenMode = input.tokenMode ?? "text";
    const framing = input.framingTokens ?? 0;
    const slot: Slot = view === "header" ? "header" : view === "text-block" ? "text-block" : "value";
    const key =
      input.cacheKey !== undefined ? input.cacheKey : typeof input.source === "object" && input.source !== null ? input.source : null;
    let facts: SegmentFacts | undefined;
    const stringKey = key === null && typeof input.source === "string" ? `${slot}\u0000${input.textType ?? ""}\u0000${input.source}` : null;
    if (key) facts = this.caches.objects[slot].get(key);
    else if (stringKey !== null) facts = this.caches.strings.get(stringKey);
    if (!facts) {
      const value = canonicalValue(input.source, view, input.textType);
      const rendering = renderCanonical(value);
      const text = tokenMode === "json" ? rendering : tokenTextOf(value);
      facts = { hash: hashString(rendering), bytes: utf8ByteLength(rendering), tokens: this.counter.count(text) };
      if (key) this.caches.objects[slot].set(key, facts);
      else if (stringKey !== null) {
        if (this.caches.strings.size >= STRING_CACHE_LIMIT) this.caches.strings.clear();
        this.caches.strings.set(stringKey, facts);
      }
    }
    const notRecorded = isNotRecorded(input.source) ? input.notRecordedLabel ?? input.label : null;
    const segment: CacheSegment = {
      label: input.label,
      level: input.level,
      messageIndex: input.messageIndex,
      hash: facts.hash,
      bytes: facts.bytes,
      tokens: notRecorded ? 0 : facts.tokens + framing,
      framingTokens: notRecorded ? 0 : framing,
      marker: view === "text-block" ? null : markerOf(input.source),
      isBlock: input.isBlock ?? false,
      notRecorded,
      source: input.source,
      view,
      textType: input.textType ?? "text",
      tokenMode,
    };
    if (notRecorded) this.notRecorded.push(notRecorded);
    this.segments.push(segment);
    this.bytes += segment.bytes;
    this.tokens += segment.tokens;
    return segment;
  }
}

/** The canonical value of a segment (markers removed, string content as a block). */
export function segmentValue(segment: CacheSegment): unknown {
  return canonicalValue(segment.source, segment.view, segment.textType);
}
