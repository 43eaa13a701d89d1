// `watch` under pressure, as a real process (tsx, `--tokenizer estimate`, `--interval 500`):
// - throughput: a generated pi session (bench/generate-session.ts, seed 1) appended at --mbps MB/s
//   (default 10) for --seconds (default 10), in slices every 100 ms cut at line ends; reported: the
//   turns written, printed and skipped (watch's notices), the lag from the end of writing to the
//   newest turn printed, and the longest pause between two printed turns;
// - interrupt while busy: SIGINT sent while the writer still appends (watch reading and analysing);
//   the time until the process has ended, and how (exit code 0 between polls, or the signal);
// - start on a folder of --sessions (default 5,000) sessions: copies of a small generated pi
//   session in day folders; the time until watch says it is watching, then the time from a turn
//   appended to one of them to that turn printed (one check of the whole folder and the read);
// - the cost of one check, in process (no tsx start, no output): a generated pi session grown by
//   5 MB before each check, up to 60 MB; each check's time, and its time per MB appended (flat
//   when nothing a check does grows with the file).
// Run with `npx tsx bench/watch.bench.ts [--mbps 10] [--seconds 10] [--sessions 5000] [--only folder|throughput|interrupt|check] [--bin dist-cli/contextscope.mjs]`
// (`--bin`: the compiled CLI instead of tsx, whose own start takes seconds on a loaded machine). Prints
// one JSON line per measure. Files are written under the system's temporary folder and removed.
import { spawn, type ChildProcess } from "node:child_process";
import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, openSync, readSync, closeSync, rmSync, statSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { generatePiSession } from "./generate-session";
import { WatchedFile } from "../src/cli/watch/watchedFile";
import type { CliIo } from "../src/cli/io";

function argument(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
}

const MBPS = argument("mbps", 10);
const SECONDS = argument("seconds", 10);
const SESSIONS = argument("sessions", 5000);
const SLICE_MS = 100;

interface Watched {
  child: ChildProcess;
  /** Each printed turn with when it arrived. */
  printed: { turn: number; at: number }[];
  stderr: () => string;
  ended: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
}

/** `--bin <file>`: the compiled CLI (`npm run build:cli -- --outdir <dir>`, then `<dir>/contextscope.mjs`) rather than tsx. */
const BIN = process.argv.includes("--bin") ? process.argv[process.argv.indexOf("--bin") + 1]! : null;

function startWatch(target: string): Watched {
  const entry = BIN !== null ? [BIN] : ["--import", "tsx", "src/cli/main.ts"];
  const child = spawn(process.execPath, [...entry, "watch", target, "--tokenizer", "estimate", "--interval", "500"]);
  const printed: Watched["printed"] = [];
  let pending = "";
  let err = "";
  child.stdout!.on("data", (data: Buffer) => {
    const at = performance.now();
    const text = pending + data.toString();
    const cut = text.lastIndexOf("\n") + 1;
    pending = text.slice(cut);
    for (const line of text.slice(0, cut).split("\n")) if (line.startsWith("{")) printed.push({ turn: (JSON.parse(line) as { turn: number }).turn, at });
  });
  child.stderr!.on("data", (data: Buffer) => (err += data.toString()));
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) => child.on("exit", (code, signal) => resolve({ code, signal, at: performance.now() })));
  return { child, printed, stderr: () => err, ended };
}

