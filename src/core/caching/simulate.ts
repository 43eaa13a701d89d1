// Per-turn prompt-cache simulation (CA-8 … CA-14, CA-20). Fed one segmented request at a time in
// send order; keeps a small state (Anthropic cache entries by prefix hash, GPT-5.6+ breakpoint
// entries, the previous request for the OpenAI 1024/128 rule and Gemini). Predicts cached tokens,
// cache writes and a cost in base-input-token units. Everything here is a model of the provider,
// labelled as a prediction; Gemini is only ever a "possible" hit (CA-20).
import { chainHash, hashString } from "../prefix/hash";
import type { CacheSegment, PrefixDiff, SegmentedRequest } from "../prefix/types";
import type { MessageCarry } from "../prefix/segment-builder";
import { shortenTo } from "../util/shorten";
import {
  ANTHROPIC_RULES,
  anthropicMinimum,
  GEMINI_RULES,
  geminiMinimum,
  isOpenAiBreakpointModel,
  OPENAI_READ_MULTIPLIER_DEFAULT,
  OPENAI_RULES,
  openAiCachedTokens,
  type CacheRuleOverrides,
  type ResolvedFigure,
} from "./rules";

type SimulationRule = "anthropic" | "openai-classic" | "openai-breakpoints" | "gemini-implicit";

export interface CachePrediction {
  rule: SimulationRule;
  /** "predicted" for deterministic rules; "possible" for Gemini implicit caching (CA-20). */
  certainty: "predicted" | "possible";
  totalInput: number;
  cacheRead: number;
  cacheWrite: number;
  cacheWrite5m: number;
  cacheWrite1h: number;
  uncachedInput: number;
  /** Gemini: tokens that may be served from the implicit cache. */
  possibleCachedTokens: number;
  /** Minimum cacheable length in force, with its source. */
  minimum: ResolvedFigure | { value: number; source: string; date: string | null; primary: boolean; ruleId: string; conflicts: []; warning: null };
  /** Segment label where the read prefix ends, or null. */
  readUpTo: string | null;
  breakpoints: string[];
  /** Input cost in base-input-token units: uncached × 1 + reads × read mult. + writes × write mult. */
  costUnits: number;
  readMultiplier: number;
  warnings: string[];
}

interface Entry {
  tokens: number;
  ttlMs: number;
  lastUsedMs: number | null;
}

/** Mutable state of one session's simulation. Internal to core: never sent to the UI. */
export interface CacheSimulationState {
  entries: Map<number, Entry>;
  previous: { request: SegmentedRequest; timeMs: number | null } | null;
  /** The Anthropic prefix points of the last request, extended by the next one (`anthropicPoints`). */
  points: AnthropicPoints | null;
  /**
   * When each entry expires, soonest first (a binary heap): expiring looks at the entries due
   * instead of every entry each turn. A record is pushed whenever an entry's last use or TTL is
   * set, so a record whose figures are no longer its entry's (or whose entry was dropped) is stale
   * and skipped.
   */
  expiries: ExpiryRecord[];
}

interface ExpiryRecord {
  /** lastUsedMs + ttlMs when the record was pushed. */
  at: number;
  hash: number;
  entry: Entry;
}

export function createCacheSimulationState(): CacheSimulationState {
  return { entries: new Map(), previous: null, points: null, expiries: [] };
}

export interface SimulateOptions {
  overrides?: CacheRuleOverrides;
  /** Upper bound on remembered entries (oldest dropped first). */
  maxEntries?: number;
  /** What the request took from the one before it (segment-builder.ts `carryOf`), when known. */
  carry?: MessageCarry | null;
}

/** Notes when `entry` (just set or touched) expires; an entry last used at no known time never does. */
function scheduleExpiry(state: CacheSimulationState, hash: number, entry: Entry): void {
  if (entry.lastUsedMs === null) return;
  const heap = state.expiries;
  // Stale records pile up while time stands still or TTLs are long: start again from the entries.
  if (heap.length > 4 * state.entries.size + 64) {
    heap.length = 0;
    for (const [key, value] of state.entries) if (value !== entry && value.lastUsedMs !== null) heapPush(heap, { at: value.lastUsedMs + value.ttlMs, hash: key, entry: value });
  }
  heapPush(heap, { at: entry.lastUsedMs + entry.ttlMs, hash, entry });
}

