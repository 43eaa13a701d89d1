// The body of a CLI worker thread, chosen by workerData.role. The entry file (bin.ts, main.ts)
// calls runWorkerThread() instead of the CLI when it is not on the main thread. A counting thread
// loads only the counter and its table, so it is counting sooner.
import { parentPort, workerData } from "node:worker_threads";
import { o200kCounter } from "../../core/tokens/counters";
import { countTextString } from "../../core/tokens/countText";
import { loadTokenizerTables } from "../../core/tokens/tables";
import { BATCH_CLAIMED_BY_WORKER, BATCH_UNCLAIMED, COUNT_ROLE, SCAN_ROLE, type CountReply, type CountRequest, type ThreadData } from "./roles";
import type { ScanThreadData } from "./scanWorker";

export async function runWorkerThread(): Promise<void> {
  const port = parentPort;
  if (!port) return;
  const role = (workerData as ThreadData | undefined)?.role;
  if (role === COUNT_ROLE) {
    await loadTokenizerTables(["o200k"]);
    port.on("message", (request: CountRequest) => {
      if (Atomics.compareExchange(request.claims, request.slot, BATCH_UNCLAIMED, BATCH_CLAIMED_BY_WORKER) !== BATCH_UNCLAIMED) return;
      const reply: CountReply = { batch: request.batch, counts: request.texts.map((text) => o200kCounter.count(countTextString(text))) };
      port.postMessage(reply);
    });
    return;
  }
  if (role === SCAN_ROLE) {
    // Loaded only here: a counting thread starts without the rest of the core.
    const { runScanWorker } = await import("./scanWorker");
    return runScanWorker(port, workerData as ScanThreadData);
  }
  throw new Error(`unknown worker role ${String(role)}`);
}
