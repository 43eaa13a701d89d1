// Benchmark of compaction settings inference (the simulator's "Settings consistent with this
// session"): the target is bounds within 2 s on the largest real files, in the app's worker. Reads
// the shared real files (default: realworld/pi/pi-mono-large-session-v1.jsonl, 453 turns, no
// compaction; before the trigger-only runs it took 54 s) and reports, per file and for the session's
// own policy:
//   floor      reading the file and JSON.parse of every line
//   read       reading the session with the app's reader
//   first      the first 120 ms slice the app's worker runs (the bounds the panel shows first)
//   complete   the whole inference, slice by slice as the worker runs it
// and the ratio of the complete inference to the floor. A benchmark, not a test: it prints figures.
// Run with `npx tsx bench/settings-inference.bench.ts [shared-relative-file …]`.
import { readFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { loadTokenizerTables } from "../src/core/tokens/tables";
import { readSessionText } from "../src/core/session/read";
import { sessionPolicy, startInference } from "../src/core/session/simulate/index";
import type { PipelineOptions } from "../src/core/model";

await loadTokenizerTables(["o200k", "claude"]);

const SHARED = process.env.CONTEXTSCOPE_SHARED_FIXTURES ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../shared/fixtures");
const FILES = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ["realworld/pi/pi-mono-large-session-v1.jsonl", "realworld/claude-code/entire-bccb-2compactions-subagents.jsonl", "realworld/codex/acidicsoil-legacy-2025-09.jsonl"];
const SLICE_MS = 120;
const TARGET_MS = 2000;

function floor(text: string): number {
  const start = performance.now();
  for (const line of text.split("\n")) if (line.trim()) JSON.parse(line);
  return performance.now() - start;
}

for (const relative of FILES) {
  const file = path.join(SHARED, relative);
  const text = readFileSync(file, "utf8");
  const floorMs = floor(text);
  let start = performance.now();
  const session = readSessionText(text, path.basename(file));
  const readMs = performance.now() - start;
  const options: PipelineOptions = { profile: "pi" };
  const policy = sessionPolicy(session, options.profile);
  if (!policy) {
    console.log(`${relative}: its agent has no compaction policy`);
    continue;
  }
  start = performance.now();
  const run = startInference(session, options, policy.id);
  let done = run.step(SLICE_MS, () => performance.now());
  const firstMs = performance.now() - start;
  const first = run.current();
  let slices = 1;
  while (!done) {
    done = run.step(SLICE_MS, () => performance.now());
    slices++;
  }
  const completeMs = performance.now() - start;
  const result = run.current();
  const bounds = result.settings.map((s) => `${s.setting} ${s.min ?? "…"}–${s.max ?? "…"}${s.conflict ? " (conflict)" : ""}`).join("; ") || "none";
  console.log(
    `${relative} (${policy.id}, ${first.progress.total} quiet turns): floor ${floorMs.toFixed(0)} ms · read ${readMs.toFixed(0)} ms · first slice ${firstMs.toFixed(0)} ms (${first.progress.checked} turns checked) · complete ${completeMs.toFixed(0)} ms in ${slices} slices · ${(completeMs / floorMs).toFixed(1)}× floor · ${completeMs <= TARGET_MS ? "within" : "OVER"} the ${TARGET_MS} ms target\n  bounds: ${bounds}`,
  );
}
