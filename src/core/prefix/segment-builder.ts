// Builds the segment list of one request and caches per-segment facts (hash, bytes, tokens) by
// content, so a message repeated across turns is rendered, hashed and tokenized once (design §3
// "never quadratic"). The cache is keyed by object identity (WeakMap), which hits whenever turns
// share message objects, and by string for string-only segments. The leading messages the previous
// request also had come with their segments in one step (`carryMessages`); a message a request cut
// from that run that comes back at the same place re-adds its segments as they were
// (`reuseMessage`). Hash and bytes do
// not depend on the token counter, so a second pass with another counter (exact counts after a
// collecting pass) only counts: it never hashes the same content again.
import { isNotRecorded } from "../model";
import type { TokenCounter } from "../tokens/counters";
import { isStoredText } from "../text/storedText";
import { isObject } from "../util/is-object";
import { shortenTo } from "../util/shorten";
import { canonicalValue, countTokenText, markerOf, renderCanonical, unmarkedFormOf, type SegmentView } from "./canonical";
import { hashJsonRendering, hashStringAndUtf8Length } from "./hash";
import { sharedHeadWith } from "../util/list-lineage";
import { sameContent } from "./same-content";
import { SegmentList, SegmentStore } from "./segment-list";
import type { CacheLevel, CacheSegment } from "./types";

/**
 * What a segment's content measures: its rendering's hash and bytes, the same for every token
 * counter, and its tokens for the last two counters that asked (a whole-session pass with
 * exact counts walks twice, first with a collecting counter, then with the counts; the browser
 * keeps an estimate and an exact counter). A third counter counts again and takes the older slot.
 */
interface SegmentFacts {
  hash: number;
  bytes: number;
  counterA: string | null;
  tokensA: number;
  counterB: string | null;
  tokensB: number;
}

type Slot = "value" | "header" | "text-block";

/**
 * Per-content caches of segment facts, shared by every token counter, and the segments each
 * message produced, per counter (their token figures are the counter's). Reuse it across turns
 * and across passes.
 */
export interface SegmentCache {
  facts: FactCaches;
  messagesByCounter: Map<string, WeakMap<object, MessageSegments>>;
  /** The message part of the last request segmented, per counter and wire shape (`carryMessages`). */
  runs: Map<string, MessageRun>;
  /**
   * How many messages' segments were kept apart for `reuseMessage`: only the messages a request
   * cut from the run (they may come back at the same place), not every message of every turn.
   */
  memoized: number;
  /**
   * The segments before the message part (tools, system) of the last request segmented, per
   * counter: the next request's that have the same content are these very objects (`add`).
   */
  heads: Map<string, readonly CacheSegment[]>;
}

/**
 * The message part of the last request of one shape segmented with one counter: its messages
 * from `first`, its segments, and after each message the running count of segments, bytes, tokens
 * and not-recorded labels. The next request of a session repeats most of it: its leading messages
 * that are the same objects at the same places take their segments from here in one copy, so a
 * turn costs its new messages, not its whole context (design §3 "never quadratic").
 */
interface MessageRun {
  id: number;
  shape: string;
  first: number;
  /** The message list of the last request (`list`): the next one's may record that it begins with it. */
  list: readonly unknown[] | null;
  messages: unknown[];
  /** The message segments, which the requests' segment lists read their message part from. */
  segments: SegmentStore<CacheSegment>;
  labels: string[];
  segmentEnds: number[];
  byteEnds: number[];
  tokenEnds: number[];
  labelEnds: number[];
  oneHourEnds: number[];
}

/**
 * What a request took from the request segmented before it (same cache, counter and shape): the
 * segments from `from` to `from + count` are that request's, the very objects at the same
 * indices, with these bytes and tokens. `previousId` is that request's `id`.
 */
export interface MessageCarry {
  id: number;
  previousId: number;
  from: number;
  count: number;
  bytes: number;
  tokens: number;
  /** Segments of the whole request whose cache marker asks for a one-hour TTL. */
  oneHourMarkers: number;
}

/** The carry of each segmented request, by request (spread copies are looked up by their original). */
const carries = new WeakMap<object, MessageCarry>();

let nextRunId = 1;

/** What `request` took from the request before it, or undefined when it took nothing. */
export function carryOf(request: object): MessageCarry | undefined {
  return carries.get(request);
}

/** Records `carry` for a request (segmentRequest, once the request object exists). */
export function setCarry(request: object, carry: MessageCarry | null): void {
  if (carry) carries.set(request, carry);
}

