// Exact o200k tokenizers on the same texts: gpt-tokenizer 4.0.0, ai-tokenizer 1.0.6 with its own
// o200k module, and the app's counter (ai-tokenizer's encoder over gpt-tokenizer's ranks,
// src/core/tokens/o200kTable.ts), over every distinct text a prefix analysis of a generated pi
// session counts (bench/distinct-texts.ts). Prints how long each takes to load its tables, checks
// that all give the same count for every text and prints each one's time and speed, in one run,
// on one core. Run with `npx tsx bench/tokenizers.bench.ts [--mb N] [--seed S]`
// (default 100 MB, seed 1).
import { rmSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { Tokenizer } from "ai-tokenizer";
import { countTokens as gptCount } from "gpt-tokenizer/encoding/o200k_base";
import { loadTokenizerTables, o200kEncoding } from "../src/core/tokens/tables";
import { generatePiSession } from "./generate-session";
import { distinctTexts, readSessionFile } from "./distinct-texts";

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : Number(process.argv[index + 1]);
}

const megabytes = option("mb", 100);
const seed = option("seed", 1);
const generated = await generatePiSession({ minBytes: megabytes * 1024 * 1024, minTurns: 0, seed });
const texts = distinctTexts(readSessionFile(generated.file));
rmSync(path.dirname(generated.file), { recursive: true, force: true });
const chars = texts.reduce((sum, text) => sum + text.length, 0);
console.log(`session: ${(generated.bytes / 1e6).toFixed(1)} MB, ${generated.turns} turns (seed ${seed}); ${texts.length} distinct texts, ${(chars / 1e6).toFixed(1)} M characters`);

const loadStart = performance.now();
const aiO200k = await import("ai-tokenizer/encoding/o200k_base");
const ai = new Tokenizer(aiO200k);
const aiLoad = performance.now() - loadStart;
const appStart = performance.now();
await loadTokenizerTables(["o200k"]);
const app = o200kEncoding();
console.log(`tables loaded: ai-tokenizer's o200k module ${aiLoad.toFixed(0)} ms; app's table (gpt-tokenizer ranks) ${(performance.now() - appStart).toFixed(0)} ms`);
// Special-token strings in session text are ordinary text to a provider: count them as text.
const candidates: { name: string; count: (text: string) => number }[] = [
  { name: "gpt-tokenizer 4.0.0", count: (text) => gptCount(text, { disallowedSpecial: new Set() }) },
  { name: "ai-tokenizer 1.0.6", count: (text) => ai.encode(text, [], []).length },
  { name: "app (o200kTable.ts)", count: (text) => app.count(text) },
];

// The machine is shared: the texts are cut into slices and both tokenizers run on each slice in
// turn (alternating which goes first), so a change of load hits both alike.
const SLICES = 20;
const results = candidates.map((candidate) => ({ ...candidate, seconds: 0, counts: new Array<number>(texts.length) }));
for (let slice = 0; slice < SLICES; slice++) {
  const from = Math.floor((slice * texts.length) / SLICES);
  const to = Math.floor(((slice + 1) * texts.length) / SLICES);
  const order = slice % 2 === 0 ? results : [...results].reverse();
  for (const result of order) {
    const start = performance.now();
    for (let i = from; i < to; i++) result.counts[i] = result.count(texts[i]!);
    result.seconds += (performance.now() - start) / 1000;
  }
}
for (const result of results) {
  const tokens = result.counts.reduce((sum, count) => sum + count, 0);
  console.log(`${result.name.padEnd(22)} ${result.seconds.toFixed(2)} s, ${(chars / result.seconds / 1e6).toFixed(1)} M chars/s, ${tokens} tokens`);
}

const [first, ...others] = results as [(typeof results)[0], ...(typeof results)[0][]];
let differing = 0;
for (const other of others) {
  const differ = texts.filter((_, i) => first.counts[i] !== other.counts[i]).length;
  differing += differ;
  console.log(`${other.name}: counts differ from ${first.name} on ${differ} of ${texts.length} texts; time ratio ${first.name} / ${other.name}: ${(first.seconds / other.seconds).toFixed(2)}`);
}
if (differing > 0) process.exitCode = 1;
