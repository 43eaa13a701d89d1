// Exact o200k counts on every core: texts are queued in batches for worker threads (one per core
// but one, started on demand: the calling thread keeps a core for its own analysis pass) while the
// caller goes on; each worker has at most AHEAD batches in flight and is sent the next queued one
// when it answers. finish() is where the calling thread counts too: it takes queued batches from
// the back of the queue while the workers take them from the front, then waits for the last
// count. Each text is counted once. Small work stays on the calling thread: the pool starts only
// once the texts submitted reach START_CHARS, because a worker's start-up (loading the core and
// the tokenizer) costs more than counting a small session; texts left unsent are then counted by
// the caller (precountedO200k).
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { o200kCounter } from "../../core/tokens/counters";
import { threadEntry } from "./entry";
import { COUNT_ROLE, type CountReply, type CountRequest, type ThreadData } from "./roles";

/** Characters submitted before worker threads are worth starting. */
const START_CHARS = 2_000_000;
/** Characters per message to a worker. */
const BATCH_CHARS = 512 * 1024;
/** Batches a worker holds at once: one being counted, one ready behind it. */
const AHEAD = 2;

interface Batch {
  id: number;
  texts: string[];
}

interface PoolWorker {
  worker: Worker;
  inFlight: number;
}

export interface TokenPool {
  submit(text: string): void;
  /** Every count made by the workers and the caller, once all are made; then the workers are stopped. */
  finish(): Promise<Map<string, number>>;
  /** Worker threads started (0 when the work stayed on the calling thread). */
  readonly started: number;
}

/** The thread count to use: `requested`, else one per core. */
export function threadCount(requested?: number): number {
  return Math.max(1, requested ?? availableParallelism());
}

/** Lets the event loop deliver the workers' answers between the caller's own batches. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A pool for `size` counting threads (the caller included), or null when threads cannot help. */
export function createTokenPool(size: number): TokenPool | null {
  const entry = threadEntry();
  if (size < 2 || !entry) return null;
  const counts = new Map<string, number>();
  const queue: Batch[] = [];
  const sent = new Map<number, Batch>();
  const workers: PoolWorker[] = [];
  let waiting: string[] = [];
  let waitingChars = 0;
  let submittedChars = 0;
  let nextBatch = 0;
  let failure: Error | null = null;
  let drained: (() => void) | null = null;

  const record = (texts: string[], made: number[]) => texts.forEach((text, index) => counts.set(text, made[index]!));

  const dispatch = (slot: PoolWorker) => {
    while (slot.inFlight < AHEAD && queue.length > 0) {
      const batch = queue.shift()!;
      sent.set(batch.id, batch);
      slot.inFlight++;
      slot.worker.postMessage({ batch: batch.id, texts: batch.texts } satisfies CountRequest);
    }
  };

  const start = () => {
    for (let i = 0; i < size - 1; i++) {
      const worker = new Worker(entry, { workerData: { role: COUNT_ROLE } satisfies ThreadData });
      const slot: PoolWorker = { worker, inFlight: 0 };
      worker.on("message", (reply: CountReply) => {
        const batch = sent.get(reply.batch)!;
        sent.delete(reply.batch);
        slot.inFlight--;
        record(batch.texts, reply.counts);
        dispatch(slot);
        if (sent.size === 0 && queue.length === 0) drained?.();
      });
      worker.on("error", (error) => {
        failure = error;
        drained?.();
      });
      workers.push(slot);
    }
  };

  const enqueue = () => {
    if (waiting.length === 0) return;
    if (workers.length === 0) start();
    queue.push({ id: nextBatch++, texts: waiting });
    waiting = [];
    waitingChars = 0;
    for (const slot of workers) dispatch(slot);
  };

  return {
    get started() {
      return workers.length;
    },
    submit(text) {
      waiting.push(text);
      waitingChars += text.length;
      submittedChars += text.length;
      if (submittedChars >= START_CHARS && waitingChars >= BATCH_CHARS) enqueue();
    },
    async finish() {
      if (workers.length > 0) {
        enqueue();
        // The caller counts from the back of the queue while the workers take from the front.
        while (queue.length > 0 && !failure) {
          const batch = queue.pop()!;
          record(batch.texts, batch.texts.map((text) => o200kCounter.count(text)));
          await nextTurn();
        }
        if (sent.size > 0 && !failure) await new Promise<void>((resolve) => (drained = resolve));
        await Promise.all(workers.map((slot) => slot.worker.terminate()));
      }
      if (failure) throw failure;
      return counts;
    },
  };
}
