// `prefix` with exact o200k tokens, whole process (the compiled CLI, threads = cores), against the
// floor the issue sets: tokenizing every distinct text once on one core, divided by the cores —
// both in the same run. With --single it also runs the CLI with `--jobs 1` and checks that both
// print the same bytes. Build first (`npm run build:cli`).
// Run with `npx tsx bench/exact-prefix.bench.ts [--mb N] [--seed S] [--single]` (default 100 MB, seed 1).
import { existsSync, rmSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { o200kCounter } from "../src/core/tokens/counters";
import { timeChild } from "./child-time";
import { generatePiSession } from "./generate-session";
import { distinctTexts, readSessionFile } from "./distinct-texts";
import { loadTokenizerTables } from "../src/core/tokens/tables";

// The core counts synchronously once the hosts have loaded the tokenizer tables.
await loadTokenizerTables(["o200k", "claude"]);

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : Number(process.argv[index + 1]);
}

const bin = "dist-cli/contextscope.mjs";
if (!existsSync(bin)) {
  console.error(`${bin} is missing: run \`npm run build:cli\` first`);
  process.exit(1);
}
const cores = availableParallelism();
const generated = await generatePiSession({ minBytes: option("mb", 100) * 1024 * 1024, minTurns: 0, seed: option("seed", 1) });
console.log(`session: ${(generated.bytes / 1e6).toFixed(1)} MB, ${generated.turns} turns; ${cores} cores`);

const runCli = (args: string[]) => timeChild(process.execPath, [bin, "prefix", generated.file, ...args]);

let texts: string[] | null = distinctTexts(readSessionFile(generated.file));
const chars = texts.reduce((sum, text) => sum + text.length, 0);
const floorStart = performance.now();
const floorCpu = process.cpuUsage();
for (const text of texts) o200kCounter.count(text);
const single = (performance.now() - floorStart) / 1000;
const singleCpu = (() => {
  const used = process.cpuUsage(floorCpu);
  return (used.user + used.system) / 1e6;
})();
texts = null;
console.log(`floor: ${chars / 1e6 | 0} M distinct characters tokenized once on one core: ${single.toFixed(2)} s wall, ${singleCpu.toFixed(2)} s CPU; / ${cores} cores = ${(single / cores).toFixed(2)} s`);

const parallel = runCli([]);
console.log(`contextscope prefix (exact, ${cores} threads): ${parallel.seconds.toFixed(2)} s = ${(parallel.seconds / (single / cores)).toFixed(2)} × floor/cores (target ≤ 1.2); CPU ${parallel.cpuSeconds.toFixed(2)} s = ${(parallel.cpuSeconds / singleCpu).toFixed(2)} × the floor's CPU; peak ${(parallel.peakBytes / 1e6).toFixed(0)} MB`);
if (process.argv.includes("--single")) {
  const one = runCli(["--jobs", "1"]);
  console.log(`contextscope prefix --jobs 1: ${one.seconds.toFixed(2)} s = ${(one.seconds / single).toFixed(2)} × one-core floor, CPU ${one.cpuSeconds.toFixed(2)} s = ${(one.cpuSeconds / singleCpu).toFixed(2)} × the floor's CPU; speed-up ${(one.seconds / parallel.seconds).toFixed(2)}×; same output: ${one.stdout === parallel.stdout}`);
  if (one.stdout !== parallel.stdout) process.exitCode = 1;
}
rmSync(path.dirname(generated.file), { recursive: true, force: true });
