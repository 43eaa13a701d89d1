// What a worker thread of the CLI is started for (workerData.role), and the messages of each role.
import type { CountText } from "../../core/tokens/countText";

/** Exact o200k counts of batches of texts (tokenPool.ts). */
export const COUNT_ROLE = "o200k-count";

/**
 * A batch to count. `claims[slot]` is shared by every thread: whoever changes it from
 * BATCH_UNCLAIMED first counts the batch; a worker that finds it claimed skips it and sends no
 * reply.
 */
export interface CountRequest {
  batch: number;
  texts: CountText[];
  claims: Int32Array;
  slot: number;
}

export const BATCH_UNCLAIMED = 0;
export const BATCH_CLAIMED_BY_WORKER = 1;
export const BATCH_CLAIMED_BY_CALLER = 2;

export interface CountReply {
  batch: number;
  counts: number[];
}

export interface ThreadData {
  role: string;
}

/** One scan job analysed per message (src/cli/scan). */
export const SCAN_ROLE = "scan";
