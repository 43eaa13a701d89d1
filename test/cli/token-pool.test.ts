// The token pool of the CLI (src/cli/threads/tokenPool.ts) on a real worker thread (the
// development entry, under tsx): every text submitted gets o200kCounter's count whichever thread
// counted it, texts submitted after a finish() are counted in the next round, and each batch is
// counted by one thread only (the worker skips what the caller claimed). The characters waiting to
// be counted (what a walk naming texts bounds) fall to none as batches are counted.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setThreadEntry } from "../../src/cli/threads/entry";
import { createTokenPool, type TokenPool } from "../../src/cli/threads/tokenPool";
import { o200kCounter } from "../../src/core/tokens/counters";
import { loadTokenizerTables } from "../../src/core/tokens/tables";
import { partsDigest, textDigest } from "../../src/core/tokens/textDigest";
import { createTextStore, releaseTextStore } from "../../src/core/text/storedText";
import { textString, type Text } from "../../src/core/text/text";
import { storeLiteralBytes } from "../support/stored-texts";

/** Distinct texts of about `chars` characters each, mixing scripts so the counts are not chars/4. */
function texts(count: number, chars: number, seed: string): string[] {
  const words = ["token", "pool", "한국어", "✓", "cache", "42", "\n", "  indent", "naïve"];
  return Array.from({ length: count }, (_, i) => {
    let text = `${seed}-${i}:`;
    for (let w = 0; text.length < chars; w++) text += `${words[(i * 7 + w * 3) % words.length]} `;
    return text;
  });
}

describe("token pool", () => {
  let pool: TokenPool;
  beforeAll(async () => {
    await loadTokenizerTables(["o200k"]);
    setThreadEntry(new URL("../../src/cli/threads/dev-entry.mjs", import.meta.url));
    pool = createTokenPool(2)!;
  });
  afterAll(async () => {
    await pool?.close();
  });

  it("counts texts made of stored parts from their bytes, on the worker and the caller, under their parts' keys", async () => {
    const store = createTextStore();
    const encoder = new TextEncoder();
    // 3 M characters of stored texts: both threads count some of them.
    const made = texts(1_500, 2_000, "stored").map((text, i): Text[] => [`part ${i}: `, storeLiteralBytes(store, encoder.encode(JSON.stringify(text).slice(1, -1)))]);
    const own = createTokenPool(2)!;
    own.start();
    for (const parts of made) own.submitParts(parts, partsDigest(parts));
    const deadline = Date.now() + 60_000;
    while (own.batchesByWorkers === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    const counts = await own.finish();
    expect(own.batchesByWorkers).toBeGreaterThan(0);
    expect(counts.size).toBe(made.length);
    for (const parts of made) expect(counts.get(partsDigest(parts))).toBe(o200kCounter.count(parts.map(textString).join("")));
    await own.close();
    releaseTextStore(store);
  });

  it("counts every text exactly, over two rounds, on the worker and the caller", async () => {
    expect(pool).not.toBeNull();
    pool.start();
    expect(pool.started).toBe(1);
    // 3 M characters: several batches, so the worker and the caller both take some.
    const first = texts(1_500, 2_000, "first");
    for (const text of first) pool.submit(text);
    // The worker counts without being asked: its batches were posted as they filled up.
    const deadline = Date.now() + 60_000;
    while (pool.batchesByWorkers === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(pool.batchesByWorkers).toBeGreaterThan(0);
    const afterFirst = new Map(await pool.finish());
    for (const text of first) expect(afterFirst.get(textDigest(text))).toBe(o200kCounter.count(text));
    const second = texts(600, 2_000, "second");
    for (const text of second) pool.submit(text);
    const afterSecond = await pool.finish();
    for (const text of [...first, ...second]) expect(afterSecond.get(textDigest(text))).toBe(o200kCounter.count(text));
    expect(afterSecond.size).toBe(first.length + second.length);
  }, 120_000);

  it("counts as the caller asks: counted batches are known in order, and the caller counts some itself", async () => {
    const before = pool.batchesSubmitted;
    expect(pool.countedBelow(before)).toBe(true);
    const third = texts(1_200, 2_000, "third");
    const marks: number[] = [];
    for (const text of third) {
      pool.submit(text);
      marks.push(pool.batchesSubmitted);
    }
    expect(pool.batchesSubmitted).toBeGreaterThan(before + 2);
    expect(marks).toEqual([...marks].sort((a, b) => a - b));
    pool.flush();
    let countedHere = 0;
    for (let i = 0; i < third.length; i++) {
      while (!pool.countedBelow(marks[i]!)) {
        if (pool.countNext()) countedHere++;
        else await pool.nextReply();
      }
      // Every text submitted up to this one is counted once its batches are.
      expect(pool.counts.get(textDigest(third[i]!))).toBe(o200kCounter.count(third[i]!));
    }
    expect(countedHere).toBeGreaterThan(0);
    expect(pool.countNext()).toBe(false);
    expect(pool.countedBelow(pool.batchesSubmitted)).toBe(true);
  }, 120_000);

  it("says how many characters wait to be counted, posted or not, and none once all are counted", async () => {
    expect(pool.pendingChars).toBe(0);
    const fourth = texts(800, 2_000, "fourth");
    let submitted = 0;
    for (const text of fourth) {
      pool.submit(text);
      submitted += text.length;
    }
    // Nothing can have been counted: this thread has not returned to the event loop since.
    expect(pool.pendingChars).toBe(submitted);
    pool.flush();
    expect(pool.pendingChars).toBe(submitted);
    let previous = pool.pendingChars;
    while (pool.pendingChars > 0) {
      if (!pool.countNext()) await pool.nextReply();
      expect(pool.pendingChars).toBeLessThan(previous);
      previous = pool.pendingChars;
    }
    for (const text of fourth) expect(pool.counts.get(textDigest(text))).toBe(o200kCounter.count(text));
  }, 120_000);

  it("is not made for one thread: the caller counts alone", () => {
    expect(createTokenPool(1)).toBeNull();
  });
});
