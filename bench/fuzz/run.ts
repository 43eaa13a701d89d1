// `npm run fuzz -- --seconds N`: mutation fuzzing of every fixture, in-process, each input bounded
// in time. Worker threads run the inputs; one that does not answer within the bound is a hang:
// its worker is terminated and replaced. Prints every failing input (saved to a file, with the
// fixture, family and seed that remake it), uncaught errors, hangs and inputs that lost a valid
// line, then the totals. Exit status 1 when anything failed. docs/fuzzing.md describes it.
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { fuzzFixtures, type FuzzFixture } from "./fixtures";
import { FAMILY_NAMES, HEAVY_FAMILIES, mutate } from "./mutators";
import type { FuzzJob, FuzzJobResult } from "./worker";

interface Settings {
  seconds: number;
  seed: number;
  workers: number;
  timeoutMs: number;
  heavyTimeoutMs: number;
  heavyEvery: number;
  out: string;
  max: number;
}

function parseArgs(argv: string[]): Settings {
  const settings: Settings = {
    seconds: 60,
    seed: 1,
    workers: Math.max(1, Math.min(2, os.availableParallelism())),
    timeoutMs: 10_000,
    heavyTimeoutMs: 120_000,
    heavyEvery: 2_000,
    out: path.join(os.tmpdir(), "contextscope-fuzz"),
    max: Number.POSITIVE_INFINITY,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = argv[i + 1];
    const number = () => {
      const n = Number(value);
      if (!Number.isFinite(n) || n < 0) throw new Error(`${arg} needs a number`);
      i++;
      return n;
    };
    if (arg === "--seconds") settings.seconds = number();
    else if (arg === "--seed") settings.seed = number();
    else if (arg === "--workers") settings.workers = Math.max(1, number());
    else if (arg === "--timeout-ms") settings.timeoutMs = number();
    else if (arg === "--heavy-every") settings.heavyEvery = Math.max(1, number());
    else if (arg === "--max") settings.max = number();
    else if (arg === "--out") {
      settings.out = value ?? settings.out;
      i++;
    } else if (arg === "--help") {
      process.stdout.write("npm run fuzz -- [--seconds N] [--seed S] [--workers W] [--timeout-ms T] [--heavy-every K] [--max N] [--out DIR]\n");
      process.exit(0);
    } else throw new Error(`unknown option ${arg}`);
  }
  return settings;
}

interface Failure {
  kind: "error" | "hang" | "lost-line";
  job: FuzzJob;
  detail: string;
}

const LIGHT_FAMILIES = FAMILY_NAMES.filter((family) => !HEAVY_FAMILIES.has(family));
const HEAVY = FAMILY_NAMES.filter((family) => HEAVY_FAMILIES.has(family));

/**
 * Fixture order of a round: each fixture once per round, and a fixture ten times the median size
 * (the 570 kB Claude Code transcript) only every fourth round, so that one file does not take
 * most of the run's time.
 */
function fixtureRounds(fixtures: readonly FuzzFixture[]): number[][] {
  const sizes = fixtures.map((f) => f.text.length).sort((a, b) => a - b);
  const median = sizes[Math.floor(sizes.length / 2)] ?? 0;
  const rounds: number[][] = [];
  for (let round = 0; round < 4; round++) {
    rounds.push(fixtures.map((f, i) => (f.text.length > 10 * median && round > 0 ? -1 : i)).filter((i) => i >= 0));
  }
  return rounds;
}

let schedule: number[] = [];

/** The n-th job: fixtures and families in turn, a fresh seed each; a heavy family every K jobs. */
function jobAt(n: number, settings: Settings, fixtures: readonly FuzzFixture[]): FuzzJob {
  const seed = settings.seed * 1_000_003 + n;
  if (schedule.length === 0) schedule = fixtureRounds(fixtures).flat();
  const fixture = schedule[n % schedule.length]!;
  if (HEAVY.length > 0 && n % settings.heavyEvery === settings.heavyEvery - 1) {
    return { fixture, family: HEAVY[Math.floor(n / settings.heavyEvery) % HEAVY.length]!, seed };
  }
  // The family changes once per pass over the schedule, so each fixture meets every family.
  return { fixture, family: LIGHT_FAMILIES[Math.floor(n / schedule.length) % LIGHT_FAMILIES.length]!, seed };
}

function saveInput(settings: Settings, fixtures: readonly FuzzFixture[], failure: Failure): string {
  const fixture = fixtures[failure.job.fixture]!;
  const text = mutate(fixture.text, failure.job.family, failure.job.seed) ?? "";
  mkdirSync(settings.out, { recursive: true });
  const file = path.join(settings.out, `${failure.kind}-${fixture.name.replace(/[^A-Za-z0-9]+/g, "_")}-${failure.job.family}-${failure.job.seed}-${fixture.fileName}`);
  writeFileSync(file, text.length > 5_000_000 ? text.slice(0, 5_000_000) : text);
  return file;
}