function heapPush(heap: ExpiryRecord[], record: ExpiryRecord): void {
  let i = heap.push(record) - 1;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (heap[parent]!.at <= record.at) break;
    heap[i] = heap[parent]!;
    i = parent;
  }
  heap[i] = record;
}

function heapPop(heap: ExpiryRecord[]): void {
  const last = heap.pop()!;
  if (heap.length === 0) return;
  let i = 0;
  for (;;) {
    const left = 2 * i + 1;
    if (left >= heap.length) break;
    const right = left + 1;
    const child = right < heap.length && heap[right]!.at < heap[left]!.at ? right : left;
    if (heap[child]!.at >= last.at) break;
    heap[i] = heap[child]!;
    i = child;
  }
  heap[i] = last;
}

/** Drops every entry whose TTL has run out at `timeMs` (unused for longer than its TTL). */
function expireEntries(state: CacheSimulationState, timeMs: number | null): void {
  if (timeMs === null) return;
  const heap = state.expiries;
  // `timeMs - lastUsedMs > ttlMs` is `lastUsedMs + ttlMs < timeMs`: the records due come first.
  while (heap.length > 0 && heap[0]!.at < timeMs) {
    const { at, hash, entry } = heap[0]!;
    heapPop(heap);
    if (state.entries.get(hash) === entry && entry.lastUsedMs !== null && entry.lastUsedMs + entry.ttlMs === at) state.entries.delete(hash);
  }
}

function trimEntries(state: CacheSimulationState, max: number): void {
  while (state.entries.size > max) {
    const oldest = state.entries.keys().next();
    if (oldest.done) break;
    state.entries.delete(oldest.value);
  }
}

/** Prefix hash and cumulative tokens at the end of every segment (CA-8). Settings count from the messages level. */
function prefixPoints(request: SegmentedRequest, settingsFromStart: boolean): { hashes: number[]; tokens: number[] } {
  const settingsHash = hashString(JSON.stringify(request.settings));
  let hash = hashString(`${request.api}\u0000${request.model ?? ""}`);
  if (settingsFromStart) hash = chainHash(hash, settingsHash);
  let settingsAdded = settingsFromStart;
  let tokens = 0;
  const hashes: number[] = [];
  const cumulative: number[] = [];
  for (const segment of request.segments) {
    if (!settingsAdded && segment.level === "messages") {
      hash = chainHash(hash, settingsHash);
      settingsAdded = true;
    }
    hash = chainHash(hash, segment.hash);
    tokens += segment.tokens;
    hashes.push(hash);
    cumulative.push(tokens);
  }
  return { hashes, tokens: cumulative };
}

function finish(
  base: Omit<CachePrediction, "uncachedInput" | "costUnits">,
  writeMultipliers: { w5m: number; w1h: number },
): CachePrediction {
  const uncachedInput = Math.max(0, base.totalInput - base.cacheRead - base.cacheWrite);
  const costUnits =
    uncachedInput + base.cacheRead * base.readMultiplier + base.cacheWrite5m * writeMultipliers.w5m + base.cacheWrite1h * writeMultipliers.w1h;
  // The base is each simulator's own fresh object: completed in place (same keys, same order)
  // instead of copied, since every turn of a session makes one.
  const prediction = base as CachePrediction;
  prediction.uncachedInput = uncachedInput;
  prediction.costUnits = costUnits;
  return prediction;
}

/**
 * An Anthropic request's prefix points (`prefixPoints`), its blocks (segment indices) and its
 * marked blocks, with what they were computed from: the next request of a session that took its
 * leading messages from this one (`carry`) keeps them up to there and computes only the rest.
 */
interface AnthropicPoints {
  carryId: number;
  from: number;
  start: string;
  head: CacheSegment[];
  hashes: number[];
  tokens: number[];
  blocks: number[];
  markers: { block: number; ttlMs: number }[];
}

