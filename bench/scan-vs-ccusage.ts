// `scan` against ccusage on a sessions folder shaped like a real `~/.claude/projects`: builds a
// temporary home whose projects hold copies of the Claude Code transcripts of
// ../shared/fixtures/realworld and realworld-next (with their sub-agent files), until the folder
// reaches the size asked (default 900 MB), each copy's session id, message ids and request ids
// made unique (so ccusage, which counts a call once per message id + request id, counts every copy),
// then runs, in the same run, ccusage 20.0.24 (`session --json --offline`, through npx unless
// --ccusage names another command), `scan` (its summary pass) and, unless --no-full, `scan --full`,
// and prints each time and the ratios to ccusage, and whether each session's tokens agree with
// ccusage's (an independent count of the same lines). With the full pass it also times
// `scan --full --tokenizer estimate` (the analysis without the Claude vocabulary's token counts)
// and the folder's read + parse floor (bench/line-floor.mjs over every file, one process): the
// CPU any pass that parses every line cannot go below. By hand only, never in CI.
//
// Run with `npx tsx bench/scan-vs-ccusage.ts [--mb 900] [--ccusage "<command>"] [--no-full]
// [--keep] [--baseline <contextscope.mjs>]`. `--baseline` times another build's summary pass in the
// same run (another branch's dist-cli/contextscope.mjs) and says whether its lines, sorted, are
// byte for byte ours. `scan` runs as the compiled CLI (dist-cli/contextscope.mjs, `npm run build:cli`)
// when it is there, else through tsx (whose start-up then counts in its time).
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const args = process.argv.slice(2);
const valueOf = (name: string): string | null => {
  const at = args.indexOf(name);
  return at === -1 ? null : (args[at + 1] ?? null);
};
const targetBytes = Number(valueOf("--mb") ?? 900) * 1024 * 1024;
const ccusage = valueOf("--ccusage") ?? "npx --yes ccusage@20.0.24";
const withFull = !args.includes("--no-full");
const keep = args.includes("--keep");
const baseline = valueOf("--baseline");
const shared = path.resolve("../shared/fixtures");

/** A transcript with its sub-agent files, as texts. */
interface Source {
  name: string;
  text: string;
  subagents: { name: string; text: string }[];
}

function sources(): Source[] {
  const out: Source[] = [];
  for (const folder of ["realworld/claude-code", "realworld-next/claude-code"]) {
    const dir = path.join(shared, folder);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir).filter((file) => file.endsWith(".jsonl")).sort()) {
      const sub = path.join(dir, name.replace(/\.jsonl$/, ""), "subagents");
      const subagents = existsSync(sub) ? readdirSync(sub).filter((file) => file.endsWith(".jsonl")).map((file) => ({ name: file, text: readFileSync(path.join(sub, file), "utf8") })) : [];
      out.push({ name, text: readFileSync(path.join(dir, name), "utf8"), subagents });
    }
  }
  if (out.length === 0) throw new Error(`no Claude Code transcripts under ${shared}/realworld*/claude-code`);
  return out;
}

