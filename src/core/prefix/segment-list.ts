// The segment list of one request, shared with the requests of the same session around it. Turn
// N+1's request repeats turn N's messages, so its segments are turn N's followed by a few new
// ones: a list is its own short part before the messages (tools, system), then a window on the
// message segments the segmenter keeps from turn to turn (`SegmentStore`), then its own short
// tail. A turn's list costs its own parts, not a copy of its whole context.
// The store is kept in fixed-size chunks and is never changed inside a window it has handed out:
// a request that diverges inside it (an agent that moves its cache marker to the newest message
// every turn does so each turn) gets a copy of the one chunk it diverges in, so an earlier list
// reads the same for good. Each list holds its own last chunk, so the store cuts its spine in
// place when no list reads a chunk past the cut through the spine (the usual divergence, in the
// newest messages) and copies the spine only otherwise: a divergence costs a chunk, not the context.
// Generic over the item (a request's cache segment), so this file imports nothing of the types
// that hold its lists.

import { shortenTo } from "../util/shorten";

const EMPTY: readonly never[] = [];
const NO_CHUNKS: readonly (readonly never[])[] = [];
/** Segments per chunk (a power of two): a divergence copies one chunk, and the spine only when it falls before a chunk a list reads through it. */
const CHUNK_BITS = 6;
const CHUNK = 1 << CHUNK_BITS;
const CHUNK_MASK = CHUNK - 1;

/** A read-only list of cache segments, in the provider's cache order. */
export class SegmentList<T> implements Iterable<T> {
  readonly length: number;
  private readonly headLength: number;
  /** Index where the tail starts (head and shared window before it). */
  private readonly tailStart: number;

  /** Index in `spine` of the last chunk the list reads, which it reads from `lastChunk`. */
  private readonly lastChunkIndex: number;
  private readonly lastChunk: readonly T[];

  /**
   * `head`, then the first `sharedLength` segments of the chunks `spine`, then `tail`; `patchAt`
   * (when ≥ 0) reads `patch` instead. None of them may change afterwards within what the list
   * reads, except the spine's entry of the last chunk read: the list keeps that chunk (`lastChunk`,
   * taken from the spine when not given).
   */
  constructor(
    private readonly head: readonly T[],
    private readonly spine: readonly (readonly T[])[] = NO_CHUNKS,
    private readonly sharedLength = 0,
    private readonly tail: readonly T[] = EMPTY,
    private readonly patchAt = -1,
    private readonly patch: T | null = null,
    lastChunk: readonly T[] | null = null,
  ) {
    this.headLength = head.length;
    this.tailStart = head.length + sharedLength;
    this.length = this.tailStart + tail.length;
    // The spine may later hold another chunk at this index (SegmentStore.truncate): the list keeps its own.
    this.lastChunkIndex = sharedLength > 0 ? (sharedLength - 1) >> CHUNK_BITS : -1;
    this.lastChunk = lastChunk ?? (sharedLength > 0 ? spine[this.lastChunkIndex]! : EMPTY);
  }

  /** The chunk `index` of the shared part. */
  private chunk(index: number): readonly T[] {
    return index === this.lastChunkIndex ? this.lastChunk : this.spine[index]!;
  }

  /** A list of exactly these segments (an array the caller no longer changes). */
  static of<T>(segments: readonly T[]): SegmentList<T> {
    return new SegmentList<T>(segments);
  }

  /** The segment at `index` (0 … length − 1), else undefined. */
  at(index: number): T | undefined {
    if (index < 0) return undefined;
    if (index === this.patchAt) return this.patch!;
    if (index < this.headLength) return this.head[index];
    if (index < this.tailStart) {
      const shared = index - this.headLength;
      return this.chunk(shared >> CHUNK_BITS)[shared & CHUNK_MASK];
    }
    return this.tail[index - this.tailStart];
  }

