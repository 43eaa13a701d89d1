// What a worker thread of the CLI is started for (workerData.role), and the messages of each role.

/** Exact o200k counts of batches of texts (tokenPool.ts). */
export const COUNT_ROLE = "o200k-count";

export interface CountRequest {
  batch: number;
  texts: string[];
}

export interface CountReply {
  batch: number;
  counts: number[];
}

export interface ThreadData {
  role: string;
}

/** One scan job analysed per message (src/cli/scan). */
export const SCAN_ROLE = "scan";
