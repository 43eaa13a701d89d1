// Start-up of the compiled CLI: `contextscope --help` run repeatedly as a whole process (like
// hyperfine), against a bare `node -e 0` (the floor: starting Node at all) and against the
// development form under tsx. Build first (`npm run build:cli`).
// Run with `npx tsx bench/cli-startup.bench.ts [--runs N]`.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { performance } from "node:perf_hooks";

const runsIndex = process.argv.indexOf("--runs");
const runs = runsIndex === -1 ? 20 : Number(process.argv[runsIndex + 1]);
const bin = "dist-cli/contextscope.mjs";
if (!existsSync(bin)) {
  console.error(`${bin} is missing: run \`npm run build:cli\` first`);
  process.exit(1);
}

function time(label: string, command: string, args: string[], count: number, status = 0) {
  const samples: number[] = [];
  spawnSync(command, args, { stdio: "ignore" }); // warm the file cache
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    const result = spawnSync(command, args, { stdio: "ignore" });
    samples.push(performance.now() - start);
    if (result.status !== status) throw new Error(`${label} exited ${result.status}`);
  }
  samples.sort((a, b) => a - b);
  const median = samples[Math.floor(samples.length / 2)]!;
  console.log(`${label.padEnd(34)} median ${median.toFixed(0)} ms, min ${samples[0]!.toFixed(0)} ms, max ${samples.at(-1)!.toFixed(0)} ms (${count} runs)`);
  return median;
}

const floor = time("node -e 0", process.execPath, ["-e", "0"], runs);
const help = time("contextscope --help", process.execPath, [bin, "--help"], runs);
const commandHelp = time("contextscope prefix --help", process.execPath, [bin, "prefix", "--help"], runs);
const loaded = time("contextscope nope (loads the core)", process.execPath, [bin, "nope"], runs, 1);
const dev = time("tsx src/cli/main.ts --help", "npx", ["tsx", "src/cli/main.ts", "--help"], Math.min(runs, 5));
console.log(`--help: ${help.toFixed(0)} ms = ${(help / floor).toFixed(2)} × node start-up; prefix --help ${(commandHelp / floor).toFixed(2)} ×; loading the core ${(loaded / floor).toFixed(2)} ×; tsx ${(dev / help).toFixed(1)} × slower than the bin`);
