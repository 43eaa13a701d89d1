// Which Zstandard decoder reads deepseek-harness's `session.jsonl.zstd`: a chain of small frames
// (one per write batch, 48 frames for 194 lines in the recorded session), each declaring a 2 MiB
// window and no content size. The input is the recorded artifact repeated (a concatenation of
// frames is itself a valid multi-frame stream): 1,000 copies, 29 MB compressed, 78 MB of text in
// 48,000 frames. Each decoder must return every frame's bytes in order; the time is the best of
// three runs, reported as a ratio to the floor (TextDecoder over the same 78 MB of plain text,
// the cheapest thing a reader does with it anyway).
//
// Run: `npx tsx bench/zstd.bench.ts [copies]`. The decoder the app uses (zstddec's streaming
// build) is a dependency; the others are measured when installed (`npm install --no-save fzstd
// @bokuweb/zstd-wasm` in a scratch copy), otherwise named as not installed.
import { readFileSync } from "node:fs";
import path from "node:path";
import { zstdContainer } from "../src/core/intake/containers/zstd";

const CASE = path.resolve(import.meta.dirname, "../test/fixtures/deepseek-harness/headless-deepseek-manualcompact");
const ARTIFACT = path.join(CASE, "session/--home-dev-dsh-manual-compact-tidewater--/session-dc1086b1-208d-42e8-b3ef-9b8679a11273/session.jsonl.zstd");
const PLAIN = path.join(CASE, "session-decoded/--home-dev-dsh-manual-compact-tidewater--/session-dc1086b1-208d-42e8-b3ef-9b8679a11273/session.jsonl");

const copies = Number(process.argv[2] ?? 1000);
const one = readFileSync(ARTIFACT);
const plainOne = readFileSync(PLAIN);
const compressed = new Uint8Array(one.length * copies);
for (let i = 0; i < copies; i++) compressed.set(one, i * one.length);
const plain = new Uint8Array(plainOne.length * copies);
for (let i = 0; i < copies; i++) plain.set(plainOne, i * plainOne.length);

function best(run: () => number): { ms: number; bytes: number } {
  let ms = Infinity;
  let bytes = 0;
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    bytes = run();
    ms = Math.min(ms, performance.now() - start);
  }
  return { ms, bytes };
}

const decoder = new TextDecoder();
const floor = best(() => decoder.decode(plain).length);
console.log(`input: ${copies} copies, ${(compressed.length / 1e6).toFixed(1)} MB compressed, ${(plain.length / 1e6).toFixed(1)} MB of text`);
console.log(`floor (TextDecoder of the plain text): ${floor.ms.toFixed(0)} ms`);

function report(name: string, result: { ms: number; bytes: number }): void {
  const correct = result.bytes === plain.length ? "all bytes" : `WRONG: ${result.bytes} bytes`;
  console.log(`${name}: ${result.ms.toFixed(0)} ms, ${(result.ms / floor.ms).toFixed(2)}× the floor, ${correct}`);
}

await zstdContainer.loadDecoder();
report("zstddec/stream (used)", best(() => {
  let bytes = 0;
  for (const part of zstdContainer.decode([compressed], "bench", (problem) => { throw new Error(problem.reason); })) bytes += part.length;
  return bytes;
}));

// Optional candidates, imported by a name the bundler and knip do not follow.
async function optional(name: string): Promise<Record<string, unknown> | null> {
  try {
    return (await import(/* @vite-ignore */ name)) as Record<string, unknown>;
  } catch {
    console.log(`${name}: not installed`);
    return null;
  }
}

const fzstd = await optional(["f", "zstd"].join(""));
if (fzstd) report("fzstd decompress", best(() => (fzstd.decompress as (data: Uint8Array) => Uint8Array)(compressed).length));
const boku = await optional(["@bokuweb", "zstd-wasm"].join("/"));
if (boku) {
  await (boku.init as () => Promise<void>)();
  try {
    report("@bokuweb/zstd-wasm decompress", best(() => (boku.decompress as (data: Uint8Array) => Uint8Array)(compressed).length));
  } catch (error) {
    console.log(`@bokuweb/zstd-wasm: fails on this input (${(error as Error).message})`);
  }
}
