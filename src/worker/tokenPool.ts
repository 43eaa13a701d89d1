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
import { textDigest } from "../core/tokens/textDigest";
import { countTextOfParts, type CountText } from "../core/tokens/countText";

export interface CountBatch {
  batch: number;
  table: TokenizerTable;
  texts: CountText[];
}

/** A batch as the pool keeps it: the texts until they are sent, their keys until they are counted. */
interface HeldBatch extends CountBatch {
  keys: string[];
  chars: number;
  /** The buffers of the texts' byte parts, moved with the batch. */
  moved: ArrayBuffer[];
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
  const queue: HeldBatch[] = [];
  const sent = new Map<number, HeldBatch>();
  /** Texts not yet in a batch, per table. */
  const waiting = new Map<TokenizerTable, { texts: CountText[]; keys: string[]; chars: number; moved: ArrayBuffer[] }>();
  /** Characters submitted and not yet counted, and the walks waiting for them to fall. */
  let pendingChars = 0;
  const belowWaiters: { chars: number; resolve: () => void }[] = [];
  const wakeBelow = () => {
    for (let i = belowWaiters.length - 1; i >= 0; i--) {
      const waiter = belowWaiters[i]!;
      if (pendingChars < waiter.chars || failure) {
        belowWaiters.splice(i, 1);
        waiter.resolve();
      }
    }
  };
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
      slot.worker.postMessage({ batch: batch.batch, table: batch.table, texts: batch.texts } satisfies CountBatch, batch.moved);
      // The worker has its copy: the texts are let go (decoded texts would otherwise stay alive).
      batch.texts = [];
      batch.moved = [];
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
          batch.keys.forEach((key, index) => made.set(key, reply.counts[index]!));
        }
        pendingChars -= batch.chars;
        wakeBelow();
        dispatch(slot);
        if (failure || (sent.size === 0 && queue.length === 0)) wake();
      };
      slot.worker.onerror = (event) => {
        failure = new Error(`a token counting worker failed: ${event.message}`);
        wake();
        wakeBelow();
      };
      slots.push(slot);
    }
  };

  const enqueue = (table: TokenizerTable) => {
    const pending = waiting.get(table);
    if (!pending || pending.texts.length === 0) return;
    if (slots.length === 0) start();
    queue.push({ batch: nextBatch++, table, texts: pending.texts, keys: pending.keys, chars: pending.chars, moved: pending.moved });
    waiting.delete(table);
    dispatchAll();
  };

  const add = (table: TokenizerTable, text: CountText, key: string, chars: number, moved: ArrayBuffer[] | null) => {
    let pending = waiting.get(table);
    if (!pending) waiting.set(table, (pending = { texts: [], keys: [], chars: 0, moved: [] }));
    pending.texts.push(text);
    pending.keys.push(key);
    if (moved) pending.moved.push(...moved);
    pending.chars += chars;
    pendingChars += chars;
    if (pending.chars >= BATCH_CHARS) enqueue(table);
  };

  return {
    submit(table, text) {
      add(table, text, textDigest(text), text.length, null);
    },
    submitParts(table, parts, key) {
      const { text, chars, moved } = countTextOfParts(parts);
      add(table, text, key, chars, moved);
    },
    belowPending(chars) {
      if (pendingChars < chars || failure) return Promise.resolve();
      // What waits in a partial batch is sent now, or the walk would wait for texts nobody counts.
      for (const table of [...waiting.keys()]) enqueue(table);
      return new Promise<void>((resolve) => belowWaiters.push({ chars, resolve }));
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
      wakeBelow();
    },
  };
}