function sameHead(head: readonly CacheSegment[], request: SegmentedRequest): boolean {
  for (let i = 0; i < head.length; i++) {
    const a = head[i]!;
    const b = request.segments.at(i)!;
    if (a === b) continue;
    if (a.hash !== b.hash || a.tokens !== b.tokens || a.level !== b.level || a.isBlock !== b.isBlock || a.marker?.ttl !== b.marker?.ttl || (a.marker === null) !== (b.marker === null)) return false;
  }
  return true;
}

function markerTtlMs(segment: CacheSegment): number {
  return segment.marker!.ttl === "1h" ? ANTHROPIC_RULES.ttl1hMs.value : ANTHROPIC_RULES.ttl5mMs.value;
}

/** The points of `request`, extending the last request's when it took its leading messages from it. */
function anthropicPoints(state: CacheSimulationState, request: SegmentedRequest, carry: MessageCarry | null): AnthropicPoints {
  const count = request.segments.length;
  const start = `${request.api}\u0000${request.model ?? ""}\u0000${JSON.stringify(request.settings)}`;
  const last = state.points;
  let kept = 0;
  let points: AnthropicPoints;
  if (last && carry && carry.previousId === last.carryId && carry.from === last.from && last.start === start && sameHead(last.head, request)) {
    points = last;
    kept = carry.from + carry.count;
  } else {
    const head: CacheSegment[] = [];
    for (let i = 0; carry && i < carry.from; i++) head.push(request.segments.at(i)!);
    points = { carryId: 0, from: carry?.from ?? -1, start, head, hashes: [], tokens: [], blocks: [], markers: [] };
  }
  points.carryId = carry?.id ?? 0;
  shortenTo(points.hashes, kept);
  shortenTo(points.tokens, kept);
  const blocks = points.blocks;
  while (blocks.length > 0 && blocks[blocks.length - 1]! >= kept) blocks.pop();
  const markers = points.markers;
  while (markers.length > 0 && markers[markers.length - 1]!.block >= blocks.length) markers.pop();
  // The chain of `prefixPoints` (settings count from the messages level) from the last kept point.
  let hash = kept > 0 ? points.hashes[kept - 1]! : hashString(`${request.api}\u0000${request.model ?? ""}`);
  let total = kept > 0 ? points.tokens[kept - 1]! : 0;
  let settingsAdded = false;
  for (let i = 0; i < kept && !settingsAdded; i++) settingsAdded = request.segments.at(i)!.level === "messages";
  const settingsHash = settingsAdded ? 0 : hashString(JSON.stringify(request.settings));
  for (let i = kept; i < count; i++) {
    const segment = request.segments.at(i)!;
    if (!settingsAdded && segment.level === "messages") {
      hash = chainHash(hash, settingsHash);
      settingsAdded = true;
    }
    hash = chainHash(hash, segment.hash);
    total += segment.tokens;
    points.hashes.push(hash);
    points.tokens.push(total);
    if (segment.isBlock) {
      if (segment.marker) markers.push({ block: blocks.length, ttlMs: markerTtlMs(segment) });
      blocks.push(i);
    }
  }
  state.points = points;
  return points;
}

/** `breakpoints` by block, ascending: the list itself when it already is. */
function inBlockOrder(breakpoints: readonly { block: number; ttlMs: number }[]): readonly { block: number; ttlMs: number }[] {
  for (let i = 1; i < breakpoints.length; i++) {
    if (breakpoints[i]!.block < breakpoints[i - 1]!.block) return [...breakpoints].sort((a, b) => a.block - b.block);
  }
  return breakpoints;
}