/** The session ids a transcript names (its own, and any other its lines carry). */
function sessionIds(text: string): string[] {
  return [...new Set([...text.matchAll(/"sessionId":"([^"]+)"/g)].map((match) => match[1]!))];
}

/** The text of copy `n`: every session id replaced by its copy's, message and request ids suffixed. */
function copyText(text: string, ids: ReadonlyMap<string, string>, n: number): string {
  let out = text.replace(/"(msg_[A-Za-z0-9_]+|req_[A-Za-z0-9_]+)"/g, `"$1_c${n}"`);
  for (const [from, to] of ids) out = out.split(from).join(to);
  return out;
}

function buildHome(): { home: string; projects: string; bytes: number; sessions: number } {
  const home = mkdtempSync(path.join(tmpdir(), "scan-vs-ccusage-"));
  const projects = path.join(home, ".claude", "projects");
  mkdirSync(projects, { recursive: true });
  const all = sources();
  let bytes = 0;
  let sessions = 0;
  for (let n = 0; bytes < targetBytes; n++) {
    const source = all[n % all.length]!;
    const ids = new Map(sessionIds(source.text).map((id) => [id, randomUUID()]));
    const own = ids.get(sessionIds(source.text)[0] ?? "") ?? randomUUID();
    // About a dozen sessions per project, as a user's folder has.
    const project = path.join(projects, `-home-user-project-${Math.floor(n / 12)}`);
    mkdirSync(project, { recursive: true });
    const main = copyText(source.text, ids, n);
    writeFileSync(path.join(project, `${own}.jsonl`), main);
    bytes += Buffer.byteLength(main);
    if (source.subagents.length > 0) {
      const sub = path.join(project, own, "subagents");
      mkdirSync(sub, { recursive: true });
      for (const file of source.subagents) {
        const text = copyText(file.text, ids, n);
        writeFileSync(path.join(sub, file.name), text);
        bytes += Buffer.byteLength(text);
      }
    }
    sessions++;
  }
  return { home, projects, bytes, sessions };
}

/**
 * Runs a command under /usr/bin/time (when the machine has it), returns its wall time and CPU
 * time (user + system, its children's included: ccusage runs as a native binary under npx) in
 * seconds and its standard output. The CPU time says what each costs on a machine shared with
 * other work, where wall times are shares of a busy machine.
 */
function timed(command: string, commandArgs: string[], env: NodeJS.ProcessEnv): { seconds: number; cpu: number | null; stdout: string } {
  const timeFile = path.join(tmpdir(), `scan-vs-ccusage-time-${process.pid}.txt`);
  const withTime = existsSync("/usr/bin/time");
  const start = process.hrtime.bigint();
  const stdout = withTime
    ? execFileSync("/usr/bin/time", ["-f", "%U %S", "-o", timeFile, command, ...commandArgs], { env, encoding: "utf8", maxBuffer: 1024 * 1024 * 1024, stdio: ["ignore", "pipe", "ignore"] })
    : execFileSync(command, commandArgs, { env, encoding: "utf8", maxBuffer: 1024 * 1024 * 1024, stdio: ["ignore", "pipe", "ignore"] });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  let cpu: number | null = null;
  if (withTime) {
    const [user, system] = readFileSync(timeFile, "utf8").trim().split(/\s+/).slice(-2).map(Number);
    cpu = (user ?? 0) + (system ?? 0);
    rmSync(timeFile, { force: true });
  }
  return { seconds, cpu, stdout };
}

/** Every `.jsonl` file under a folder (the transcripts and their sub-agent files). */
function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".jsonl"))
    .map((name) => path.join(folder, name))
    .sort();
}

/** ccusage's row of one session: `period` is the session id (the transcript's file name). */
interface CcusageRow {
  period: string;
  inputTokens: number;
  cacheReadTokens: number;
  cacheCreationTokens: number;
}

/** The figures of one `scan` line this comparison reads. */
interface ScanRow {
  file: string;
  recordedInputTokens: number | null;
  wholeSession: { input: number; cacheRead: number; cacheWrite: number } | null;
}

/**
 * Each session's prompt tokens (input, cache read and cache write) set against ccusage's: equal
 * to our whole session's, or to our main thread's alone — the sub-agent calls that Claude Code
 * before sub-agent files recorded only inside `progress` lines, which ccusage does not read
 * (docs/prices.md, "Parity with ccusage") — or different, which is a fault to trace.
 */
function tokenAgreement(theirs: readonly CcusageRow[], ours: readonly ScanRow[]): string {
  const bySession = new Map(ours.map((row) => [path.basename(row.file, ".jsonl"), row]));
  let whole = 0;
  let mainOnly = 0;
  const differ: string[] = [];
  for (const row of theirs) {
    const line = bySession.get(row.period);
    const prompt = row.inputTokens + row.cacheReadTokens + row.cacheCreationTokens;
    const ourWhole = line?.wholeSession ? line.wholeSession.input + line.wholeSession.cacheRead + line.wholeSession.cacheWrite : null;
    if (ourWhole === prompt) whole++;
    else if (line?.recordedInputTokens === prompt) mainOnly++;
    else differ.push(`${row.period}: ccusage ${prompt}, ours ${ourWhole ?? "none"} (main thread ${line?.recordedInputTokens ?? "none"})`);
  }
  const lines = [`tokens: ${whole} of ${theirs.length} sessions equal ccusage's; ${mainOnly} equal it in the main thread, the rest being sub-agent calls recorded only in progress lines (not read by ccusage); ${differ.length} differ`];
  return [...lines, ...differ.slice(0, 20).map((text) => `  differs: ${text}`)].join("\n");
}

