// One turn appended to a large session that is followed (src/core/session/follow.ts): the work
// the follower and the live analysis do for it, as a ratio to opening the file again.
//   npx tsx bench/live.bench.ts [--mb 100,1024] [--runs 3]
// Sessions come from bench/generate-session.ts (seed 1). The file is cut before its last turn's
// answer: the follower reads the part before it (the session as it was), then the rest is
// appended, as the agent would write it. Measured (wall and CPU of this process, best of --runs):
// - append: the appended bytes split and parsed, the new session value, the live analysis of the
//   new turn (analyzeSession, the turn's request, its prefix report and cost); with its parts:
//   parse, snapshot (copying the entry list, checking it only appends and carrying the agent's
//   caches over: src/core/session/growth.ts), analyze (analyzeSession of the new value, going on
//   from the earlier value's walk), turn (the rest of the live update: the request, report, cost);
// - reopen: the whole file read and parsed (the same follower, from byte 0) and analysed
//   (analyzeSession): what opening it again costs before its turns can be shown. The estimate
//   prefix pass the app then runs over every turn is reported beside it (reopenWithPrefix).
// Prints one JSON line per size.
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import type { PipelineOptions, Session } from "../src/core/model";
import { LiveTurns, SessionFollower } from "../src/core/session/follow";
import { datasetPriceTable } from "../src/core/pricing/dataset";
import { analyzeSession } from "../src/core/session/pipeline";
import { iterateSessionPrefixes } from "../src/core/session/sessionPrefixes";
import { generatePiSession } from "./generate-session";

function argument(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] ? (process.argv[at + 1] as string) : fallback;
}

const PIPELINE: PipelineOptions = { profile: "pi", leafId: null, api: null, header: null, notes: false };
const CHUNK = 4 * 1024 * 1024;
const decoder = new TextDecoder();
const decode = (bytes: Uint8Array) => decoder.decode(bytes);

interface Timed<T> {
  value: T;
  wallMs: number;
  cpuMs: number;
}

function timed<T>(run: () => T): Timed<T> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const value = run();
  const wallMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { value, wallMs, cpuMs: (used.user + used.system) / 1000 };
}

function feed(follower: SessionFollower, bytes: Uint8Array): void {
  for (let at = 0; at < bytes.length; at += CHUNK) follower.append(bytes.subarray(at, Math.min(bytes.length, at + CHUNK)));
}

/** Where the last turn's answer starts: the last line holding an assistant message. */
function lastTurnStart(bytes: Uint8Array): number {
  const needle = Buffer.from('"role":"assistant"');
  const at = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).lastIndexOf(needle);
  return bytes.lastIndexOf(0x0a, at) + 1;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

async function measure(mb: number, runs: number): Promise<Record<string, unknown>> {
  const generated = await generatePiSession({ minBytes: mb * 1024 * 1024, seed: 1 });
  try {
    const bytes = new Uint8Array(readFileSync(generated.file));
    const cut = lastTurnStart(bytes);
    const before = bytes.subarray(0, cut);
    const appended = bytes.subarray(cut);
    let best: Record<string, Timed<unknown>> | null = null;
    for (let run = 0; run < runs; run++) {
      // The session as it was: read, and the live analysis primed with its last turn.
      const follower = new SessionFollower(path.basename(generated.file), decode);
      feed(follower, before);
      const live = new LiveTurns({ pipeline: PIPELINE, tokenizer: "estimate", primeWithLastTurn: true, prices: datasetPriceTable() });
      live.update(follower.session()!);
      const turnsBefore = live.turnCount;
      // One turn appended: the bytes parsed, the new session value, the live analysis of it.
      const parse = timed(() => follower.append(appended));
      const snapshot = timed(() => follower.session()!);
      // The analysis of the new value, on its own: it goes on from the earlier value's walk (the
      // caches carried over by the follower); the update then finds it done.
      const analyze = timed(() => analyzeSession(snapshot.value, PIPELINE).turns.length);
      const turn = timed(() => live.update(snapshot.value).turns.length);
      if (turn.value !== 1 || live.turnCount !== turnsBefore + 1) throw new Error(`expected one new turn, got ${turn.value}`);
      const append = { value: null, wallMs: parse.wallMs + snapshot.wallMs + analyze.wallMs + turn.wallMs, cpuMs: parse.cpuMs + snapshot.cpuMs + analyze.cpuMs + turn.cpuMs };
      // Opening the file again.
      const reopen = timed(() => {
        const fresh = new SessionFollower(path.basename(generated.file), decode);
        feed(fresh, bytes);
        const session = fresh.session()!;
        return { session, analysis: analyzeSession(session, PIPELINE) };
      });
      const reopenSession: Session = reopen.value.session;
      const prefixPass = timed(() => {
        let count = 0;
        for (const report of iterateSessionPrefixes(reopenSession, PIPELINE, { prefix: { tokenizer: "estimate" } })) count += report.turn > 0 ? 1 : 0;
        return count;
      });
      // Times only: the sessions of this run must be free before the next one reads the file again.
      const results = Object.fromEntries(
        Object.entries({ append, parse, snapshot, analyze, turn, reopen, prefixPass }).map(([key, timing]) => [key, { value: null, wallMs: timing.wallMs, cpuMs: timing.cpuMs }]),
      );
      if (!best || append.wallMs < best.append!.wallMs) best = results;
    }
    const b = best!;
    const reopenWithPrefix = { wallMs: b.reopen!.wallMs + b.prefixPass!.wallMs, cpuMs: b.reopen!.cpuMs + b.prefixPass!.cpuMs };
    return {
      mb,
      bytes: generated.bytes,
      turns: generated.turns,
      appendedBytes: appended.length,
      appendMs: round(b.append!.wallMs),
      appendCpuMs: round(b.append!.cpuMs),
      parts: Object.fromEntries(["parse", "snapshot", "analyze", "turn"].map((key) => [key, round(b[key]!.wallMs)])),
      reopenMs: round(b.reopen!.wallMs),
      reopenCpuMs: round(b.reopen!.cpuMs),
      reopenWithPrefixMs: round(reopenWithPrefix.wallMs),
      ratio: Number((b.append!.wallMs / b.reopen!.wallMs).toFixed(4)),
      ratioCpu: Number((b.append!.cpuMs / b.reopen!.cpuMs).toFixed(4)),
      ratioToReopenWithPrefix: Number((b.append!.wallMs / reopenWithPrefix.wallMs).toFixed(4)),
    };
  } finally {
    rmSync(path.dirname(generated.file), { recursive: true, force: true });
  }
}

const runs = Number(argument("runs", "3"));
for (const mb of argument("mb", "100,1024").split(",").map(Number)) {
  console.log(JSON.stringify(await measure(mb, runs)));
}