/** CA-9, CA-10: Anthropic breakpoints, 20-block lookback, minimums, TTLs. */
function simulateAnthropic(state: CacheSimulationState, request: SegmentedRequest, timeMs: number | null, options: SimulateOptions): CachePrediction {
  const warnings: string[] = [];
  const minimum = anthropicMinimum(request.model, options.overrides);
  if (minimum.warning) warnings.push(minimum.warning);
  const { hashes, tokens, blocks, markers } = anthropicPoints(state, request, options.carry ?? null);
  // Breakpoints as block positions: explicit markers, or the last block in automatic mode (CA-1).
  // The markers are the points' own list (kept for the next request): copied only to be added to.
  let breakpoints: readonly { block: number; ttlMs: number }[] = markers;
  if (request.automaticCache && blocks.length > 0) {
    const ttlMs = request.automaticCache.ttl === "1h" ? ANTHROPIC_RULES.ttl1hMs.value : ANTHROPIC_RULES.ttl5mMs.value;
    if (!breakpoints.some((bp) => bp.block === blocks.length - 1)) breakpoints = [...markers, { block: blocks.length - 1, ttlMs }];
  }
  if (breakpoints.length > ANTHROPIC_RULES.maxBreakpoints.value) {
    warnings.push(`${breakpoints.length} cache breakpoints: the API rejects more than ${ANTHROPIC_RULES.maxBreakpoints.value} (HTTP 400, CA-2)`);
    breakpoints = breakpoints.slice(0, ANTHROPIC_RULES.maxBreakpoints.value);
  }

  // Read (CA-9): per breakpoint, the nearest cached boundary within the lookback window.
  let cacheRead = 0;
  let readEntry: Entry | null = null;
  let readHash = 0;
  let readUpTo: string | null = null;
  const lookback = ANTHROPIC_RULES.lookbackBlocks.value;
  for (const bp of breakpoints) {
    for (let b = bp.block; b >= 0 && b >= bp.block - lookback; b--) {
      const segmentIndex = blocks[b]!;
      const entry = state.entries.get(hashes[segmentIndex]!);
      if (entry) {
        if (tokens[segmentIndex]! > cacheRead) {
          cacheRead = tokens[segmentIndex]!;
          readEntry = entry;
          readHash = hashes[segmentIndex]!;
          readUpTo = request.segments.at(segmentIndex)!.label;
        }
        break;
      }
    }
  }
  if (readEntry) {
    readEntry.lastUsedMs = timeMs;
    scheduleExpiry(state, readHash, readEntry);
  }

  // Write (CA-10): every breakpoint at or above the minimum that is not cached yet.
  let cacheWrite5m = 0;
  let cacheWrite1h = 0;
  let writtenUpTo = cacheRead;
  // Markers come in block order and the automatic breakpoint is the last block, so the list is
  // sorted already: it is copied and sorted only when it is not, instead of every turn.
  for (const bp of inBlockOrder(breakpoints)) {
    const segmentIndex = blocks[bp.block]!;
    const prefixTokens = tokens[segmentIndex]!;
    if (prefixTokens < minimum.value) continue;
    const hash = hashes[segmentIndex]!;
    const existing = state.entries.get(hash);
    if (existing) {
      existing.lastUsedMs = timeMs;
      existing.ttlMs = Math.max(existing.ttlMs, bp.ttlMs);
      scheduleExpiry(state, hash, existing);
    } else {
      const entry = { tokens: prefixTokens, ttlMs: bp.ttlMs, lastUsedMs: timeMs };
      state.entries.set(hash, entry);
      scheduleExpiry(state, hash, entry);
    }
    if (prefixTokens > writtenUpTo) {
      const portion = prefixTokens - writtenUpTo;
      if (bp.ttlMs === ANTHROPIC_RULES.ttl1hMs.value) cacheWrite1h += portion;
      else cacheWrite5m += portion;
      writtenUpTo = prefixTokens;
    }
  }
  if (breakpoints.length === 0) warnings.push("No cache marker: nothing is cached (CA-1)");
  return finish(
    {
      rule: "anthropic",
      certainty: "predicted",
      totalInput: request.tokens,
      cacheRead,
      cacheWrite: cacheWrite5m + cacheWrite1h,
      cacheWrite5m,
      cacheWrite1h,
      possibleCachedTokens: 0,
      minimum,
      readUpTo,
      breakpoints: breakpoints.map((bp) => request.segments.at(blocks[bp.block]!)!.label),
      readMultiplier: ANTHROPIC_RULES.readMultiplier.value,
      warnings,
    },
    ANTHROPIC_WRITE_MULTIPLIERS,
  );
}

/** Anthropic's write prices over the input price (the same every turn). */
const ANTHROPIC_WRITE_MULTIPLIERS = { w5m: ANTHROPIC_RULES.write5mMultiplier.value, w1h: ANTHROPIC_RULES.write1hMultiplier.value };