const cpuText = (cpu: number | null): string => (cpu === null ? "" : `, CPU ${cpu.toFixed(2)} s`);
const cpuRatio = (ours: number | null, theirs: number | null): string => (ours === null || theirs === null ? "" : `; CPU ${(ours / theirs).toFixed(2)} × ccusage`);

function main(): void {
  const built = buildHome();
  console.log(`folder: ${built.projects}: ${built.sessions} sessions, ${(built.bytes / 1024 / 1024).toFixed(0)} MB`);
  const env = { ...process.env, HOME: built.home, CLAUDE_CONFIG_DIR: path.join(built.home, ".claude") };
  try {
    const [command, ...rest] = ccusage.split(" ");
    const theirs = timed(command!, [...rest, "session", "--json", "--offline"], env);
    const theirRows = (JSON.parse(theirs.stdout) as { session: CcusageRow[] }).session;
    console.log(`ccusage: ${theirs.seconds.toFixed(2)} s${cpuText(theirs.cpu)} (${theirRows.length} sessions)`);
    const compiled = path.resolve("dist-cli/contextscope.mjs");
    const scan = existsSync(compiled) ? { command: process.execPath, args: [compiled, "scan"] } : { command: "npx", args: ["tsx", "src/cli/main.ts", "scan"] };
    const summary = timed(scan.command, [...scan.args, built.projects], env);
    const lines = summary.stdout.trim().split("\n").filter((line) => line !== "");
    const passes = lines.filter((line) => line.includes('"pass":"summary"')).length;
    console.log(`scan: ${summary.seconds.toFixed(2)} s${cpuText(summary.cpu)} (${lines.length} lines, ${passes} by the summary pass); ${(summary.seconds / theirs.seconds).toFixed(2)} × ccusage${cpuRatio(summary.cpu, theirs.cpu)}`);
    console.log(tokenAgreement(theirRows, lines.map((line) => JSON.parse(line) as ScanRow)));
    if (baseline) {
      const before = timed(process.execPath, [path.resolve(baseline), "scan", built.projects], env);
      const sorted = (text: string) => text.trim().split("\n").filter((line) => line !== "").sort().join("\n");
      const same = sorted(before.stdout) === sorted(summary.stdout);
      console.log(`baseline ${baseline}: ${before.seconds.toFixed(2)} s${cpuText(before.cpu)}; ${(before.seconds / theirs.seconds).toFixed(2)} × ccusage${cpuRatio(before.cpu, theirs.cpu)}; lines ${same ? "byte for byte the same (sorted)" : "DIFFER"}`);
    }
    if (withFull) {
      const full = timed(scan.command, [...scan.args, "--full", built.projects], env);
      console.log(`scan --full: ${full.seconds.toFixed(2)} s${cpuText(full.cpu)}; ${(full.seconds / theirs.seconds).toFixed(2)} × ccusage${cpuRatio(full.cpu, theirs.cpu)}`);
      const estimated = timed(scan.command, [...scan.args, "--full", "--tokenizer", "estimate", built.projects], env);
      console.log(`scan --full --tokenizer estimate: ${estimated.seconds.toFixed(2)} s${cpuText(estimated.cpu)}; ${(estimated.seconds / theirs.seconds).toFixed(2)} × ccusage${cpuRatio(estimated.cpu, theirs.cpu)}`);
      const floor = timed(process.execPath, ["--max-old-space-size=16384", path.resolve("bench/line-floor.mjs"), ...filesUnder(built.projects)], env);
      console.log(`read + parse floor (every line of every file, one process): ${floor.seconds.toFixed(2)} s${cpuText(floor.cpu)}; ${(floor.seconds / theirs.seconds).toFixed(2)} × ccusage${cpuRatio(floor.cpu, theirs.cpu)}`);
    }
  } finally {
    if (keep) console.log(`kept: ${built.home}`);
    else rmSync(built.home, { recursive: true, force: true });
  }
}

main();
