// Every agent against the read + parse floor: for each agent bench/generate-agent-session.ts
// writes (sessions with real files' shapes), at each size and seed, the compiled CLI's
// `prefix --tokenizer estimate` against bench/line-floor.mjs over the file that command reads (a
// Claude Code session's main transcript: its sub-agents reach `prefix` through the transcript's
// progress lines, so the floor leaves their own files out too), both whole processes under GNU time
// in the same run, one after the other. Prints one table per agent: CPU time (user + system) and
// peak memory of each, their ratio (target: prefix ≤ 1.6 × the floor's CPU) and the peak against
// the bytes read. The machine is shared: CPU time, not wall. Build first (`npm run build:cli`).
// `./node_modules/.bin/tsx bench/agents-floor.bench.ts [--agents claude-code,codex,…] [--mb 10,100]
// [--seeds 1] [--bin other/contextscope.mjs]`. Generated files are deleted after each size.
import { existsSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { timeChild, type ChildTime } from "./child-time";
import { GENERATED_AGENTS, generateAgentSession, type GeneratedAgent } from "./generate-agent-session";

const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? null : process.argv[at + 1]!;
};
const bin = arg("--bin") ?? "dist-cli/contextscope.mjs";
if (!existsSync(bin)) {
  console.error(`${bin} is missing: run \`npm run build:cli\` first`);
  process.exit(1);
}
const agents = (arg("--agents")?.split(",") ?? [...GENERATED_AGENTS]) as GeneratedAgent[];
for (const agent of agents) if (!GENERATED_AGENTS.includes(agent)) throw new Error(`unknown agent ${agent}: one of ${GENERATED_AGENTS.join(", ")}`);
const sizes = (arg("--mb") ?? "10,100").split(",").map(Number);
const seeds = (arg("--seeds") ?? "1").split(",").map(Number);

interface Row {
  mb: number;
  seed: number;
  bytes: number;
  files: number;
  turns: number;
  compactions: number;
  subagents: number;
  floor: ChildTime;
  cli: ChildTime;
}

/** The temporary folder a generated session was written under. */
const rootOf = (file: string) => file.slice(0, file.indexOf(path.sep, file.indexOf("contextscope-agent-")));
const mbOf = (bytes: number) => (bytes / 1e6).toFixed(1);
const cpu = (run: ChildTime) => run.cpuSeconds.toFixed(2);
const peak = (run: ChildTime) => (run.peakBytes / 1e6).toFixed(0);

for (const agent of agents) {
  const rows: Row[] = [];
  // The CLI's own start (loading its modules, which the floor does not do): the same command on a
  // session of one prompt of the same agent.
  const tiny = generateAgentSession(agent, { minBytes: 1, seed: 1 });
  const start = timeChild(process.execPath, [bin, "prefix", tiny.file, "--tokenizer", "estimate"]);
  rmSync(rootOf(tiny.file), { recursive: true, force: true });
  for (const mb of sizes) {
    for (const seed of seeds) {
      const session = generateAgentSession(agent, { minBytes: mb * 1024 * 1024, seed });
      // Only what the measured command reads counts: a floor over files `prefix` never opens would
      // make the ratio and the peak per byte look better than they are.
      const total = statSync(session.file).size;
      const floor = timeChild(process.execPath, ["--max-old-space-size=16384", "bench/line-floor.mjs", session.file]);
      const cli = timeChild(process.execPath, ["--max-old-space-size=16384", bin, "prefix", session.file, "--tokenizer", "estimate"]);
      rows.push({ mb, seed, bytes: total, files: session.files.length, turns: session.turns, compactions: session.compactions, subagents: session.subagents, floor, cli });
      console.error(`${agent} ${mb} MB seed ${seed}: floor ${cpu(floor)} s CPU, prefix ${cpu(cli)} s CPU (${(cli.cpuSeconds / floor.cpuSeconds).toFixed(2)} ×), peak ${peak(cli)} MB`);
      rmSync(rootOf(session.file), { recursive: true, force: true });
    }
  }
  console.log(`\n### ${agent}\n\nCLI start (one prompt): ${cpu(start)} s CPU, peak ${peak(start)} MB.\n`);
  console.log("| size | seed | MB read (files written) | turns | compactions | sub-agents | floor CPU s | floor peak MB | prefix CPU s | prefix peak MB | prefix / floor CPU | net of start | prefix peak × bytes read |");
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
  for (const r of rows) {
    const ratio = r.cli.cpuSeconds / r.floor.cpuSeconds;
    console.log(
      `| ${r.mb} MB | ${r.seed} | ${mbOf(r.bytes)} (${r.files}) | ${r.turns} | ${r.compactions} | ${r.subagents} | ${cpu(r.floor)} | ${peak(r.floor)} | ${cpu(r.cli)} | ${peak(r.cli)} | ${ratio.toFixed(2)}${ratio > 1.6 ? " (over 1.6)" : ""} | ${((r.cli.cpuSeconds - start.cpuSeconds) / r.floor.cpuSeconds).toFixed(2)} | ${(r.cli.peakBytes / r.bytes).toFixed(2)} |`,
    );
  }
}