function openAiMinimum(value: number, ruleId: string): CachePrediction["minimum"] {
  return { value, source: "OpenAI prompt-caching docs", date: null, primary: true, ruleId, conflicts: [], warning: null };
}

/** CA-13: exact prefix with the previous request, ≥ 1024 tokens, counted in 128-token blocks. */
function simulateOpenAiClassic(
  state: CacheSimulationState,
  request: SegmentedRequest,
  diff: PrefixDiff | null,
  timeMs: number | null,
  options: SimulateOptions,
): CachePrediction {
  const warnings: string[] = [];
  const previous = state.previous;
  let common = 0;
  if (previous && diff && previous.request.model === request.model && JSON.stringify(previous.request.settings) === JSON.stringify(request.settings)) {
    const retentionMs = request.openaiCache.retention === "24h" ? OPENAI_RULES.extendedRetentionMs.value : OPENAI_RULES.inMemoryIdleMaxMs.value;
    const gap = timeMs !== null && previous.timeMs !== null ? timeMs - previous.timeMs : null;
    const cacheable = previous.request.tokens >= OPENAI_RULES.minimumTokens.value;
    if (gap !== null && gap > retentionMs) warnings.push("Gap longer than the retention: the earlier prefix is presumed evicted (CA-13)");
    else if (cacheable) common = diff.sharedTokens;
  }
  const cacheRead = openAiCachedTokens(common);
  const readMultiplier = options.overrides?.readMultiplierByModel?.[request.model ?? ""] ?? OPENAI_READ_MULTIPLIER_DEFAULT.value;
  return finish(
    {
      rule: "openai-classic",
      certainty: "predicted",
      totalInput: request.tokens,
      cacheRead,
      cacheWrite: 0,
      cacheWrite5m: 0,
      cacheWrite1h: 0,
      possibleCachedTokens: 0,
      minimum: openAiMinimum(OPENAI_RULES.minimumTokens.value, "CA-13"),
      readUpTo: null,
      breakpoints: [],
      readMultiplier,
      warnings,
    },
    { w5m: 1, w1h: 1 },
  );
}

