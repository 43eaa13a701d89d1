// Exact o200k counts on every core: texts are sent in batches to worker threads (one per core,
// started on demand) while the caller goes on; finish() waits for the last count. Each text is
// counted once. Small work stays on the calling thread: the pool starts only once the texts
// submitted reach START_CHARS, because a worker's start-up (loading the tokenizer) costs more than
// counting a small session; texts left unsent are then counted by the caller (precountedO200k).
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { threadEntry } from "./entry";
import { COUNT_ROLE, type CountReply, type CountRequest, type ThreadData } from "./roles";

/** Characters submitted before worker threads are worth starting. */
const START_CHARS = 2_000_000;
/** Characters per message to a worker. */
const BATCH_CHARS = 512 * 1024;

interface PoolWorker {
  worker: Worker;
  /** Characters sent and not yet answered: the next batch goes to the least loaded worker. */
  pendingChars: number;
}

export interface TokenPool {
  submit(text: string): void;
  /** Every count made by the workers, once all have answered; then the workers are stopped. */
  finish(): Promise<Map<string, number>>;
  /** Worker threads started (0 when the work stayed on the calling thread). */
  readonly started: number;
}

/** The thread count to use: `requested`, else one per core. */
export function threadCount(requested?: number): number {
  return Math.max(1, requested ?? availableParallelism());
}

/** A pool of `size` counting threads, or null when threads cannot help (one thread, no entry file). */
export function createTokenPool(size: number): TokenPool | null {
  const entry = threadEntry();
  if (size < 2 || !entry) return null;
  const counts = new Map<string, number>();
  const batches = new Map<number, { texts: string[]; chars: number; worker: PoolWorker }>();
  const workers: PoolWorker[] = [];
  let waiting: string[] = [];
  let waitingChars = 0;
  let submittedChars = 0;
  let nextBatch = 0;
  let failure: Error | null = null;
  let drained: (() => void) | null = null;

  const start = () => {
    for (let i = 0; i < size; i++) {
      const worker = new Worker(entry, { workerData: { role: COUNT_ROLE } satisfies ThreadData });
      const slot: PoolWorker = { worker, pendingChars: 0 };
      worker.on("message", (reply: CountReply) => {
        const batch = batches.get(reply.batch)!;
        batches.delete(reply.batch);
        batch.texts.forEach((text, index) => counts.set(text, reply.counts[index]!));
        slot.pendingChars -= batch.chars;
        if (batches.size === 0) drained?.();
      });
      worker.on("error", (error) => {
        failure = error;
        drained?.();
      });
      workers.push(slot);
    }
  };

  const send = () => {
    if (waiting.length === 0) return;
    if (workers.length === 0) start();
    let target = workers[0]!;
    for (const slot of workers) if (slot.pendingChars < target.pendingChars) target = slot;
    const request: CountRequest = { batch: nextBatch++, texts: waiting };
    batches.set(request.batch, { texts: waiting, chars: waitingChars, worker: target });
    target.pendingChars += waitingChars;
    target.worker.postMessage(request);
    waiting = [];
    waitingChars = 0;
  };

  return {
    get started() {
      return workers.length;
    },
    submit(text) {
      waiting.push(text);
      waitingChars += text.length;
      submittedChars += text.length;
      if (submittedChars >= START_CHARS && waitingChars >= BATCH_CHARS) send();
    },
    async finish() {
      if (workers.length > 0) {
        send();
        if (batches.size > 0 && !failure) await new Promise<void>((resolve) => (drained = resolve));
        await Promise.all(workers.map((slot) => slot.worker.terminate()));
      }
      if (failure) throw failure;
      return counts;
    },
  };
}
