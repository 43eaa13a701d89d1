// Exact o200k counts on every core: texts are grouped into batches and each batch is posted to a
// worker thread (one per core but one, started on demand: the calling thread keeps a core for its
// own analysis pass) as soon as it is full. The caller's analysis pass is synchronous, so it
// never returns to the event loop while it runs: the workers must not depend on it to be handed
// work. Every batch is therefore posted at once, round robin, and the workers count while the
// caller goes on; a caller naming texts faster than they are counted keeps `pendingChars` bounded
// (counting batches itself, or waiting for replies), or every text would wait in the queues. finish() is where the calling thread counts too: it takes batches from the
// back, the workers from the front, and a shared claim word per batch (Atomics) makes sure each
// batch is counted by exactly one thread. A caller that can use counts as they arrive (the second
// walk of `prefix`, turn by turn) asks whether the batches it needs are counted (countedBelow),
// counts the first unclaimed batch itself (countNext) or waits for a worker's reply (nextReply),
// so its own work overlaps the counting. Small work stays on the calling thread: the pool starts
// only once the texts submitted reach START_CHARS, because a worker's start-up (loading the
// tokenizer table, about a third of a second) costs more than counting a small session; texts
// left unsent are then counted by the caller (precountedO200k). A caller that knows the input is
// large calls start() first, so the workers load while the file is read. One pool serves several
// walks (finish() after each, close() at the end); a text is counted once across them.
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { o200kCounter } from "../../core/tokens/counters";
import { threadEntry } from "./entry";
import { BATCH_CLAIMED_BY_CALLER, BATCH_UNCLAIMED, COUNT_ROLE, type CountReply, type CountRequest, type ThreadData } from "./roles";
import { textDigest } from "../../core/tokens/textDigest";
import { countTextOfParts, countTextString, type CountText } from "../../core/tokens/countText";
import type { Text } from "../../core/text/text";

/** Characters submitted before worker threads are worth starting. */
const START_CHARS = 2_000_000;
/** Characters per batch. */
const BATCH_CHARS = 512 * 1024;
/** Claim words per shared block (a block is allocated when the previous one is full). */
const CLAIMS_PER_BLOCK = 1024;

interface Batch {
  texts: CountText[];
  /** Characters of its texts. */
  chars: number;
  /** The key of each text's count: `textDigest` of a text, `partsDigest` of a text made of parts. */
  keys: string[];
  claims: Int32Array;
  slot: number;
}

export interface TokenPool {
  /** Starts the worker threads now (they start on their own once START_CHARS are submitted). */
  start(): void;
  submit(text: string): void;
  /**
   * A text made of `parts`, its count kept under `key`: a part kept as bytes is sent as a copy of
   * its bytes (read from the session file where it stayed), decoded only where it is counted.
   */
  submitParts(parts: readonly Text[], key: string): void;
  /**
   * The number of batches holding the texts submitted so far (the one being filled included):
   * once `countedBelow` of it is true, every one of those texts is counted.
   */
  readonly batchesSubmitted: number;
  /** Posts the batch being filled, full or not (the workers count only posted batches). */
  flush(): void;
  /**
   * Characters submitted and not yet counted. A walk naming texts faster than they are counted
   * keeps this bounded (countNext, nextReply), or every text would wait in the workers' queues.
   */
  readonly pendingChars: number;
  /** True when the batches numbered below `batches` are all counted and in `counts`. */
  countedBelow(batches: number): boolean;
  /** Counts the first posted batch nobody has claimed, on the calling thread; false when none is left. */
  countNext(): boolean;
  /** Resolves once a worker's reply has been recorded; rejects when a worker failed. */
  nextReply(): Promise<void>;
  /** Every count made so far, by the workers and the caller. */
  /** Counts keyed by `textDigest` of each text. */
  readonly counts: ReadonlyMap<string, number>;
  /** Every count made so far by the workers and the caller, once all texts submitted are counted. */
  finish(): Promise<ReadonlyMap<string, number>>;
  /** Stops the worker threads. */
  close(): Promise<void>;
  /** Worker threads started (0 when the work stayed on the calling thread). */
  readonly started: number;
  /** Batches the worker threads have counted so far. */
  readonly batchesByWorkers: number;
}

/** The thread count to use: `requested`, else one per core. */
export function threadCount(requested?: number): number {
  return Math.max(1, requested ?? availableParallelism());
}