interface FactCaches {
  objects: Record<Slot, WeakMap<object, SegmentFacts>>;
  strings: Map<string, SegmentFacts>;
  /**
   * Facts by structural fingerprint (`fingerprintKey`), for fresh objects that repeat earlier
   * content, each with the fingerprint's check: a key whose check differs is another value.
   */
  fingerprints: Map<number, { check: number; facts: SegmentFacts }>;
  /** The fingerprint being taken (`fingerprintKey`). */
  lanes: PrintLanes;
  /** How often fingerprints of each slot found earlier content (`worthPrinting`). */
  printYield: Record<Slot, PrintYield>;
  /** Long strings → small ids, so a fingerprint stays short (V8 caches each string's hash). */
  interned: Map<string, number>;
}

/** The segments one message produced at one position of one wire shape. */
interface MessageSegments {
  shape: string;
  index: number;
  level: CacheLevel;
  segments: CacheSegment[];
  bytes: number;
  tokens: number;
  notRecorded: string[];
}

/** Strings longer than this are replaced by an interned id inside fingerprints. */
const INLINE_STRING_LIMIT = 48;

/**
 * The running state of one fingerprint (`fingerprint`): three 32-bit lanes. Owned by the cache and
 * reset for each value, so taking a fingerprint allocates nothing.
 */
interface PrintLanes {
  a: number;
  b: number;
  c: number;
}

// Tags that begin each part of a fingerprint, so that no two different values feed the same units.
const TAG_SHORT = 1;
const TAG_LONG = 2;
const TAG_STORED = 3;
const TAG_ARRAY = 4;
const TAG_OBJECT = 5;
const TAG_END = 6;
const TAG_OTHER = 7;
const TAG_INTEGER = 8;

function mix(lanes: PrintLanes, unit: number): void {
  lanes.a = Math.imul(lanes.a ^ unit, 2654435761);
  lanes.b = Math.imul(lanes.b ^ unit, 1597334677);
  lanes.c = Math.imul(lanes.c ^ unit, 2246822519);
}

function mixString(lanes: PrintLanes, text: string): void {
  mix(lanes, text.length);
  for (let i = 0; i < text.length; i++) mix(lanes, text.charCodeAt(i));
}

/**
 * A number that identifies a canonical value: the hash of its structure with long strings replaced
 * by ids (`lanes.c` is a check kept beside it). Costs one Map lookup per long string (native
 * hashing, cached per string object) instead of rendering and hashing the whole value — what keeps
 * fresh-per-turn request objects (a serializer that rebuilds the body every turn) from being
 * re-measured every turn — and builds no string: every new message of every turn takes one.
 */
function fingerprint(value: unknown, interned: Map<string, number>, lanes: PrintLanes): void {
  if (isStoredText(value)) {
    // A text kept as bytes: its place in its store is its identity (no characters to look at).
    mix(lanes, TAG_STORED);
    mix(lanes, value.store);
    mix(lanes, value.chunk);
    mix(lanes, value.start >>> 0);
    mix(lanes, Math.floor(value.start / 4294967296));
    return;
  }
  if (typeof value === "string") {
    if (value.length <= INLINE_STRING_LIMIT) {
      mix(lanes, TAG_SHORT);
      mixString(lanes, value);
    } else {
      let id = interned.get(value);
      if (id === undefined) {
        id = interned.size;
        interned.set(value, id);
      }
      mix(lanes, TAG_LONG);
      mix(lanes, id);
    }
  } else if (Array.isArray(value)) {
    mix(lanes, TAG_ARRAY);
    for (const item of value) fingerprint(item, interned, lanes);
    mix(lanes, TAG_END);
  } else if (typeof value === "object" && value !== null) {
    mix(lanes, TAG_OBJECT);
    for (const key in value) {
      if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
      const child = (value as Record<string, unknown>)[key];
      if (child === undefined) continue;
      mixString(lanes, key);
      fingerprint(child, interned, lanes);
    }
    mix(lanes, TAG_END);
  } else if (typeof value === "number" && Number.isInteger(value) && value >= -2147483648 && value <= 2147483647) {
    mix(lanes, TAG_INTEGER);
    mix(lanes, value);
  } else {
    mix(lanes, TAG_OTHER);
    mixString(lanes, String(value));
  }
}

