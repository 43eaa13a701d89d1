// Work linear in turns, every agent: `prefix --tokenizer estimate` (the compiled CLI) against the
// read + parse floor (bench/line-floor.mjs over the same files), both as whole processes under GNU
// time in the same run, on the Claude Code transcripts of ../shared/fixtures/realworld and
// realworld-next (with their sub-agents' files, which the CLI reads too), on the real Codex
// rollouts of ../shared/fixtures/realworld/codex, and on generated sessions of short turns
// (bench/generate-short-turns.ts): 1,000 Claude Code prompts, 10,000 pi turns and a Gemini CLI
// chat of 10,000 messages in both its forms. Prints per file the floor, the CLI's wall
// and CPU time and their ratio, and the ratio net of the CLI's own start (the same command on a
// one-turn session: loading the CLI's modules, which the floor does not do). Ratios, not timed
// assertions: the machine is shared. Build first (`npm run build:cli`); run with
// `npx tsx bench/turns-floor.bench.ts [--only claude|pi|gemini|codex|realworld] [--scale 0.1]`
// (`--scale` shrinks the generated sessions). `--compare <other/contextscope.mjs>` also runs
// another build on each file and says whether both print the same bytes.
import { existsSync, readdirSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { timeChild, type ChildTime } from "./child-time";
import { writeShortTurnsSession, type ShortTurnsAgent } from "./generate-short-turns";

const bin = "dist-cli/contextscope.mjs";
if (!existsSync(bin)) {
  console.error(`${bin} is missing: run \`npm run build:cli\` first`);
  process.exit(1);
}
const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? null : process.argv[at + 1]!;
};
const only = arg("--only");
const scale = Number(arg("--scale") ?? 1);
const other = arg("--compare");

interface Case {
  group: string;
  label: string;
  file: string;
  /** Every file the CLI reads for it (the floor reads the same). */
  files: string[];
  generated: boolean;
}

/** A Claude Code transcript with the sub-agent transcripts beside it (`<session>/subagents/*.jsonl`). */
function withSubagents(file: string): string[] {
  const folder = path.join(file.slice(0, -".jsonl".length), "subagents");
  if (!existsSync(folder)) return [file];
  return [file, ...readdirSync(folder).filter((name) => name.endsWith(".jsonl")).sort().map((name) => path.join(folder, name))];
}

const cases: Case[] = [];
if (!only || only === "realworld") {
  for (const set of ["realworld", "realworld-next"]) {
    const folder = path.join("..", "shared", "fixtures", set, "claude-code");
    if (!existsSync(folder)) continue;
    for (const name of readdirSync(folder).filter((n) => n.endsWith(".jsonl")).sort()) {
      const file = path.join(folder, name);
      cases.push({ group: "Claude Code (real)", label: `${set}/${name}`, file, files: withSubagents(file), generated: false });
    }
  }
}
if (!only || only === "codex") {
  const folder = path.join("..", "shared", "fixtures", "realworld", "codex");
  if (existsSync(folder)) {
    for (const name of readdirSync(folder).filter((n) => n.endsWith(".jsonl")).sort()) {
      const file = path.join(folder, name);
      cases.push({ group: "Codex (real)", label: `realworld/codex/${name}`, file, files: [file], generated: false });
    }
  }
}
const generated: [string, ShortTurnsAgent, number, string][] = [
  ["claude", "claude", 1000, "Claude Code, 1,000 prompts"],
  ["pi", "pi", 10000, "pi, 10,000 turns"],
  ["gemini", "gemini", 10000, "Gemini CLI JSONL, 10,000 messages"],
  ["gemini", "gemini-json", 10000, "Gemini CLI .json, 10,000 messages"],
];
for (const [group, agent, count, label] of generated) {
  if (only && only !== group) continue;
  const n = Math.max(1, Math.round(count * scale));
  const file = writeShortTurnsSession(agent, n);
  cases.push({ group: "generated", label: label.replace(/\d[\d,]*/, n.toLocaleString("en")), file, files: [file], generated: true });
}

const startFile = writeShortTurnsSession("claude", 1);
const prefix = (program: string, file: string) => [program, "prefix", file, "--tokenizer", "estimate"];
const start = timeChild(process.execPath, prefix(bin, startFile));
console.log(`load ${os.loadavg().map((l) => l.toFixed(2)).join(" ")} on ${os.cpus().length} cores`);
console.log(`CLI start (one-turn session): ${start.seconds.toFixed(2)} s wall, ${start.cpuSeconds.toFixed(2)} s CPU`);
const seconds = (run: ChildTime) => `${run.seconds.toFixed(2)} s (${run.cpuSeconds.toFixed(2)} CPU)`;
console.log(["file", "MB", "turns", "floor", "prefix", "ratio CPU", "ratio net of start"].join(" | "));
for (const item of cases) {
  const bytes = item.files.reduce((sum, file) => sum + statSync(file).size, 0);
  const floor = timeChild(process.execPath, ["bench/line-floor.mjs", ...item.files]);
  const cli = timeChild(process.execPath, prefix(bin, item.file));
  const net = Math.max(0, cli.cpuSeconds - start.cpuSeconds) / floor.cpuSeconds;
  // `prefix` prints one line per turn of the main thread and of each sub-agent's.
  const turns = cli.stdout.split("\n").filter((line) => line.startsWith("{")).length;
  const cells = [item.label, (bytes / 1e6).toFixed(2), turns.toLocaleString("en"), seconds(floor), seconds(cli), (cli.cpuSeconds / floor.cpuSeconds).toFixed(2), net.toFixed(2)];
  if (other) {
    const earlier = timeChild(process.execPath, prefix(other, item.file));
    cells.push(`other build ${seconds(earlier)}, output ${earlier.stdout === cli.stdout ? "identical" : "DIFFERS"}`);
  }
  console.log(cells.join(" | "));
  if (item.generated) rmSync(path.dirname(item.file), { recursive: true, force: true });
}
rmSync(path.dirname(startFile), { recursive: true, force: true });
console.log(`load ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`);

