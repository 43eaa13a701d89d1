// A counting Web Worker of the browser's token pool (./tokenPool.ts): exact o200k counts of the
// batches of texts the pipeline worker sends. It loads the o200k table on its first batch, so the
// pipeline worker neither loads it nor counts, and keeps answering the page meanwhile.
import { o200kCounter } from "../core/tokens/counters";
import { loadTokenizerTables } from "../core/tokens/tables";
import type { CountBatch, CountBatchReply } from "./tokenPool";

self.onmessage = async (event: MessageEvent<CountBatch>) => {
  const { batch, texts } = event.data;
  try {
    await loadTokenizerTables(["o200k"]);
    const reply: CountBatchReply = { batch, counts: texts.map((text) => o200kCounter.count(text)) };
    self.postMessage(reply);
  } catch (error) {
    const reply: CountBatchReply = { batch, error: error instanceof Error ? error.message : String(error) };
    self.postMessage(reply);
  }
};