/** A pool for `size` counting threads (the caller included), or null when threads cannot help. */
export function createTokenPool(size: number): TokenPool | null {
  const entry = threadEntry();
  if (size < 2 || !entry) return null;
  const counts = new Map<string, number>();
  /** Posted batches not yet counted, by id. */
  const batches = new Map<number, Batch>();
  let nextBatch = 0;
  /** Batches below this id are all counted; `countedAbove` holds the counted ids at or above it. */
  let countedPrefix = 0;
  const countedAbove = new Set<number>();
  /** The lowest id the caller has not tried to claim from the front yet. */
  let front = 0;
  const workers: Worker[] = [];
  let claims = new Int32Array(new SharedArrayBuffer(CLAIMS_PER_BLOCK * Int32Array.BYTES_PER_ELEMENT));
  let nextSlot = 0;
  let waiting: CountText[] = [];
  let waitingKeys: string[] = [];
  let waitingChars = 0;
  let submittedChars = 0;
  /** Characters of the posted batches not yet counted. */
  let postedChars = 0;
  let replies = 0;
  let failure: Error | null = null;
  let answered: (() => void) | null = null;

  const markCounted = (id: number, keys: readonly string[], made: readonly number[]) => {
    // Keyed by a digest: a map keyed by the texts would keep every distinct text alive (texts kept
    // as bytes are decoded only to be counted).
    keys.forEach((key, index) => counts.set(key, made[index]!));
    postedChars -= batches.get(id)!.chars;
    batches.delete(id);
    if (id !== countedPrefix) countedAbove.add(id);
    else {
      countedPrefix++;
      while (countedAbove.delete(countedPrefix)) countedPrefix++;
    }
  };

  const start = () => {
    if (workers.length > 0) return;
    for (let i = 0; i < size - 1; i++) {
      const worker = new Worker(entry, { workerData: { role: COUNT_ROLE } satisfies ThreadData });
      worker.on("message", (reply: CountReply) => {
        markCounted(reply.batch, batches.get(reply.batch)!.keys, reply.counts);
        replies++;
        answered?.();
      });
      worker.on("error", (error) => {
        failure = error;
        answered?.();
      });
      workers.push(worker);
    }
  };

  const enqueue = () => {
    if (waiting.length === 0) return;
    start();
    if (nextSlot === CLAIMS_PER_BLOCK) {
      claims = new Int32Array(new SharedArrayBuffer(CLAIMS_PER_BLOCK * Int32Array.BYTES_PER_ELEMENT));
      nextSlot = 0;
    }
    const id = nextBatch++;
    const batch: Batch = { texts: waiting, chars: waitingChars, keys: waitingKeys, claims, slot: nextSlot++ };
    batches.set(id, batch);
    postedChars += waitingChars;
    // The byte parts are copied for the worker, not moved: the caller may count the batch itself.
    workers[id % workers.length]!.postMessage({ batch: id, texts: batch.texts, claims: batch.claims, slot: batch.slot } satisfies CountRequest);
    waiting = [];
    waitingKeys = [];
    waitingChars = 0;
  };

  const add = (text: CountText, key: string, chars: number) => {
    waiting.push(text);
    waitingKeys.push(key);
    waitingChars += chars;
    submittedChars += chars;
    if ((workers.length > 0 || submittedChars >= START_CHARS) && waitingChars >= BATCH_CHARS) enqueue();
  };

  /** Counts batch `id` here when nobody has claimed it; false when it is counted or taken. */
  const countHere = (id: number) => {
    const batch = batches.get(id);
    if (!batch || Atomics.compareExchange(batch.claims, batch.slot, BATCH_UNCLAIMED, BATCH_CLAIMED_BY_CALLER) !== BATCH_UNCLAIMED) return false;
    markCounted(id, batch.keys, batch.texts.map((text) => o200kCounter.count(countTextString(text))));
    return true;
  };

  const nextReply = async () => {
    if (!failure) await new Promise<void>((resolve) => (answered = resolve));
    answered = null;
    if (failure) throw failure;
  };

  return {
    get started() {
      return workers.length;
    },
    get batchesByWorkers() {
      return replies;
    },
    get batchesSubmitted() {
      return nextBatch + (waiting.length > 0 ? 1 : 0);
    },
    get counts() {
      return counts;
    },
    get pendingChars() {
      return postedChars + waitingChars;
    },
    start,
    submit(text) {
      add(text, textDigest(text), text.length);
    },
    submitParts(parts, key) {
      // A copy: the view of a text read from the session file lasts only until the next read.
      const { text, chars } = countTextOfParts(parts, (bytes) => bytes.slice());
      add(text, key, chars);
    },
    flush: enqueue,
    countedBelow: (batchCount) => countedPrefix >= batchCount,
    countNext() {
      for (; front < nextBatch; front++) if (countHere(front)) return true;
      return false;
    },
    nextReply,
    async finish() {
      if (workers.length > 0) {
        enqueue();
        // The caller counts from the back while the workers take from the front.
        for (let id = nextBatch - 1; id >= countedPrefix && !failure; id--) countHere(id);
        while (countedPrefix < nextBatch) await nextReply();
      }
      if (failure) throw failure;
      return counts;
    },
    async close() {
      await Promise.all(workers.map((worker) => worker.terminate()));
      workers.length = 0;
    },
  };
}