async function until(what: () => boolean, ms: number, label: string): Promise<void> {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${label}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The offsets of the line ends of `file` (where a slice may be cut). */
function lineEnds(bytes: Buffer): number[] {
  const ends: number[] = [];
  for (let at = bytes.indexOf(0x0a); at !== -1; at = bytes.indexOf(0x0a, at + 1)) ends.push(at + 1);
  return ends;
}

function readAll(file: string): Buffer {
  const size = statSync(file).size;
  const buffer = Buffer.alloc(size);
  const fd = openSync(file, "r");
  readSync(fd, buffer, 0, size, 0);
  closeSync(fd);
  return buffer;
}

/** Turns (pi assistant messages) in `bytes`: each is one request. */
function countTurns(bytes: Buffer): number {
  let count = 0;
  const needle = Buffer.from('"role":"assistant"');
  for (let at = bytes.indexOf(needle); at !== -1; at = bytes.indexOf(needle, at + 1)) count++;
  return count;
}

async function throughput(interruptWhileBusy: boolean): Promise<Record<string, unknown>> {
  const total = MBPS * SECONDS * 1024 * 1024;
  const generated = await generatePiSession({ minBytes: total + 2 * 1024 * 1024, minTurns: 1, seed: 1 });
  const source = readAll(generated.file);
  const ends = lineEnds(source);
  const dir = mkdtempSync(path.join(tmpdir(), "cs-watch-bench-"));
  const file = path.join(dir, "session.jsonl");
  // The first megabyte is there when watching starts.
  let written = ends.find((end) => end >= 1024 * 1024)!;
  writeFileSync(file, source.subarray(0, written));
  const watch = startWatch(file);
  await until(() => watch.stderr().includes("watching"), 120_000, "the start");
  const start = performance.now();
  const perSlice = (MBPS * 1024 * 1024 * SLICE_MS) / 1000;
  let interruptedAt: number | null = null;
  while (written < ends[ends.length - 1]! && performance.now() - start < SECONDS * 1000) {
    const target = Math.min(source.length, 1024 * 1024 + ((performance.now() - start + SLICE_MS) / 1000) * MBPS * 1024 * 1024);
    let cut = written;
    for (const end of ends) if (end <= target) cut = end;
    if (cut > written) appendFileSync(file, source.subarray(written, cut));
    written = cut;
    if (interruptWhileBusy && interruptedAt === null && performance.now() - start > (SECONDS * 1000) / 2) {
      interruptedAt = performance.now();
      watch.child.kill("SIGINT");
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, SLICE_MS - ((performance.now() - start) % SLICE_MS))));
  }
  const wroteFor = (performance.now() - start) / 1000;
  const turnsWritten = countTurns(source.subarray(0, written));
  rmSync(path.dirname(generated.file), { recursive: true, force: true });
  if (interruptedAt !== null) {
    const ended = await watch.ended;
    rmSync(dir, { recursive: true, force: true });
    return { measure: "interrupt while busy", msToExit: Math.round(ended.at - interruptedAt), exitCode: ended.code, signal: ended.signal, load: loadavg().map((x) => x.toFixed(2)) };
  }
  const writingEnded = performance.now();
  await until(() => watch.printed.some((p) => p.turn === turnsWritten), 120_000, `turn ${turnsWritten}`).catch(() => undefined);
  const last = watch.printed.find((p) => p.turn === turnsWritten);
  const skipped = [...watch.stderr().matchAll(/(\d+) new turns? skipped/g)].reduce((sum, match) => sum + Number(match[1]), 0);
  let longestGap = 0;
  for (let i = 1; i < watch.printed.length; i++) longestGap = Math.max(longestGap, watch.printed[i]!.at - watch.printed[i - 1]!.at);
  watch.child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
  return {
    measure: "throughput",
    mbPerSecond: +(((written - 1024 * 1024) / 1024 / 1024) / wroteFor).toFixed(1),
    seconds: +wroteFor.toFixed(1),
    turnsWritten,
    printed: watch.printed.length,
    skipped,
    newestPrintedMsAfterWriting: last ? Math.round(last.at - writingEnded) : null,
    longestPauseMs: Math.round(longestGap),
    load: loadavg().map((x) => x.toFixed(2)),
  };
}

