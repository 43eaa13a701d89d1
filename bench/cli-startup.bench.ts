// Start-up of the compiled CLI: `contextscope --help` run repeatedly as a whole process (like
// hyperfine), against a bare `node -e 0` (the floor: starting Node at all) and against the
// development form under tsx: wall-clock and CPU time (user + system, under GNU time), medians.
// On a shared machine the CPU time is the steadier of the two. Build first (`npm run build:cli`).
// Run with `npx tsx bench/cli-startup.bench.ts [--runs N]`.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { timeChild } from "./child-time";

const runsIndex = process.argv.indexOf("--runs");
const runs = runsIndex === -1 ? 20 : Number(process.argv[runsIndex + 1]);
const bin = "dist-cli/contextscope.mjs";
if (!existsSync(bin)) {
  console.error(`${bin} is missing: run \`npm run build:cli\` first`);
  process.exit(1);
}

function time(label: string, command: string, args: string[], count: number, status = 0) {
  const wall: number[] = [];
  const cpu: number[] = [];
  spawnSync(command, args, { stdio: "ignore" }); // warm the file cache
  for (let i = 0; i < count; i++) {
    if (status === 0) {
      const run = timeChild(command, args);
      wall.push(run.seconds * 1000);
      cpu.push(run.cpuSeconds * 1000);
    } else {
      const start = performance.now();
      const result = spawnSync(command, args, { stdio: "ignore" });
      wall.push(performance.now() - start);
      if (result.status !== status) throw new Error(`${label} exited ${result.status}`);
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
  const cpuText = cpu.length ? `, CPU median ${median(cpu).toFixed(0)} ms` : "";
  console.log(`${label.padEnd(34)} wall median ${median(wall).toFixed(0)} ms, min ${Math.min(...wall).toFixed(0)} ms${cpuText} (${count} runs)`);
  return { wall: median(wall), cpu: median(cpu) };
}

const floor = time("node -e 0", process.execPath, ["-e", "0"], runs);
const help = time("contextscope --help", process.execPath, [bin, "--help"], runs);
const commandHelp = time("contextscope prefix --help", process.execPath, [bin, "prefix", "--help"], runs);
const loaded = time("contextscope nope (loads the CLI)", process.execPath, [bin, "nope"], runs, 1);
const dev = time("tsx src/cli/main.ts --help", "npx", ["tsx", "src/cli/main.ts", "--help"], Math.min(runs, 5));
console.log(
  `--help: wall ${help.wall.toFixed(0)} ms = ${(help.wall / floor.wall).toFixed(2)} × node start-up, CPU ${(help.cpu / floor.cpu).toFixed(2)} ×; ` +
    `prefix --help wall ${(commandHelp.wall / floor.wall).toFixed(2)} ×; an unknown command (the CLI, no command) wall ${(loaded.wall / floor.wall).toFixed(2)} ×; ` +
    `tsx: wall ${(dev.wall / help.wall).toFixed(1)} ×, CPU ${(dev.cpu / help.cpu).toFixed(1)} × the bin's`,
);
