// A scan worker thread: takes jobs from the shared list, one at a time, until none is left, and
// answers each with its line. The next job's index comes from a counter shared by every thread
// (Atomics.add on a SharedArrayBuffer), so a thread never waits for the main thread to hand it
// work, and the list (largest first) balances itself: whoever is free takes the next one. A job
// the summary pass makes alone (scan/summaryJob.ts) is made without loading the core.
import { readFileSync } from "node:fs";
import type { MessagePort } from "node:worker_threads";
import type { ScanOptions } from "../scan/analyse";
import type { ScanJob } from "../scan/discover";
import type { ScanLine } from "../scan/line";
import { reusedBufferReader } from "../scan/readPool";
import { summaryJobLine } from "../scan/summaryJob";

/** What a scan thread is started with (workerData, beside its role). */
export interface ScanThreadData {
  jobs: ScanJob[];
  options: ScanOptions;
  /** One Int32: the index of the next job to take. */
  next: SharedArrayBuffer;
}

export type ScanReply = { index: number; line: ScanLine } | { done: true };

const readFile = (file: string) => new Uint8Array(readFileSync(file));

/** The next job index of the shared counter, or null when every job is taken. */
export function takeJob(next: Int32Array, total: number): number | null {
  const index = Atomics.add(next, 0, 1);
  return index < total ? index : null;
}

export async function runScanWorker(port: MessagePort, data: ScanThreadData): Promise<void> {
  const next = new Int32Array(data.next);
  const readJobFiles = reusedBufferReader();
  for (let index = takeJob(next, data.jobs.length); index !== null; index = takeJob(next, data.jobs.length)) {
    const job = data.jobs[index]!;
    // The whole core is loaded (once) only for a job the summary pass alone cannot make.
    let line = data.options.full ? undefined : summaryJobLine(job, readJobFiles);
    if (!line) {
      const { analyseJob } = await import("../scan/analyse");
      line = await analyseJob(job, data.options, readFile, readJobFiles);
    }
    port.postMessage({ index, line } satisfies ScanReply);
  }
  port.postMessage({ done: true } satisfies ScanReply);
}
