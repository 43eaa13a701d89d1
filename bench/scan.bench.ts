// `scan` over a generated collection of 200 sessions of mixed agents and sizes: half generated pi
// sessions (bench/generate-session.ts, one seed each), half copies of the committed fixtures of
// Claude Code, Codex, opencode (export JSON), pi and senpi, laid out as the agents write them.
// The generated sizes follow `--mix`: "collection" (default) spreads them log-uniformly over
// 0.1–10 MB, a mean of about 2 MB a session like the 6.3 GB / 3,067-file Codex collection a user
// reported; "small" keeps them at 0.1–1 MB (55 MB in all), where each thread's start-up and
// warm-up weigh most. Runs the compiled CLI's scan with one thread per core and with `--jobs 1`
// (the same sessions one after another), in the same run, and reports sessions per second and
// their ratio against the target 0.8 × cores. Checks both print the same lines (sorted).
// Build first (`npm run build:cli`).
// Run with `npx tsx bench/scan.bench.ts [--sessions N] [--mix collection|small] [--exact]`.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { timeChild } from "./child-time";
import { generatePiSession } from "./generate-session";

const bin = "dist-cli/contextscope.mjs";
if (!existsSync(bin)) {
  console.error(`${bin} is missing: run \`npm run build:cli\` first`);
  process.exit(1);
}
const countIndex = process.argv.indexOf("--sessions");
const total = countIndex === -1 ? 200 : Number(process.argv[countIndex + 1]);
const tokenizer = process.argv.includes("--exact") ? "auto" : "estimate";
const mixIndex = process.argv.indexOf("--mix");
const mix = mixIndex === -1 ? "collection" : process.argv[mixIndex + 1];
if (mix !== "collection" && mix !== "small") throw new Error(`--mix ${mix}: expected collection or small`);

/** Bytes of the i-th generated session (deterministic). */
function generatedBytes(i: number): number {
  if (mix === "small") return 100_000 + ((i * 7919) % 900_000);
  // Log-uniform over 0.1–10 MB, spread by the golden ratio so sizes of every range come early.
  const spread = (i * 0.6180339887) % 1;
  return Math.round(100_000 * 100 ** spread);
}
const cores = availableParallelism();

const FIXTURES = [
  "test/fixtures/claude/print-autocompact-manualcompact/session/projects/-home-dev-claude-print-autocompact-manualcompact-lighthouse-notes/ae06c21a-08ae-4c39-89e0-c4dcf08d14e8.jsonl",
  "test/fixtures/codex/exec-autocompact/session/sessions/2026/11/29/rollout-2026-11-29T19-25-29-01a228c5-0111-7641-8ea4-161c4b3a44d5.jsonl",
  "test/fixtures/opencode/run-autocompact/session/export.json",
  "test/fixtures/pi/rpc-anthropic-manualcompact/session/--home-dev-pi-rpc-anthropic-manualcompact-lighthouse-notes--/2026-11-29T19-25-11-888Z_01a228c4-bd4f-721d-a5de-0c91492dc264.jsonl",
  "test/fixtures/senpi/print-openai-autocompact/session/--home-dev-senpi-print-openai-autocompact-lighthouse-notes--/2026-11-29T19-40-31-741Z_01a228d2-c67d-7485-8867-b6e4b6363a66.jsonl",
];

const corpus = mkdtempSync(path.join(tmpdir(), "contextscope-scan-bench-"));
let bytes = 0;
for (let i = 0; i < total; i++) {
  if (i % 2 === 0) {
    const generated = await generatePiSession({ minBytes: generatedBytes(i), minTurns: 0, seed: i + 1 });
    const dir = path.join(corpus, "pi", `project-${i % 7}`);
    mkdirSync(dir, { recursive: true });
    renameSync(generated.file, path.join(dir, `session-${i}.jsonl`));
    rmSync(path.dirname(generated.file), { recursive: true, force: true });
    bytes += generated.bytes;
  } else {
    const source = FIXTURES[(i >> 1) % FIXTURES.length]!;
    const dir = path.join(corpus, `copy-${i}`, path.dirname(source.split("/session/")[1]!));
    mkdirSync(dir, { recursive: true });
    copyFileSync(source, path.join(dir, path.basename(source)));
  }
}
console.log(`corpus (${mix}): ${total} sessions (${(bytes / 1e6).toFixed(0)} MB generated pi + fixture copies); ${cores} cores; tokenizer ${tokenizer}`);

function scan(threads: number) {
  const run = timeChild(process.execPath, [bin, "scan", corpus, "--tokenizer", tokenizer, "--jobs", String(threads)]);
  const lines = run.stdout.split("\n").filter(Boolean).sort();
  if (lines.length !== total) throw new Error(`scan printed ${lines.length} lines for ${total} sessions`);
  return { ...run, lines };
}

const sequential = scan(1);
const parallel = scan(cores);
const rate = (seconds: number) => total / seconds;
console.log(`sequential (--jobs 1): ${sequential.seconds.toFixed(2)} s, ${rate(sequential.seconds).toFixed(1)} sessions/s, CPU ${sequential.cpuSeconds.toFixed(2)} s`);
console.log(`parallel (--jobs ${cores}): ${parallel.seconds.toFixed(2)} s, ${rate(parallel.seconds).toFixed(1)} sessions/s, CPU ${parallel.cpuSeconds.toFixed(2)} s`);
console.log(`CPU of the parallel run / sequential: ${(parallel.cpuSeconds / sequential.cpuSeconds).toFixed(2)} (the threads' overhead, independent of the machine's load)`);
const speedup = sequential.seconds / parallel.seconds;
console.log(`speed-up ${speedup.toFixed(2)}× = ${(speedup / cores).toFixed(2)} × cores (target ≥ 0.8 × cores); same lines: ${sequential.lines.join() === parallel.lines.join()}`);
if (sequential.lines.join() !== parallel.lines.join()) process.exitCode = 1;
rmSync(corpus, { recursive: true, force: true });
