// Runs scan jobs, largest first, on `threads` threads: this thread and `threads - 1` worker
// threads, all taking the next job from one shared counter (threads/scanWorker.ts), so no thread
// waits for another to hand out work and the tokenizer tables and the core are loaded once per
// thread, not per job. One thread, or no worker entry (the CLI run in-process): one after another
// here. `onLine` gets each line as its job finishes.
import { Worker } from "node:worker_threads";
import { threadEntry } from "../threads/entry";
import { SCAN_ROLE, type ThreadData } from "../threads/roles";
import { takeJob, type ScanReply, type ScanThreadData } from "../threads/scanWorker";
import type { CliIo } from "../io";
import { analyseJob, type ScanOptions } from "./analyse";
import type { ScanJob } from "./discover";
import type { ScanLine } from "./line";
import { reusedBufferReader } from "./readPool";

/** Lets the event loop deliver the worker threads' lines between this thread's own jobs. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function runScanJobs(
  jobs: readonly ScanJob[],
  options: ScanOptions & { threads: number },
  readFile: CliIo["readFile"],
  onLine: (line: ScanLine) => void,
): Promise<void> {
  const order = [...jobs].sort((a, b) => b.bytes - a.bytes);
  const entry = threadEntry();
  const size = Math.min(options.threads, order.length);
  const scanOptions: ScanOptions = { tokenizer: options.tokenizer, full: options.full };
  const readJobFiles = reusedBufferReader();
  if (size < 2 || !entry) {
    for (const job of order) onLine(await analyseJob(job, scanOptions, readFile, readJobFiles));
    return;
  }
  const next = new SharedArrayBuffer(4);
  const data: ThreadData & ScanThreadData = { role: SCAN_ROLE, jobs: order, options: scanOptions, next };
  const workers: Worker[] = [];
  let failure: Error | null = null;
  let running = size - 1;
  let workersDone: () => void = () => undefined;
  const allDone = new Promise<void>((resolve) => (workersDone = resolve));
  for (let i = 0; i < size - 1; i++) {
    const worker = new Worker(entry, { workerData: data });
    workers.push(worker);
    worker.on("message", (reply: ScanReply) => {
      if ("done" in reply) {
        if (--running === 0) workersDone();
      } else onLine(reply.line);
    });
    worker.on("error", (error) => {
      failure ??= error;
      workersDone();
    });
  }
  try {
    const shared = new Int32Array(next);
    for (let index = takeJob(shared, order.length); index !== null && !failure; index = takeJob(shared, order.length)) {
      onLine(await analyseJob(order[index]!, scanOptions, readFile, readJobFiles));
      await nextTurn();
    }
    await allDone;
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
  if (failure) throw failure;
}