  /**
   * The same list with `segment` at `index` (0 … length − 1): shares every part with this one,
   * so it costs nothing whatever the list's length.
   */
  with(index: number, segment: T): SegmentList<T> {
    if (index < 0 || index >= this.length) throw new RangeError(`segment ${index} outside a list of ${this.length}`);
    if (this.patchAt >= 0 && this.patchAt !== index) {
      // Never asked for in practice (one segment carries the missing tokens): a plain copy.
      const plain = this.toArray();
      plain[index] = segment;
      return SegmentList.of(plain);
    }
    return new SegmentList<T>(this.head, this.spine, this.sharedLength, this.tail, index, segment, this.lastChunk);
  }

  /** Index of the first segment from `from` on that satisfies `test`, else −1. */
  findIndex(test: (segment: T, index: number) => boolean, from = 0): number {
    for (let i = Math.max(0, from); i < this.length; i++) if (test(this.at(i)!, i)) return i;
    return -1;
  }

  /** A fresh plain array of the segments, for the rare reader that needs one (a copy of the whole list). */
  toArray(): T[] {
    const out = this.head.slice();
    for (let i = 0; i < this.sharedLength; i++) out.push(this.chunk(i >> CHUNK_BITS)[i & CHUNK_MASK]!);
    for (const segment of this.tail) out.push(segment);
    if (this.patchAt >= 0) out[this.patchAt] = this.patch!;
    return out;
  }

  [Symbol.iterator](): Iterator<T> {
    let i = 0;
    return {
      next: (): IteratorResult<T> => (i < this.length ? { done: false, value: this.at(i++)! } : { done: true, value: undefined }),
    };
  }

  /** JSON of a request (tests, debugging) shows its segments as an array. */
  toJSON(): T[] {
    return this.toArray();
  }
}

/**
 * The message segments the segmenter carries from request to request: appended to, cut back to
 * where the next request diverges (copy on write), and seen by each request through a window.
 */
export class SegmentStore<T> {
  private spine: T[][] = [];
  length = 0;
  /**
   * The highest index of a spine chunk that a window handed out reads through the spine (every
   * chunk before its last), −1 when none: the spine may change in place after it only.
   */
  private readThrough = -1;
  /** Spine copies `truncate` made (tests: a divergence in the newest chunk copies none). */
  spineCopies = 0;

  /** The segment at `index` (0 … length − 1), else undefined. */
  at(index: number): T | undefined {
    if (index < 0 || index >= this.length) return undefined;
    return this.spine[index >> CHUNK_BITS]![index & CHUNK_MASK];
  }

  push(segment: T): void {
    const chunk = this.length & CHUNK_MASK;
    if (chunk === 0) this.spine.push([segment]);
    else this.spine[this.spine.length - 1]!.push(segment);
    this.length++;
  }

  /**
   * Keeps the first `length` segments. Windows handed out may read past it: the kept part moves
   * to a new spine, with a copy of the chunk the cut falls in, and the old chunks stay as they are.
   */
  truncate(length: number): void {
    if (length >= this.length) return;
    const whole = length >> CHUNK_BITS;
    const rest = length & CHUNK_MASK;
    // Chunks are only ever appended to: the one the cut falls in is copied, never cut.
    const cut = rest > 0 ? this.spine[whole]!.slice(0, rest) : null;
    if (this.readThrough >= whole) {
      // A window reads a chunk from `whole` on through this spine: it keeps this one.
      this.spine = this.spine.slice(0, whole);
      this.readThrough = -1;
      this.spineCopies++;
    } else shortenTo(this.spine, whole);
    if (cut) this.spine.push(cut);
    this.length = length;
  }

  /** `head`, the store's segments as they are now, then `tail`. */
  window(head: readonly T[], tail: readonly T[]): SegmentList<T> {
    // The window reads its last chunk from its own reference, the ones before through the spine.
    if (this.length > 0) this.readThrough = Math.max(this.readThrough, ((this.length - 1) >> CHUNK_BITS) - 1);
    return new SegmentList<T>(head, this.spine, this.length, tail);
  }
}
