// The browser's token pool (src/worker/tokenPool.ts): its scheduling, with the counting workers
// replaced by an in-process transport that answers like count.worker.ts (the real workers are
// exercised by the e2e journey exact-counts.spec.ts). Every text gets its table's count (o200k,
// or the Claude vocabulary), over several rounds; batches wait while the user is stepping; a
// worker's failure and a close() end a pending finish() instead of leaving it waiting.
import { beforeAll, describe, expect, it } from "vitest";
import { countClaudeVocabulary } from "../../src/core/tokens/claude";
import { o200kCounter } from "../../src/core/tokens/counters";
import { loadTokenizerTables } from "../../src/core/tokens/tables";
import { countTextString } from "../../src/core/tokens/countText";
import { createBrowserTokenPool, tokenPoolSize, type CountBatch, type CountBatchReply } from "../../src/worker/tokenPool";
import { createTextStore, releaseTextStore, storedTextBytes } from "../../src/core/text/storedText";
import { partsDigest } from "../../src/core/tokens/textDigest";
import { storeLiteralBytes } from "../support/stored-texts";
import { textDigest } from "../../src/core/tokens/textDigest";

class InProcessCounter {
  onmessage: ((event: MessageEvent<CountBatchReply>) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  posted = 0;
  moved: ArrayBuffer[] = [];
  byteParts: Uint8Array[] = [];
  constructor(private readonly fail = false) {}
  postMessage(batch: CountBatch, transfer: ArrayBuffer[] = []): void {
    this.posted++;
    this.moved.push(...transfer);
    for (const text of batch.texts) if (typeof text !== "string") for (const part of text) if (typeof part !== "string") this.byteParts.push(part);
    setTimeout(() => {
      const reply: CountBatchReply = this.fail ? { batch: batch.batch, error: "table missing", bytes: batch.bytes } : { batch: batch.batch, counts: batch.texts.map(countTextString).map((text) => (batch.table === "o200k" ? o200kCounter.count(text) : countClaudeVocabulary(text))), bytes: batch.bytes };
      this.onmessage?.({ data: reply } as MessageEvent<CountBatchReply>);
    }, 1);
  }
  terminate(): void {}
}

function texts(count: number, seed: string): string[] {
  return Array.from({ length: count }, (_, i) => `${seed} ${i}: ${"한국어 tokens ✓ naïve ".repeat(1 + (i % 40))}`);
}

beforeAll(() => loadTokenizerTables(["o200k", "claude"]));

describe("browser token pool", () => {
  it("sends a text kept as bytes as a copy of its bytes, moved to the worker, and keeps its count under the parts' key", async () => {
    const workers: InProcessCounter[] = [];
    const pool = createBrowserTokenPool(1, () => {
      const worker = new InProcessCounter();
      workers.push(worker);
      return worker as unknown as Worker;
    });
    const store = createTextStore();
    const text = "Bonjour 한국어 \"quoted\" ✓\n".repeat(50);
    const stored = storeLiteralBytes(store, new TextEncoder().encode(JSON.stringify(text).slice(1, -1)));
    const parts = ["Question: ", stored] as const;
    pool.submitParts("o200k", parts, partsDigest(parts));
    const counts = await pool.finish();
    expect(counts.get("o200k")?.get(partsDigest(parts))).toBe(o200kCounter.count(`Question: ${text}`));
    // One buffer moved, holding the text's escaped bytes; the store's own bytes stay as they were.
    const worker = workers[0]!;
    expect(worker.moved).toHaveLength(1);
    expect(worker.byteParts).toHaveLength(1);
    expect(worker.byteParts[0]!.buffer).toBe(worker.moved[0]);
    expect(new TextDecoder().decode(worker.byteParts[0])).toBe(JSON.stringify(text).slice(1, -1));
    expect(new TextDecoder().decode(storedTextBytes(stored))).toBe(JSON.stringify(text).slice(1, -1));
    // The buffer came back with the answer and carries the next batch's bytes: no new buffer.
    const other = storeLiteralBytes(store, new TextEncoder().encode("another text ".repeat(200)));
    const next = ["Next: ", other] as const;
    pool.submitParts("o200k", next, partsDigest(next));
    const again = await pool.finish();
    expect(again.get("o200k")?.get(partsDigest(next))).toBe(o200kCounter.count(`Next: ${"another text ".repeat(200)}`));
    expect(worker.moved).toHaveLength(2);
    expect(worker.moved[1]).toBe(worker.moved[0]);
    // A batch whose bytes outgrow its buffer moves to a larger one, the parts already placed with it.
    const small = storeLiteralBytes(store, new TextEncoder().encode("small ".repeat(300)));
    const large = storeLiteralBytes(store, new TextEncoder().encode("large 한국어 ".repeat(120_000)));
    pool.submitParts("o200k", [small], partsDigest([small]));
    pool.submitParts("o200k", ["Big: ", large], partsDigest(["Big: ", large]));
    const grown = await pool.finish();
    expect(large.byteLength).toBeGreaterThan(1024 * 1024);
    expect(grown.get("o200k")?.get(partsDigest([small]))).toBe(o200kCounter.count("small ".repeat(300)));
    expect(grown.get("o200k")?.get(partsDigest(["Big: ", large]))).toBe(o200kCounter.count(`Big: ${"large 한국어 ".repeat(120_000)}`));
    releaseTextStore(store);
    pool.close();
  });

  it("counts every text with its table, over two rounds, on every worker", async () => {
    const workers: InProcessCounter[] = [];
    const pool = createBrowserTokenPool(2, () => {
      const worker = new InProcessCounter();
      workers.push(worker);
      return worker as unknown as Worker;
    });
    const first = texts(3_000, "first");
    const forClaude = texts(1_000, "claude");
    for (const text of first) pool.submit("o200k", text);
    for (const text of forClaude) pool.submit("claude", text);
    const afterFirst = new Map((await pool.finish()).get("o200k"));
    for (const text of first) expect(afterFirst.get(textDigest(text))).toBe(o200kCounter.count(text));
    const second = texts(500, "second");
    for (const text of second) pool.submit("o200k", text);
    const afterSecond = await pool.finish();
    expect(afterSecond.get("o200k")?.size).toBe(first.length + second.length);
    for (const text of second) expect(afterSecond.get("o200k")?.get(textDigest(text))).toBe(o200kCounter.count(text));
    // The Claude vocabulary's counts, unscaled, kept apart from o200k's.
    expect(afterSecond.get("claude")?.size).toBe(forClaude.length);
    for (const text of forClaude) expect(afterSecond.get("claude")?.get(textDigest(text))).toBe(countClaudeVocabulary(text));
    expect(forClaude.some((text) => countClaudeVocabulary(text) !== o200kCounter.count(text))).toBe(true);
    expect(workers).toHaveLength(2);
    expect(workers.every((worker) => worker.posted > 0)).toBe(true);
    pool.close();
  });

  it("answers finish() calls that overlap (passes of two options at once) once every batch is counted", async () => {
    const pool = createBrowserTokenPool(1, () => new InProcessCounter() as unknown as Worker);
    const first = texts(1_500, "overlap-a");
    for (const text of first) pool.submit("o200k", text);
    const earlier = pool.finish();
    const second = texts(1_500, "overlap-b");
    for (const text of second) pool.submit("o200k", text);
    const later = pool.finish();
    const [a, b] = await Promise.all([earlier, later]);
    for (const text of first) expect(a.get("o200k")?.get(textDigest(text))).toBe(o200kCounter.count(text));
    for (const text of second) expect(b.get("o200k")?.get(textDigest(text))).toBe(o200kCounter.count(text));
    pool.close();
  });

  it("holds batches back while the user is stepping", async () => {
    const worker = new InProcessCounter();
    let stepping = true;
    const pool = createBrowserTokenPool(1, () => worker as unknown as Worker, () => (stepping ? 30 : 0));
    for (const text of texts(2_000, "held")) pool.submit("o200k", text);
    const finished = pool.finish();
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(worker.posted).toBe(0);
    stepping = false;
    expect((await finished).get("o200k")?.size).toBe(2_000);
    expect(worker.posted).toBeGreaterThan(0);
    pool.close();
  });

  it("ends a pending finish() when a worker fails or the pool is closed", async () => {
    const failing = createBrowserTokenPool(1, () => new InProcessCounter(true) as unknown as Worker);
    for (const text of texts(2_000, "fail")) failing.submit("o200k", text);
    await expect(failing.finish()).rejects.toThrow(/table missing/);
    failing.close();
    const closed = createBrowserTokenPool(1, () => new InProcessCounter() as unknown as Worker, () => 10_000);
    for (const text of texts(2_000, "closed")) closed.submit("claude", text);
    const pending = closed.finish();
    closed.close();
    await expect(pending).rejects.toThrow(/stopped/);
  });

  it("lets a naming walk wait until the texts not yet counted fall under a bound, holding none it has sent", async () => {
    const pool = createBrowserTokenPool(1, () => new InProcessCounter() as unknown as Worker);
    const named = texts(400, "bounded");
    const chars = named.reduce((sum, text) => sum + text.length, 0);
    for (const text of named) pool.submit("o200k", text);
    let below = false;
    const waiting = pool.belowPending(1_000).then(() => (below = true));
    // Nothing is counted before the workers answer: the walk is still held.
    expect(below).toBe(false);
    expect(chars).toBeGreaterThan(1_000);
    await waiting;
    expect(below).toBe(true);
    const counts = (await pool.finish()).get("o200k")!;
    for (const text of named) expect(counts.get(textDigest(text))).toBe(o200kCounter.count(text));
    // Under the bound already: no wait.
    await expect(pool.belowPending(1)).resolves.toBeUndefined();
  });

  it("keys counts by a digest that tells texts apart and is the same for the same characters", () => {
    const named = texts(2_000, "digest");
    expect(new Set(named.map(textDigest)).size).toBe(named.length);
    expect(textDigest("a".repeat(5000))).not.toBe(textDigest("a".repeat(4999) + "b"));
    expect(textDigest(`${"x".repeat(10)}`)).toBe(textDigest("xxxxxxxxxx"));
  });

  it("is sized to the machine: one worker per core, at least one, at most four", () => {
    expect(tokenPoolSize(2)).toBe(2);
    expect(tokenPoolSize(1)).toBe(1);
    expect(tokenPoolSize(8)).toBe(4);
    expect(tokenPoolSize(undefined)).toBe(2);
  });
});
