// Builds the segment list of one request and caches per-segment facts (hash, bytes, tokens) by
// content, so a message repeated across turns is rendered, hashed and tokenized once (design §3
// "never quadratic"). The cache is keyed by object identity (WeakMap), which hits whenever turns
// share message objects, and by string for string-only segments.
import { isNotRecorded } from "../model";
import type { TokenCounter } from "../tokens/counters";
import { canonicalValue, markerOf, renderCanonical, tokenTextOf, type SegmentView } from "./canonical";
import { hashStringAndUtf8Length } from "./hash";
import type { CacheLevel, CacheSegment } from "./types";

interface SegmentFacts {
  hash: number;
  bytes: number;
  tokens: number;
}

type Slot = "value" | "header" | "text-block";

/** Per-content caches of segment facts, one set per token counter. Reuse it across turns. */
export interface SegmentCache {
  byCounter: Map<string, CounterCaches>;
}

interface CounterCaches {
  objects: Record<Slot, WeakMap<object, SegmentFacts>>;
  strings: Map<string, SegmentFacts>;
  /** Facts by structural fingerprint, for fresh objects that repeat earlier content. */
  fingerprints: Map<string, SegmentFacts>;
  /** Long strings → small ids, so a fingerprint stays short (V8 caches each string's hash). */
  interned: Map<string, number>;
}

/** Strings longer than this are replaced by an interned id inside fingerprints. */
const INLINE_STRING_LIMIT = 48;

/**
 * A short key that identifies a canonical value: its structure with long strings replaced by ids.
 * Costs one Map lookup per long string (native hashing, cached per string object) instead of
 * rendering and hashing the whole value — what keeps fresh-per-turn request objects (a serializer
 * that rebuilds the body every turn) from being re-measured every turn.
 */
function fingerprint(value: unknown, interned: Map<string, number>, parts: string[]): void {
  if (typeof value === "string") {
    if (value.length <= INLINE_STRING_LIMIT) parts.push(JSON.stringify(value));
    else {
      let id = interned.get(value);
      if (id === undefined) {
        id = interned.size;
        interned.set(value, id);
      }
      parts.push(`#${id}`);
    }
  } else if (Array.isArray(value)) {
    parts.push("[");
    for (const item of value) {
      fingerprint(item, interned, parts);
      parts.push(",");
    }
    parts.push("]");
  } else if (typeof value === "object" && value !== null) {
    parts.push("{");
    for (const key of Object.keys(value)) {
      const child = (value as Record<string, unknown>)[key];
      if (child === undefined) continue;
      parts.push(JSON.stringify(key), ":");
      fingerprint(child, interned, parts);
      parts.push(",");
    }
    parts.push("}");
  } else parts.push(String(value));
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
      fingerprints: new Map(),
      interned: new Map(),
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
      let print: string | null = null;
      if (key) {
        const parts: string[] = [slot, input.textType ?? "", tokenMode];
        fingerprint(value, this.caches.interned, parts);
        print = parts.join("");
        facts = this.caches.fingerprints.get(print);
      }
      if (!facts) {
        const rendering = renderCanonical(value);
        const text = tokenMode === "json" ? rendering : tokenTextOf(value);
        const measured = hashStringAndUtf8Length(rendering);
        facts = { hash: measured.hash, bytes: measured.bytes, tokens: this.counter.count(text) };
        if (print !== null) this.caches.fingerprints.set(print, facts);
      }
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
