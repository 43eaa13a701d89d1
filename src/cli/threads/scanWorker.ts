// A scan worker thread: analyses the jobs it is sent, one at a time, and answers each with its line.
import { readFileSync } from "node:fs";
import type { MessagePort } from "node:worker_threads";
import { analyseJob, type ScanOptions } from "../scan/analyse";
import type { ScanJob } from "../scan/discover";
import type { ScanLine } from "../scan/line";

export interface ScanRequest {
  index: number;
  job: ScanJob;
  options: ScanOptions;
}

export interface ScanReply {
  index: number;
  line: ScanLine;
}

const readFile = (file: string) => new Uint8Array(readFileSync(file));

export function runScanWorker(port: MessagePort): void {
  port.on("message", (request: ScanRequest) => {
    void analyseJob(request.job, request.options, readFile).then((line) => {
      const reply: ScanReply = { index: request.index, line };
      port.postMessage(reply);
    });
  });
}