async function main(): Promise<void> {
  const settings = parseArgs(process.argv.slice(2));
  const fixtures = fuzzFixtures();
  if (fixtures.length === 0) throw new Error("no fixtures found");
  process.stdout.write(`fuzz: ${fixtures.length} fixtures, ${FAMILY_NAMES.length} families, ${settings.workers} workers, ${settings.seconds} s, seed ${settings.seed}\n`);
  const deadline = Date.now() + settings.seconds * 1000;
  const failures: Failure[] = [];
  const counts = { inputs: 0, skipped: 0, refused: 0, errors: 0, hangs: 0, lost: 0 };
  const perFamily = new Map<string, number>();
  let next = 0;

  const runLane = async (): Promise<void> => {
    let worker: Worker | null = null;
    let pending: ((result: FuzzJobResult | "hang") => void) | null = null;
    // A fresh worker loads the whole core first (seconds under tsx): jobs are timed only once it
    // says it is ready, so the bound measures the input, not the start-up.
    const start = () =>
      new Promise<Worker>((resolve, reject) => {
        const created = new Worker(new URL("./worker-entry.mjs", import.meta.url), { workerData: { fixtures } });
        created.on("message", (result: FuzzJobResult | { kind: "ready" }) => {
          if (result.kind === "ready") resolve(created);
          else pending?.(result);
        });
        created.on("error", (error) => {
          reject(error);
          pending?.({ kind: "error", stage: "worker", message: error.message, stack: error.stack ?? "" });
        });
      });
    while (Date.now() < deadline && next < settings.max) {
      const job = jobAt(next++, settings, fixtures);
      worker ??= await start();
      const bound = HEAVY_FAMILIES.has(job.family) ? settings.heavyTimeoutMs : settings.timeoutMs;
      const result = await new Promise<FuzzJobResult | "hang">((resolve) => {
        const timer = setTimeout(() => resolve("hang"), bound);
        pending = (value) => {
          clearTimeout(timer);
          resolve(value);
        };
        worker!.postMessage(job);
      });
      pending = null;
      if (result === "hang") {
        await worker.terminate();
        worker = null;
        counts.inputs++;
        counts.hangs++;
        failures.push({ kind: "hang", job, detail: `no answer within ${bound} ms` });
        continue;
      }
      if (result.kind === "refused") {
        counts.inputs++;
        counts.refused++;
        continue;
      }
      if (result.kind === "skipped") {
        counts.skipped++;
        continue;
      }
      counts.inputs++;
      perFamily.set(job.family, (perFamily.get(job.family) ?? 0) + 1);
      if (result.kind === "error") {
        counts.errors++;
        failures.push({ kind: "error", job, detail: `${result.message}\n${result.stack}` });
        if (result.stage === "worker") {
          await worker.terminate();
          worker = null;
        }
      } else if (result.lost.length > 0) {
        counts.lost++;
        failures.push({ kind: "lost-line", job, detail: `valid lines not read and not named by a warning: ${result.lost.slice(0, 10).join(", ")}` });
      }
    }
    await worker?.terminate();
  };

  const progress = setInterval(() => {
    process.stdout.write(`  … ${counts.inputs} inputs, ${counts.errors} errors, ${counts.hangs} hangs, ${counts.lost} lost-line\n`);
  }, 30_000);
  await Promise.all(Array.from({ length: settings.workers }, runLane));
  clearInterval(progress);

  // Print each failure; repeated messages are shown once with their count.
  const seen = new Map<string, number>();
  for (const failure of failures) {
    const key = `${failure.kind} ${failure.detail.split("\n")[0]}`;
    const count = (seen.get(key) ?? 0) + 1;
    seen.set(key, count);
    if (count > 3) continue;
    const file = saveInput(settings, fixtures, failure);
    const fixture = fixtures[failure.job.fixture]!;
    process.stdout.write(`\n${failure.kind.toUpperCase()} ${fixture.name} family=${failure.job.family} seed=${failure.job.seed}\n  input: ${file}\n  ${failure.detail.split("\n").join("\n  ")}\n`);
  }
  for (const [key, count] of seen) if (count > 3) process.stdout.write(`(${count - 3} more like: ${key})\n`);

  process.stdout.write(
    `\nfuzz totals: ${counts.inputs} inputs (${counts.skipped} mutations did not apply; ${counts.refused} refused with the readers' message, as no agent writes them), ${counts.errors} uncaught errors, ${counts.hangs} hangs, ${counts.lost} inputs that lost a valid line\n`,
  );
  process.stdout.write(`per family: ${[...perFamily].map(([family, n]) => `${family} ${n}`).join(", ")}\n`);
  process.exitCode = counts.errors + counts.hangs + counts.lost > 0 ? 1 : 0;
}

main().catch((error: unknown) => {
  process.stderr.write(`fuzz: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 2;
});
