// A counting Web Worker of the browser's token pool (./tokenPool.ts): the counts of the batches of
// texts the pipeline worker sends, each with its table (exact o200k, or the Claude vocabulary
// unscaled); a text kept as bytes comes as its bytes and is decoded here, and the buffer holding
// them goes back with the answer. It loads a table on the first batch that needs it, so the
// pipeline worker neither loads it nor counts, and keeps answering the page meanwhile.
import { countClaudeVocabulary } from "../core/tokens/claude";
import { o200kCounter } from "../core/tokens/counters";
import { loadTokenizerTables } from "../core/tokens/tables";
import { countTextString } from "../core/tokens/countText";
import type { CountBatch, CountBatchReply } from "./tokenPool";

self.onmessage = async (event: MessageEvent<CountBatch>) => {
  const { batch, table, texts, bytes } = event.data;
  // The batch's byte buffer goes back with the answer, to carry a later batch.
  const moved = bytes ? [bytes] : [];
  try {
    await loadTokenizerTables([table]);
    const count = table === "o200k" ? (text: string) => o200kCounter.count(text) : countClaudeVocabulary;
    const reply: CountBatchReply = { batch, counts: texts.map((text) => count(countTextString(text))), bytes };
    self.postMessage(reply, moved);
  } catch (error) {
    const reply: CountBatchReply = { batch, error: error instanceof Error ? error.message : String(error), bytes };
    self.postMessage(reply, moved);
  }
};
