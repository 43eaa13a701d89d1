// Start cost of the compiled CLI against another build: `prefix --tokenizer estimate`, `check`,
// `scan` and `--help` on a one-turn Claude Code session (bench/generate-short-turns.ts), each run
// as a whole process under GNU time, the two builds alternating run by run so a change in the
// machine's load falls on both. Prints per command the median CPU time (user + system) of each
// build and their ratio, and `node -e 0` as the floor. The machine is shared: CPU time, not wall.
// Build both first (`npm run build:cli`; the other build, e.g. the main branch's dist-cli copied
// beside this one as base-cli: the bin loads its chunks relatively). Run with
// `npx tsx bench/cli-start.bench.ts [--base base-cli/contextscope.mjs] [--runs 20]`.
import { existsSync } from "node:fs";
import os from "node:os";
import { timeChild } from "./child-time";
import { writeShortTurnsSession } from "./generate-short-turns";

const arg = (name: string, fallback: string) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? fallback : process.argv[at + 1]!;
};
const bin = "dist-cli/contextscope.mjs";
const base = arg("--base", "base-cli/contextscope.mjs");
const runs = Number(arg("--runs", "20"));
for (const file of [bin, base]) {
  if (!existsSync(file)) {
    console.error(`${file} is missing: run \`npm run build:cli\` (and copy the other build to ${base})`);
    process.exit(1);
  }
}

const session = writeShortTurnsSession("claude", 1);
const commands: [string, string[]][] = [
  ["prefix --tokenizer estimate", ["prefix", session, "--tokenizer", "estimate"]],
  ["check", ["check", session]],
  ["scan", ["scan", session]],
  ["--help", ["--help"]],
];
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (seconds: number) => `${(seconds * 1000).toFixed(0)} ms`;

const load = () => os.loadavg().map((l) => l.toFixed(2)).join(" ");
console.log(`load before ${load()} on ${os.cpus().length} cores; ${runs} alternating runs each; CPU = user + system`);
const floor: number[] = [];
for (let i = 0; i < runs; i++) floor.push(timeChild(process.execPath, ["-e", "0"]).cpuSeconds);
console.log(`node -e 0: ${ms(median(floor))}`);
console.log(["command", "base CPU", "this CPU", "this / base", "outputs"].join(" | "));
for (const [label, args] of commands) {
  const cpu = { base: [] as number[], mine: [] as number[] };
  let same = true;
  for (let i = 0; i < runs; i++) {
    // Alternate which goes first, so neither always runs right after the other.
    const order = i % 2 === 0 ? (["base", "mine"] as const) : (["mine", "base"] as const);
    const outputs: Record<string, string> = {};
    for (const which of order) {
      const run = timeChild(process.execPath, [which === "base" ? base : bin, ...args]);
      cpu[which].push(run.cpuSeconds);
      outputs[which] = run.stdout;
    }
    same &&= outputs.base === outputs.mine;
  }
  const [b, m] = [median(cpu.base), median(cpu.mine)];
  console.log([label, ms(b), ms(m), (m / b).toFixed(2), same ? "identical" : "DIFFER"].join(" | "));
}
console.log(`load after ${load()}`);
