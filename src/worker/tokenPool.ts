// The browser's token pool: Web Workers (./count.worker.ts) that count tokens for the pipeline
// worker's exact prefix pass (exact o200k counts, and the Claude vocabulary's counts behind the
// Anthropic estimate), sized to the machine: one per core, up to four. The page and the pipeline
// worker need the cores only while the user acts, and then no new batch goes out (holdMs); on two
// cores a second counting worker made the exact pass of a 1 GB session 18 % faster with the same
// step times (docs/performance.md). Texts are sent in batches, one table each, as they are
// submitted; each worker holds at most two batches, so a free worker always takes the next one. The
// pipeline worker's pass yields to its event loop, which is where the answers arrive and the next
// batches go out. The workers start with the first batch and stay for the session's later passes.
import type { TableCountPool } from "../core/tokens/precounted";
import type { TokenizerTable } from "../core/tokens/tables";

export interface CountBatch {
  batch: number;
  table: TokenizerTable;
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
  return Math.max(1, Math.min(MAX_WORKERS, cores ?? 2));
}

export interface BrowserTokenPool extends TableCountPool {
  /** Stops the workers. */
  close(): void;
}

/**
 * `holdMs` says how long to hold back the next batches (the user is stepping: the counting workers
 * would take the cores the page needs); a worker finishes the batches it holds.
 */
export function createBrowserTokenPool(size: number, createWorker: () => Worker, holdMs: () => number = () => 0): BrowserTokenPool {
  const counts = new Map<TokenizerTable, Map<string, number>>();
  const slots: Slot[] = [];
  const queue: CountBatch[] = [];
  const sent = new Map<number, CountBatch>();
  /** Texts not yet in a batch, per table. */
  const waiting = new Map<TokenizerTable, { texts: string[]; chars: number }>();
  let nextBatch = 0;
  let failure: Error | null = null;
  /** finish() calls waiting for the batches to be counted (passes of different options may overlap). */
  const waiters: (() => void)[] = [];
  const wake = () => {
    for (const resolve of waiters.splice(0)) resolve();
  };

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
        else {
          const made = counts.get(batch.table) ?? new Map<string, number>();
          counts.set(batch.table, made);
          batch.texts.forEach((text, index) => made.set(text, reply.counts[index]!));
        }
        dispatch(slot);
        if (failure || (sent.size === 0 && queue.length === 0)) wake();
      };
      slot.worker.onerror = (event) => {
        failure = new Error(`a token counting worker failed: ${event.message}`);
        wake();
      };
      slots.push(slot);
    }
  };

  const enqueue = (table: TokenizerTable) => {
    const pending = waiting.get(table);
    if (!pending || pending.texts.length === 0) return;
    if (slots.length === 0) start();
    queue.push({ batch: nextBatch++, table, texts: pending.texts });
    waiting.delete(table);
    dispatchAll();
  };

  return {
    submit(table, text) {
      let pending = waiting.get(table);
      if (!pending) waiting.set(table, (pending = { texts: [], chars: 0 }));
      pending.texts.push(text);
      pending.chars += text.length;
      if (pending.chars >= BATCH_CHARS) enqueue(table);
    },
    async finish() {
      for (const table of [...waiting.keys()]) enqueue(table);
      if (!failure && (sent.size > 0 || queue.length > 0)) await new Promise<void>((resolve) => waiters.push(resolve));
      if (failure) throw failure;
      return counts;
    },
    close() {
      if (held !== null) clearTimeout(held);
      for (const slot of slots) slot.worker.terminate();
      slots.length = 0;
      // A pass still waiting for counts ends (it belongs to a session no longer open).
      failure ??= new Error("the token counting workers were stopped");
      wake();
    },
  };
}
