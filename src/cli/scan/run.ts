// Runs scan jobs, largest first, on `threads` worker threads (one job per thread at a time, the
// next one sent when a thread answers), or one after another on this thread when there is one
// thread or no worker entry (the CLI run in-process). `onLine` gets each line as its job finishes.
import { Worker } from "node:worker_threads";
import { threadEntry } from "../threads/entry";
import { SCAN_ROLE, type ThreadData } from "../threads/roles";
import type { ScanReply, ScanRequest } from "../threads/scanWorker";
import type { CliIo } from "../io";
import { analyseJob, type ScanOptions } from "./analyse";
import type { ScanJob } from "./discover";
import type { ScanLine } from "./line";

export async function runScanJobs(
  jobs: readonly ScanJob[],
  options: ScanOptions & { threads: number },
  readFile: CliIo["readFile"],
  onLine: (line: ScanLine) => void,
): Promise<void> {
  const order = [...jobs].sort((a, b) => b.bytes - a.bytes);
  const entry = threadEntry();
  const size = Math.min(options.threads, order.length);
  const scanOptions: ScanOptions = { tokenizer: options.tokenizer };
  if (size < 2 || !entry) {
    for (const job of order) onLine(await analyseJob(job, scanOptions, readFile));
    return;
  }
  let next = 0;
  await new Promise<void>((resolve, reject) => {
    let running = 0;
    const workers: Worker[] = [];
    const finish = (error?: Error) => {
      for (const worker of workers) void worker.terminate();
      if (error) reject(error);
      else resolve();
    };
    const feed = (worker: Worker) => {
      if (next >= order.length) {
        if (running === 0) finish();
        return;
      }
      const request: ScanRequest = { index: next, job: order[next]!, options: scanOptions };
      next++;
      running++;
      worker.postMessage(request);
    };
    for (let i = 0; i < size; i++) {
      const worker = new Worker(entry, { workerData: { role: SCAN_ROLE } satisfies ThreadData });
      workers.push(worker);
      worker.on("message", (reply: ScanReply) => {
        running--;
        onLine(reply.line);
        feed(worker);
      });
      worker.on("error", (error) => finish(error));
    }
    for (const worker of workers) feed(worker);
  });
}