/** CA-14: GPT-5.6+ breakpoints — exact matches at earlier breakpoints only, writes at 1.25×. */
function simulateOpenAiBreakpoints(state: CacheSimulationState, request: SegmentedRequest, timeMs: number | null, options: SimulateOptions): CachePrediction {
  const warnings: string[] = [];
  const { hashes, tokens } = prefixPoints(request, true);
  const segments = request.segments;
  // Message ends: the last segment of each message-level group.
  const messageEnds: number[] = [];
  for (let i = 0; i < segments.length; i++) {
    const here = segments.at(i)!;
    const after = segments.at(i + 1);
    if (here.messageIndex !== null && (!after || after.messageIndex !== here.messageIndex)) messageEnds.push(i);
  }
  const explicit: number[] = [];
  for (let i = 0; i < segments.length; i++) if (segments.at(i)!.marker?.kind === "prompt_cache_breakpoint") explicit.push(i);
  const breakpointSet = new Set<number>(explicit.slice(-3));
  if (request.openaiCache.mode !== "explicit") {
    // Implicit breakpoint: end of the newest eligible (non-assistant) message.
    for (let k = messageEnds.length - 1; k >= 0; k--) {
      const end = messageEnds[k]!;
      const messageIndex = segments.at(end)!.messageIndex;
      const header = segments.at(segments.findIndex((s) => s.messageIndex === messageIndex && s.view === "header"));
      const role = header && typeof header.source === "object" && header.source !== null ? (header.source as { role?: unknown }).role : undefined;
      if (role !== "assistant") {
        breakpointSet.add(end);
        break;
      }
    }
  } else if (explicit.length === 0) warnings.push("Explicit mode without breakpoints: nothing is cached (CA-14)");
  const breakpoints = [...breakpointSet].sort((a, b) => a - b).slice(-OPENAI_RULES.v56MaxBreakpointsWritten.value);
  let cacheRead = 0;
  let readUpTo: string | null = null;
  for (let i = 0; i < segments.length; i++) {
    const entry = state.entries.get(hashes[i]!);
    if (entry && tokens[i]! > cacheRead) {
      cacheRead = tokens[i]!;
      readUpTo = segments.at(i)!.label;
      entry.lastUsedMs = timeMs;
      scheduleExpiry(state, hashes[i]!, entry);
    }
  }
  let writtenUpTo = cacheRead;
  let cacheWrite = 0;
  for (const i of breakpoints) {
    if (tokens[i]! < OPENAI_RULES.v56MinimumTokens.value) continue;
    if (!state.entries.has(hashes[i]!)) {
      const entry = { tokens: tokens[i]!, ttlMs: OPENAI_RULES.v56TtlMs.value, lastUsedMs: timeMs };
      state.entries.set(hashes[i]!, entry);
      scheduleExpiry(state, hashes[i]!, entry);
    }
    if (tokens[i]! > writtenUpTo) {
      cacheWrite += tokens[i]! - writtenUpTo;
      writtenUpTo = tokens[i]!;
    }
  }
  trimEntries(state, OPENAI_RULES.v56MatchedBreakpoints.value);
  const readMultiplier = options.overrides?.readMultiplierByModel?.[request.model ?? ""] ?? OPENAI_READ_MULTIPLIER_DEFAULT.value;
  return finish(
    {
      rule: "openai-breakpoints",
      certainty: "predicted",
      totalInput: request.tokens,
      cacheRead,
      cacheWrite,
      cacheWrite5m: cacheWrite,
      cacheWrite1h: 0,
      possibleCachedTokens: 0,
      minimum: openAiMinimum(OPENAI_RULES.v56MinimumTokens.value, "CA-14"),
      readUpTo,
      breakpoints: breakpoints.map((i) => segments.at(i)!.label),
      readMultiplier,
      warnings,
    },
    { w5m: OPENAI_RULES.v56WriteMultiplier.value, w1h: OPENAI_RULES.v56WriteMultiplier.value },
  );
}

/** CA-18, CA-20: implicit caching is only ever a possible hit above the model minimum. */
function simulateGemini(state: CacheSimulationState, request: SegmentedRequest, diff: PrefixDiff | null, options: SimulateOptions): CachePrediction {
  const minimum = geminiMinimum(request.model, options.overrides);
  const warnings = minimum.warning ? [minimum.warning] : [];
  const previous = state.previous;
  const sameModel = previous !== null && previous.request.model === request.model;
  const common = sameModel && diff ? diff.sharedTokens : 0;
  return finish(
    {
      rule: "gemini-implicit",
      certainty: "possible",
      totalInput: request.tokens,
      cacheRead: 0,
      cacheWrite: 0,
      cacheWrite5m: 0,
      cacheWrite1h: 0,
      possibleCachedTokens: common >= minimum.value ? common : 0,
      minimum,
      readUpTo: null,
      breakpoints: [],
      readMultiplier: GEMINI_RULES.implicitReadMultiplier.value,
      warnings,
    },
    { w5m: 1, w1h: 1 },
  );
}

/**
 * Simulates one request. `diff` is its prefix diff against the previous request of the same
 * sequence (null on the first). `timeMs` is the request time (null: no expiry is applied).
 */
export function simulateCache(
  state: CacheSimulationState,
  request: SegmentedRequest,
  diff: PrefixDiff | null,
  timeMs: number | null,
  options: SimulateOptions = {},
): CachePrediction {
  expireEntries(state, timeMs);
  let prediction: CachePrediction;
  switch (request.api) {
    case "anthropic-messages":
      prediction = simulateAnthropic(state, request, timeMs, options);
      break;
    case "openai-completions":
    case "openai-responses":
      prediction = isOpenAiBreakpointModel(request.model)
        ? simulateOpenAiBreakpoints(state, request, timeMs, options)
        : simulateOpenAiClassic(state, request, diff, timeMs, options);
      break;
    case "google-generative-ai":
      prediction = simulateGemini(state, request, diff, options);
      break;
  }
  trimEntries(state, options.maxEntries ?? 4096);
  state.previous = { request, timeMs };
  return prediction;
}