/** The fingerprint of `value` as a segment of this slot, text type and token mode, as a Map key; `lanes.c` holds its check. */
function fingerprintKey(value: unknown, slot: string, textType: string, tokenMode: string, interned: Map<string, number>, lanes: PrintLanes): number {
  lanes.a = 0xdeadbeef;
  lanes.b = 0x41c6ce57;
  lanes.c = 0x2545f491;
  mixString(lanes, slot);
  mixString(lanes, textType);
  mixString(lanes, tokenMode);
  fingerprint(value, interned, lanes);
  let h1 = lanes.a;
  let h2 = lanes.b;
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/**
 * The fingerprints of one slot taken lately and how many found earlier content. A fingerprint
 * pays only when it finds the content (a fresh copy of an earlier message): else it is a second
 * walk of a value the hash walks anyway. Sessions whose new segments are new content (the
 * messages of most agents' walks are the same objects from turn to turn, found by identity) take
 * a fingerprint for one new value in `PRINT_SAMPLE` only; the facts are the same either way.
 */
interface PrintYield {
  tries: number;
  hits: number;
  skipped: number;
}

/** Fingerprints a slot takes before its yield decides; the counts are halved every `PRINT_WINDOW` tries. */
const PRINT_LEARNING = 256;
const PRINT_WINDOW = 1024;
/** Below one hit in this many tries, fingerprints are taken for one new value in `PRINT_SAMPLE`. */
const PRINT_HIT_RATIO = 4;
const PRINT_SAMPLE = 8;

function newPrintYield(): PrintYield {
  return { tries: 0, hits: 0, skipped: 0 };
}

function worthPrinting(yieldOf: PrintYield): boolean {
  if (yieldOf.tries < PRINT_LEARNING || yieldOf.hits * PRINT_HIT_RATIO >= yieldOf.tries) return true;
  return yieldOf.skipped++ % PRINT_SAMPLE === 0;
}

function countPrint(yieldOf: PrintYield, hit: boolean): void {
  yieldOf.tries++;
  if (hit) yieldOf.hits++;
  if (yieldOf.tries >= PRINT_WINDOW + PRINT_LEARNING) {
    yieldOf.tries >>= 1;
    yieldOf.hits >>= 1;
  }
}

const STRING_CACHE_LIMIT = 256;

export function createSegmentCache(): SegmentCache {
  return {
    facts: {
      objects: { value: new WeakMap(), header: new WeakMap(), "text-block": new WeakMap() },
      strings: new Map(),
      fingerprints: new Map(),
      interned: new Map(),
      lanes: { a: 0, b: 0, c: 0 },
      printYield: { value: newPrintYield(), header: newPrintYield(), "text-block": newPrintYield() },
    },
    messagesByCounter: new Map(),
    runs: new Map(),
    memoized: 0,
    heads: new Map(),
  };
}

function messagesFor(cache: SegmentCache, counter: TokenCounter): WeakMap<object, MessageSegments> {
  let messages = cache.messagesByCounter.get(counter.id);
  if (!messages) {
    messages = new WeakMap();
    cache.messagesByCounter.set(counter.id, messages);
  }
  return messages;
}

/** The tokens `counterId` counted for these facts, or undefined when it has not counted them. */
function tokensOf(facts: SegmentFacts, counterId: string): number | undefined {
  if (facts.counterA === counterId) return facts.tokensA;
  if (facts.counterB === counterId) return facts.tokensB;
  return undefined;
}

function rememberTokens(facts: SegmentFacts, counterId: string, tokens: number): void {
  // The newest count goes to slot A; the one it replaces moves to slot B.
  facts.counterB = facts.counterA;
  facts.tokensB = facts.tokensA;
  facts.counterA = counterId;
  facts.tokensA = tokens;
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
  segments: CacheSegment[] = [];
  bytes = 0;
  tokens = 0;
  notRecorded: string[] = [];
  /** What this request took from the previous one (`carryMessages`), once it has been asked. */
  carried: MessageCarry | null = null;
  /** Segments added so far whose cache marker asks for a one-hour TTL. */
  oneHourMarkers = 0;
  private readonly caches: FactCaches;
  private readonly messages: WeakMap<object, MessageSegments>;
  private readonly runs: Map<string, MessageRun>;
  private readonly cache: SegmentCache;
  private run: MessageRun | null = null;
  /** Where the current message's segments, bytes, tokens and labels started (`endOfMessage`). */
  private markSegments = 0;
  private markLabels = 0;
  /** After `carryMessages`: how many segments and labels came before the message part. */
  private headSegments = -1;
  private headLabels = 0;
  /** The last request's segments before its message part (`SegmentCache.heads`), until this one's message part starts. */
  private lastHead: readonly CacheSegment[] | null;

  constructor(
    private readonly counter: TokenCounter,
    cache: SegmentCache,
  ) {
    this.caches = cache.facts;
    this.messages = messagesFor(cache, counter);
    this.runs = cache.runs;
    this.cache = cache;
    this.lastHead = cache.heads.get(counter.id) ?? null;
  }

  /**
   * The last request's segment at this one's next place, when `input` would make the same segment:
   * a request's tools and system blocks are most often the previous request's, the same objects or
   * (an agent that rebuilds them every turn) the same content. Segments are read-only, so requests
   * share them; its `source` is the previous request's, which renders the same.
   */
  private repeatedHeadSegment(input: SegmentInput): CacheSegment | null {
    const head = this.lastHead!;
    const candidate = head[this.segments.length];
    if (candidate === undefined) return null;
    if (
      candidate.label !== input.label ||
      candidate.level !== input.level ||
      candidate.messageIndex !== input.messageIndex ||
      candidate.view !== input.view ||
      candidate.textType !== (input.textType ?? "text") ||
      candidate.tokenMode !== (input.tokenMode ?? "text") ||
      candidate.isBlock !== (input.isBlock ?? false)
    ) {
      return null;
    }
    if (!sameContent(input.source, candidate.source)) return null;
    // Same content: both are not-recorded or neither; the label and framing are the input's.
    if (candidate.notRecorded !== null) return candidate.notRecorded === (input.notRecordedLabel ?? input.label) ? candidate : null;
    return candidate.framingTokens === (input.framingTokens ?? 0) ? candidate : null;
  }

  /** Adds a segment made before (a repeated head segment), as `add` would have made it. */
  private addMade(segment: CacheSegment): CacheSegment {
    if (segment.notRecorded) this.notRecorded.push(segment.notRecorded);
    if (segment.marker?.ttl === "1h") this.oneHourMarkers++;
    this.segments.push(segment);
    this.bytes += segment.bytes;
    this.tokens += segment.tokens;
    return segment;
  }

  /** Keeps this request's segments before its message part for the next request (`lastHead`). */
  private keepHead(head: readonly CacheSegment[]): void {
    this.cache.heads.set(this.counter.id, head);
    this.lastHead = null;
  }

  /**
   * Keeps the segments of the run's messages from `from` on for `reuseMessage`, as the run holds
   * them, before the run lets them go: a request that diverged inside the run may repeat them at
   * the same places after the divergence (a moved marker, another branch). Messages the run keeps
   * need no copy, so a growing session keeps none.
   */
  private memoizeCut(run: MessageRun, from: number): void {
    const segments = run.segments;
    for (let i = from; i < run.messages.length; i++) {
      const message = run.messages[i];
      // Only object messages are looked up (the segmenters add any other value afresh).
      if (!isObject(message)) continue;
      const start = i > 0 ? run.segmentEnds[i - 1]! : 0;
      const end = run.segmentEnds[i]!;
      const own: CacheSegment[] = [];
      for (let k = start; k < end; k++) own.push(segments.at(k)!);
      const labelStart = i > 0 ? run.labelEnds[i - 1]! : 0;
      this.messages.set(message, {
        shape: run.shape,
        index: run.first + i,
        level: "messages",
        segments: own,
        bytes: run.byteEnds[i]! - (i > 0 ? run.byteEnds[i - 1]! : 0),
        tokens: run.tokenEnds[i]! - (i > 0 ? run.tokenEnds[i - 1]! : 0),
        notRecorded: run.labels.slice(labelStart, run.labelEnds[i]!),
      });
      this.cache.memoized++;
    }
  }

  /**
   * Starts the message part of the request (the last part in every shape): `list[first]` onwards.
   * The leading messages that the last request of this shape also had at the same places (same
   * objects) are added with their segments as they were, in one copy; returns the index of the
   * first message the caller adds itself, each followed by `endOfMessage()`.
   */
  carryMessages(shape: string, list: readonly unknown[], first: number): number {
    // The message part starts: what follows is compared by the run, not with the last head.
    this.lastHead = null;
    const key = `${this.counter.id}\u0000${shape}`;
    let run = this.runs.get(key);
    if (!run || run.first !== first) {
      if (run) this.memoizeCut(run, 0);
      run = { id: 0, shape, first, list: null, messages: [], segments: new SegmentStore<CacheSegment>(), labels: [], segmentEnds: [], byteEnds: [], tokenEnds: [], labelEnds: [], oneHourEnds: [] };
      this.runs.set(key, run);
    }
    const known = Math.min(run.messages.length, list.length - first);
    // The layer that built `list` may have recorded how much of the last list it took over (the
    // same objects): those messages are the run's without comparing them one by one.
    const recorded = run.list ? sharedHeadWith(list, run.list) : undefined;
    let same = recorded !== undefined ? Math.max(0, Math.min(known, recorded - first)) : 0;
    while (same < known && run.messages[same] === list[first + same]) same++;
    if (same < run.messages.length) this.memoizeCut(run, same);
    run.list = list;
    shortenTo(run.messages, same);
    shortenTo(run.segmentEnds, same);
    shortenTo(run.byteEnds, same);
    shortenTo(run.tokenEnds, same);
    shortenTo(run.labelEnds, same);
    shortenTo(run.oneHourEnds, same);
    // Lists handed out keep reading what they read (copy on write, segment-list.ts).
    run.segments.truncate(same > 0 ? run.segmentEnds[same - 1]! : 0);
    shortenTo(run.labels, same > 0 ? run.labelEnds[same - 1]! : 0);
    const from = this.segments.length;
    const bytes = same > 0 ? run.byteEnds[same - 1]! : 0;
    const tokens = same > 0 ? run.tokenEnds[same - 1]! : 0;
    // The run's segments and labels join the list in `finish`, in one copy with the new ones.
    this.headSegments = from;
    this.headLabels = this.notRecorded.length;
    this.bytes += bytes;
    this.tokens += tokens;
    this.oneHourMarkers += same > 0 ? run.oneHourEnds[same - 1]! : 0;
    const id = nextRunId++;
    this.carried = { id, previousId: run.id, from, count: run.segments.length, bytes, tokens, oneHourMarkers: 0 };
    run.id = id;
    this.run = run;
    this.markSegments = this.segments.length;
    this.markLabels = this.notRecorded.length;
    return first + same;
  }

  /**
   * The request's segments and not-recorded labels, once every segment has been added. After
   * `carryMessages`, `segments` holds the part before the messages and the new messages' segments
   * only (they are also the run's): the list is the part before the messages, then a window on
   * the run's segments, then what came after the last message.
   */
  finish(): { segments: SegmentList<CacheSegment>; notRecorded: string[] } {
    const run = this.run;
    if (!run || this.headSegments < 0) {
      // No message part: the whole list is the head the next request compares with.
      this.keepHead(this.segments);
      return { segments: SegmentList.of(this.segments), notRecorded: this.notRecorded };
    }
    // Segments added after the last message's end (no shape adds any) come last.
    const tail = this.segments.slice(this.markSegments);
    const tailLabels = this.notRecorded.slice(this.markLabels);
    const head = this.segments;
    shortenTo(head, this.headSegments);
    const labels = this.notRecorded;
    shortenTo(labels, this.headLabels);
    const segments = run.segments.window(head, tail);
    this.keepHead(head);
    this.segments = [];
    this.notRecorded = run.labels.length === 0 && tailLabels.length === 0 ? labels : labels.concat(run.labels, tailLabels);
    this.headSegments = -1;
    return { segments, notRecorded: this.notRecorded };
  }

  /** Ends the segments of the next message of the part `carryMessages` started (`message`). */
  endOfMessage(message: unknown): void {
    const run = this.run;
    if (!run) return;
    const segments = this.segments;
    let bytes = run.byteEnds.length > 0 ? run.byteEnds[run.byteEnds.length - 1]! : 0;
    let tokens = run.tokenEnds.length > 0 ? run.tokenEnds[run.tokenEnds.length - 1]! : 0;
    let oneHour = run.oneHourEnds.length > 0 ? run.oneHourEnds[run.oneHourEnds.length - 1]! : 0;
    for (let i = this.markSegments; i < segments.length; i++) {
      const segment = segments[i]!;
      run.segments.push(segment);
      bytes += segment.bytes;
      tokens += segment.tokens;
      if (segment.marker?.ttl === "1h") oneHour++;
    }
    for (let i = this.markLabels; i < this.notRecorded.length; i++) run.labels.push(this.notRecorded[i]!);
    run.messages.push(message);
    run.segmentEnds.push(run.segments.length);
    run.byteEnds.push(bytes);
    run.tokenEnds.push(tokens);
    run.labelEnds.push(run.labels.length);
    run.oneHourEnds.push(oneHour);
    this.markSegments = segments.length;
    this.markLabels = this.notRecorded.length;
  }

  /**
   * Re-adds the segments `message` produced in an earlier request when it sits at the same index
   * and level of the same shape: turn N+1's body repeats turn N's message objects, so a repeated
   * message costs one lookup instead of a label, a cache lookup and a segment object per segment.
   * Segments are read-only, so requests may share them. Returns false when the caller must add
   * the message's segments itself. Only messages a request cut from the run are known here
   * (`memoizeCut`): the ones the run keeps are carried whole by `carryMessages`.
   */
  reuseMessage(shape: string, message: object, index: number, level: CacheLevel): boolean {
    const known = this.messages.get(message);
    if (known === undefined || known.index !== index || known.level !== level || known.shape !== shape) return false;
    for (const segment of known.segments) {
      this.segments.push(segment);
      if (segment.marker?.ttl === "1h") this.oneHourMarkers++;
    }
    for (const label of known.notRecorded) this.notRecorded.push(label);
    this.bytes += known.bytes;
    this.tokens += known.tokens;
    return true;
  }

  add(input: SegmentInput): CacheSegment {
    if (this.lastHead !== null) {
      const repeated = this.repeatedHeadSegment(input);
      if (repeated !== null) return this.addMade(repeated);
    }
    const view = input.view;
    const tokenMode = input.tokenMode ?? "text";
    const framing = input.framingTokens ?? 0;
    const slot: Slot = view === "header" ? "header" : view === "text-block" ? "text-block" : "value";
    // A marked copy's strip and header views are its unmarked object's: kept under that one.
    const key =
      input.cacheKey !== undefined
        ? input.cacheKey
        : typeof input.source === "object" && input.source !== null
          ? view === "strip" || view === "header"
            ? unmarkedFormOf(input.source)
            : input.source
          : null;
    let facts: SegmentFacts | undefined;
    const stringKey = key === null && typeof input.source === "string" ? `${slot}\u0000${input.textType ?? ""}\u0000${input.source}` : null;
    if (key) facts = this.caches.objects[slot].get(key);
    else if (stringKey !== null) facts = this.caches.strings.get(stringKey);
    let value: unknown;
    let rendering: string | null = null;
    if (!facts) {
      value = canonicalValue(input.source, view, input.textType);
      let print: number | null = null;
      let check = 0;
      if (key && worthPrinting(this.caches.printYield[slot])) {
        print = fingerprintKey(value, slot, input.textType ?? "", tokenMode, this.caches.interned, this.caches.lanes);
        check = this.caches.lanes.c;
        const known = this.caches.fingerprints.get(print);
        if (known !== undefined && known.check === check) facts = known.facts;
        countPrint(this.caches.printYield[slot], facts !== undefined);
      }
      if (!facts) {
        // The hash streams over the value without building its rendering; only JSON token mode,
        // and values JSON.stringify alone renders faithfully (toJSON, class instances), build it.
        // Those hash the parsed rendering, so equal renderings hash alike in every case.
        let measured = hashJsonRendering(value);
        if (!measured) {
          rendering = renderCanonical(value);
          measured = hashJsonRendering(JSON.parse(rendering)) ?? hashStringAndUtf8Length(rendering);
        }
        facts = { hash: measured.hash, bytes: measured.bytes, counterA: null, tokensA: 0, counterB: null, tokensB: 0 };
        if (print !== null) this.caches.fingerprints.set(print, { check, facts });
      }
      if (key) this.caches.objects[slot].set(key, facts);
      else if (stringKey !== null) {
        if (this.caches.strings.size >= STRING_CACHE_LIMIT) this.caches.strings.clear();
        this.caches.strings.set(stringKey, facts);
      }
    }
    let tokens = tokensOf(facts, this.counter.id);
    if (tokens === undefined) {
      // Measured under another counter (an earlier pass): only the tokens are new.
      if (value === undefined) value = canonicalValue(input.source, view, input.textType);
      if (tokenMode === "json") tokens = this.counter.count(rendering ?? renderCanonical(value));
      else tokens = countTokenText(this.counter, value);
      rememberTokens(facts, this.counter.id, tokens);
    }
    const notRecorded = isNotRecorded(input.source) ? input.notRecordedLabel ?? input.label : null;
    const segment: CacheSegment = {
      label: input.label,
      level: input.level,
      messageIndex: input.messageIndex,
      hash: facts.hash,
      bytes: facts.bytes,
      tokens: notRecorded ? 0 : tokens + framing,
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
    if (segment.marker?.ttl === "1h") this.oneHourMarkers++;
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
