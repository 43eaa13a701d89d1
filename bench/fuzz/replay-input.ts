// `npx tsx bench/fuzz/replay-input.ts <file> [variant]`: runs one saved fuzz input through the
// same stages in this process and prints where it failed, with the whole stack (for debugging a
// failure the fuzz run reported; the run saves each failing input to a file).
import { readFileSync } from "node:fs";
import path from "node:path";
import { exerciseInput, STAGE_MS } from "./exercise";

const [file, variant] = process.argv.slice(2);
if (!file) {
  process.stderr.write("usage: npx tsx bench/fuzz/replay-input.ts <file> [variant]\n");
  process.exit(2);
}
// Saved inputs are named <kind>-<fixture>-<family>-<seed>-<original file name>: the seed picks the variant.
const seed = Number(/-(\d+)-[^-]*$/.exec(path.basename(file))?.[1] ?? path.basename(file).split("-").find((part) => /^\d{6,}$/.test(part)) ?? 0);
const fileName = path.basename(file).replace(/^.*?-\d{6,}-/, "");
const started = Date.now();
try {
  const result = exerciseInput(fileName, readFileSync(file, "utf8"), { variant: variant !== undefined ? Number(variant) : seed });
  process.stdout.write(`ok: ${result.session.entries.length} entries, ${result.session.warnings.length} warnings, ${result.turns} turns, ${Date.now() - started} ms\n`);
} catch (error) {
  process.stdout.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
}
process.stdout.write(`${[...STAGE_MS].map(([stage, ms]) => `${stage} ${ms} ms`).join(", ")}\n`);