async function folderStart(): Promise<Record<string, unknown>> {
  const generated = await generatePiSession({ minBytes: 40 * 1024, minTurns: 5, seed: 2 });
  const dir = mkdtempSync(path.join(tmpdir(), "cs-watch-folder-"));
  // Each copy stops before the session's last fifth; appending it to one copy writes new turns.
  const source = readAll(generated.file);
  const cut = lineEnds(source).find((end) => end >= source.length * 0.8)!;
  writeFileSync(generated.file, source.subarray(0, cut));
  let bytes = 0;
  for (let i = 0; i < SESSIONS; i++) {
    const day = path.join(dir, `day-${Math.floor(i / 100)}`);
    if (i % 100 === 0) mkdirSync(day);
    copyFileSync(generated.file, path.join(day, `session-${i}.jsonl`));
    bytes += cut;
  }
  rmSync(path.dirname(generated.file), { recursive: true, force: true });
  const began = performance.now();
  const watch = startWatch(dir);
  await until(() => watch.stderr().includes("watching"), 600_000, "the start");
  const ms = performance.now() - began;
  // A turn appended to one session, a few checks after the start: the time until watch prints it.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const appendedAt = performance.now();
  appendFileSync(path.join(dir, "day-7", "session-777.jsonl"), source.subarray(cut));
  await until(() => watch.printed.length > 0, 120_000, "the appended turn");
  const changeMs = watch.printed[0]!.at - appendedAt;
  // The same process start with nothing to watch: what the folder adds to it.
  const empty = mkdtempSync(path.join(tmpdir(), "cs-watch-empty-"));
  const emptyBegan = performance.now();
  const baseline = startWatch(empty);
  await until(() => baseline.stderr().includes("watching"), 120_000, "the empty folder's start");
  const emptyMs = performance.now() - emptyBegan;
  for (const child of [watch.child, baseline.child]) child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
  rmSync(empty, { recursive: true, force: true });
  return {
    measure: "folder start",
    sessions: SESSIONS,
    mb: +(bytes / 1024 / 1024).toFixed(1),
    msToWatching: Math.round(ms),
    emptyFolderMs: Math.round(emptyMs),
    msFromAppendToPrinted: Math.round(changeMs),
    startLine: watch.stderr().split("\n")[0],
    load: loadavg().map((x) => x.toFixed(2)),
  };
}

/** One check's cost in process: 5 MB appended before each, the file growing to 60 MB. */
async function checkCost(): Promise<Record<string, unknown>> {
  const generated = await generatePiSession({ minBytes: 62 * 1024 * 1024, minTurns: 1, seed: 1 });
  const source = readAll(generated.file);
  const ends = lineEnds(source);
  const cutAt = (mb: number) => ends.find((end) => end >= mb * 1024 * 1024)!;
  const dir = mkdtempSync(path.join(tmpdir(), "cs-watch-check-"));
  const file = path.join(dir, "session.jsonl");
  let written = cutAt(1);
  writeFileSync(file, source.subarray(0, written));
  const quiet = { stdout: () => undefined, stderr: () => undefined } as unknown as CliIo;
  const watched = new WatchedFile(file, { pipeline: { leafId: null, api: null, header: null, notes: false }, tokenizer: "estimate" }, quiet, true);
  await watched.poll();
  const checks: { atMb: number; ms: number; msPerMb: number; turns: number }[] = [];
  for (let mb = 6; mb <= 60; mb += 5) {
    const to = cutAt(mb);
    appendFileSync(file, source.subarray(written, to));
    const began = performance.now();
    const result = await watched.poll();
    const ms = performance.now() - began;
    checks.push({ atMb: mb, ms: Math.round(ms), msPerMb: Math.round(ms / ((to - written) / 1024 / 1024)), turns: result?.turns.length ?? 0 });
    written = to;
  }
  rmSync(path.dirname(generated.file), { recursive: true, force: true });
  rmSync(dir, { recursive: true, force: true });
  const perMb = checks.map((check) => check.msPerMb).sort((a, b) => a - b);
  return { measure: "check cost", checks, medianMsPerMb: perMb[Math.floor(perMb.length / 2)], load: loadavg().map((x) => x.toFixed(2)) };
}

const only = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] : null;
if (only === null || only === "folder") console.log(JSON.stringify(await folderStart()));
if (only === null || only === "throughput") console.log(JSON.stringify(await throughput(false)));
if (only === null || only === "interrupt") console.log(JSON.stringify(await throughput(true)));
if (only === null || only === "check") console.log(JSON.stringify(await checkCost()));
