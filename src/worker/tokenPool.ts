// The browser's token pool: Web Workers (./count.worker.ts) that count tokens for the pipeline
// worker's exact prefix pass (exact o200k counts, and the Claude vocabulary's counts behind the
// Anthropic estimate), sized to the machine: one per core, up to four. The page and the pipeline
// worker need the cores only while the user acts, and then no new batch goes out (holdMs); on two
// cores a second counting worker made the exact pass of a 1 GB session 18 % faster with the same
// step times (docs/performance.md). Texts are sent in batches, one table each, as they are
// submitted; each worker holds at most two batches, so a free worker always takes the next one. The
// pipeline worker's pass yields to its event loop, which is where the answers arrive and the next
// batches go out. The workers start with the first batch and stay for the session's later passes.
// A text kept as bytes goes as its bytes: a batch copies them into one buffer, moved to the worker
// and moved back with the answer to carry a later batch, so the pass allocates a few buffers in all
// instead of one per text (a 1 GB session's pass made a gigabyte of short-lived buffers).
import type { TableCountPool } from "../core/tokens/precounted";
import type { TokenizerTable } from "../core/tokens/tables";
import { textDigest } from "../core/tokens/textDigest";
import { countTextOfParts, type CountText } from "../core/tokens/countText";

export interface CountBatch {
  batch: number;
  table: TokenizerTable;
  /** Byte parts are views of `bytes`. */
  texts: CountText[];
  /** The buffer holding the batch's byte parts, moved with it; the worker moves it back. */
  bytes: ArrayBuffer | null;
}

/** A batch as the pool keeps it: the texts until they are sent, their keys until they are counted. */
interface HeldBatch extends CountBatch {
  keys: string[];
  chars: number;
}

export type CountBatchReply = ({ batch: number; counts: number[] } | { batch: number; error: string }) & { bytes: ArrayBuffer | null };

/** Where a byte part will be in its batch's buffer (views are made once the buffer is final). */
interface BytePlace {
  at: number;
  length: number;
}

/** A batch being filled. */
interface FillingBatch {
  texts: (string | (string | BytePlace)[])[];
  keys: string[];
  chars: number;
  bytes: Uint8Array<ArrayBuffer> | null;
  used: number;
}

/** Characters per batch. */
const BATCH_CHARS = 256 * 1024;
/** Batches a worker holds at once: one being counted, one ready behind it. */
const AHEAD = 2;
const MAX_WORKERS = 4;
/** Size of a new byte buffer (a batch whose bytes need more gets a larger one). */
const FIRST_BUFFER_BYTES = 1024 * 1024;
/** Buffers kept for reuse, once moved back: about as many as batches wait or are counted at once. */
const SPARE_BUFFERS = 16;

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
  const waiting = new Map<TokenizerTable, FillingBatch>();
  /** Buffers moved back by the workers, to carry the next batches' bytes. */
  const spares: ArrayBuffer[] = [];
  const bufferFor = (bytes: number): Uint8Array<ArrayBuffer> => {
    const index = spares.findIndex((spare) => spare.byteLength >= bytes);
    if (index >= 0) return new Uint8Array(spares.splice(index, 1)[0]!);
    return new Uint8Array(Math.max(FIRST_BUFFER_BYTES, bytes));
  };
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
      slot.worker.postMessage({ batch: batch.batch, table: batch.table, texts: batch.texts, bytes: batch.bytes } satisfies CountBatch, batch.bytes ? [batch.bytes] : []);
      // The worker has its copy: the texts are let go (decoded texts would otherwise stay alive).
      batch.texts = [];
      batch.bytes = null;
    }
  };

  const start = () => {
    for (let i = 0; i < size; i++) {
      const slot: Slot = { worker: createWorker(), inFlight: 0 };
      slot.worker.onmessage = (event: MessageEvent<CountBatchReply>) => {
        const reply = event.data;
        if (reply.bytes && spares.length < SPARE_BUFFERS) spares.push(reply.bytes);
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
    const filled = pending.bytes;
    const texts = pending.texts.map((text): CountText =>
      typeof text === "string" ? text : text.map((part) => (typeof part === "string" ? part : new Uint8Array(filled!.buffer, part.at, part.length))),
    );
    queue.push({ batch: nextBatch++, table, texts, keys: pending.keys, chars: pending.chars, bytes: filled ? filled.buffer : null });
    waiting.delete(table);
    dispatchAll();
  };

  const filling = (table: TokenizerTable): FillingBatch => {
    let pending = waiting.get(table);
    if (!pending) waiting.set(table, (pending = { texts: [], keys: [], chars: 0, bytes: null, used: 0 }));
    return pending;
  };

  /** Copies `bytes` into the batch's buffer (a larger one when they do not fit) and says where. */
  const placeBytes = (pending: FillingBatch, bytes: Uint8Array): BytePlace => {
    const needed = pending.used + bytes.length;
    if (!pending.bytes || needed > pending.bytes.length) {
      const larger = bufferFor(pending.bytes ? Math.max(needed, pending.bytes.length * 2) : needed);
      if (pending.bytes) {
        larger.set(pending.bytes.subarray(0, pending.used));
        if (spares.length < SPARE_BUFFERS) spares.push(pending.bytes.buffer);
      }
      pending.bytes = larger;
    }
    pending.bytes.set(bytes, pending.used);
    const place = { at: pending.used, length: bytes.length };
    pending.used = needed;
    return place;
  };

  const add = (table: TokenizerTable, pending: FillingBatch, text: string | (string | BytePlace)[], key: string, chars: number) => {
    pending.texts.push(text);
    pending.keys.push(key);
    pending.chars += chars;
    pendingChars += chars;
    if (pending.chars >= BATCH_CHARS) enqueue(table);
  };

  return {
    submit(table, text) {
      add(table, filling(table), text, textDigest(text), text.length);
    },
    submitParts(table, parts, key) {
      const pending = filling(table);
      const { text, chars } = countTextOfParts(parts, (bytes) => placeBytes(pending, bytes));
      add(table, pending, text, key, chars);
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
