// The browser's token pool: Web Workers (./count.worker.ts) that count exact o200k tokens for the
// pipeline worker's exact prefix pass, sized to the machine (one per core but one, up to four:
// the page and the pipeline worker keep a core). Texts are sent in batches as they are submitted;
// each worker holds at most two batches, so a free worker always takes the next one. The
// pipeline worker's pass yields to its event loop, which is where the answers arrive and the next
// batches go out. The workers start with the first batch and stay for the session's later passes.
import type { TextCountPool } from "../core/tokens/precounted";

export interface CountBatch {
  batch: number;
  texts: string[];
}

export type CountBatchReply = { batch: number; counts: number[] } | { batch: number; error: string };

/** Characters per batch. */
const BATCH_CHARS = 256 * 1024;
/** Batches a worker holds at once: one being counted, one ready behind it. */
const AHEAD = 2;
const MAX_WORKERS = 4;

interface Slot {
  worker: Worker;
  inFlight: number;
}

/** Counting workers for a machine with `cores` logical cores. */
export function tokenPoolSize(cores: number | undefined): number {
  return Math.max(1, Math.min(MAX_WORKERS, (cores ?? 2) - 1));
}

export interface BrowserTokenPool extends TextCountPool {
  /** Stops the workers. */
  close(): void;
}

/**
 * `holdMs` says how long to hold back the next batches (the user is stepping: the counting workers
 * would take the cores the page needs); a worker finishes the batches it holds.
 */
export function createBrowserTokenPool(size: number, createWorker: () => Worker, holdMs: () => number = () => 0): BrowserTokenPool {
  const counts = new Map<string, number>();
  const slots: Slot[] = [];
  const queue: CountBatch[] = [];
  const sent = new Map<number, CountBatch>();
  let waiting: string[] = [];
  let waitingChars = 0;
  let nextBatch = 0;
  let failure: Error | null = null;
  let drained: (() => void) | null = null;

  let held: ReturnType<typeof setTimeout> | null = null;
  const dispatchAll = () => {
    held = null;
    for (const slot of slots) dispatch(slot);
  };

  const dispatch = (slot: Slot) => {
    const hold = holdMs();
    if (hold > 0) {
      held ??= setTimeout(dispatchAll, hold);
      return;
    }
    while (slot.inFlight < AHEAD && queue.length > 0) {
      const batch = queue.shift()!;
      sent.set(batch.batch, batch);
      slot.inFlight++;
      slot.worker.postMessage(batch);
    }
  };

  const start = () => {
    for (let i = 0; i < size; i++) {
      const slot: Slot = { worker: createWorker(), inFlight: 0 };
      slot.worker.onmessage = (event: MessageEvent<CountBatchReply>) => {
        const reply = event.data;
        const batch = sent.get(reply.batch)!;
        sent.delete(reply.batch);
        slot.inFlight--;
        if ("error" in reply) failure = new Error(`counting tokens failed: ${reply.error}`);
        else batch.texts.forEach((text, index) => counts.set(text, reply.counts[index]!));
        dispatch(slot);
        if (failure || (sent.size === 0 && queue.length === 0)) drained?.();
      };
      slot.worker.onerror = (event) => {
        failure = new Error(`a token counting worker failed: ${event.message}`);
        drained?.();
      };
      slots.push(slot);
    }
  };

  const enqueue = () => {
    if (waiting.length === 0) return;
    if (slots.length === 0) start();
    queue.push({ batch: nextBatch++, texts: waiting });
    waiting = [];
    waitingChars = 0;
    dispatchAll();
  };

  return {
    submit(text) {
      waiting.push(text);
      waitingChars += text.length;
      if (waitingChars >= BATCH_CHARS) enqueue();
    },
    async finish() {
      enqueue();
      if (!failure && (sent.size > 0 || queue.length > 0)) await new Promise<void>((resolve) => (drained = resolve));
      drained = null;
      if (failure) throw failure;
      return counts;
    },
    close() {
      if (held !== null) clearTimeout(held);
      for (const slot of slots) slot.worker.terminate();
      slots.length = 0;
      // A pass still waiting for counts ends (it belongs to a session no longer open).
      failure ??= new Error("the token counting workers were stopped");
      drained?.();
    },
  };
}
