// `prefix --tokenizer estimate` as a whole process (the compiled CLI) against the per-line floor
// (bench/line-floor.mjs: read, decode line by line, JSON.parse, keep the records), both under GNU
// time in the same run: wall time, CPU time and peak memory, and peak memory against the file size.
// Build first (`npm run build:cli`). Run with `npx tsx bench/estimate-prefix.bench.ts [--mb N]`
// (default 100; the issue also measures 1024), or `--file <session.jsonl>` to measure a session
// generated earlier (it is then kept). `--compare <other/contextscope.mjs>` also runs another build
// of the CLI (e.g. one built from an earlier commit) in the same run, and checks both print the
// same bytes. `--agent <claude-code|codex|gemini-cli|qwen-code|deepseek-harness>` measures a session
// of that agent with real files' shapes (bench/generate-agent-session.ts, with a Claude Code
// session's sub-agent files read by both) instead of the pi session; bench/agents-floor.bench.ts
// runs every agent at several sizes. `--strings` also runs this build with its texts read as strings (CONTEXTSCOPE_STORED_TEXTS=0,
// as before the byte store) in the same run, and checks both print the same bytes.
import { existsSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { timeChild } from "./child-time";
import { generatePiSession } from "./generate-session";
import { GENERATED_AGENTS, generateAgentSession, type GeneratedAgent } from "./generate-agent-session";

const bin = "dist-cli/contextscope.mjs";
if (!existsSync(bin)) {
  console.error(`${bin} is missing: run \`npm run build:cli\` first`);
  process.exit(1);
}
const mbIndex = process.argv.indexOf("--mb");
const megabytes = mbIndex === -1 ? 100 : Number(process.argv[mbIndex + 1]);
const fileIndex = process.argv.indexOf("--file");
const given = fileIndex === -1 ? null : process.argv[fileIndex + 1]!;
const agentIndex = process.argv.indexOf("--agent");
const agent = agentIndex === -1 ? null : (process.argv[agentIndex + 1] as GeneratedAgent);
if (agent && !GENERATED_AGENTS.includes(agent)) throw new Error(`--agent: one of ${GENERATED_AGENTS.join(", ")}`);
const generated: { file: string; bytes: number; turns: number; files?: string[] } = given
  ? { file: given, bytes: statSync(given).size, turns: NaN }
  : agent
    ? generateAgentSession(agent, { minBytes: megabytes * 1024 * 1024, seed: 1 })
    : await generatePiSession({ minBytes: megabytes * 1024 * 1024, minTurns: 0, seed: 1 });
/** Every file the CLI reads for the session (the floor reads the same). */
const files = generated.files ?? [generated.file];
if (files.length > 1) generated.bytes = files.reduce((sum, file) => sum + statSync(file).size, 0);
console.log(`session: ${(generated.bytes / 1e6).toFixed(1)} MB${given ? "" : `, ${generated.turns} turns`}`);
const compareIndex = process.argv.indexOf("--compare");
const other = compareIndex === -1 ? null : process.argv[compareIndex + 1]!;
const prefixArgs = (program: string) => ["--max-old-space-size=8192", program, "prefix", generated.file, "--tokenizer", "estimate"];
const floor = timeChild(process.execPath, ["bench/line-floor.mjs", ...files]);
const cli = timeChild(process.execPath, prefixArgs(bin));
const row = (label: string, run: typeof floor) =>
  console.log(`${label.padEnd(36)} ${run.seconds.toFixed(2)} s wall, ${run.cpuSeconds.toFixed(2)} s CPU, peak ${(run.peakBytes / 1e6).toFixed(0)} MB = ${(run.peakBytes / generated.bytes).toFixed(2)} × file`);
row("floor (line read + JSON.parse)", floor);
row("prefix --tokenizer estimate", cli);
if (process.argv.includes("--strings")) {
  const strings = timeChild(process.execPath, prefixArgs(bin), { CONTEXTSCOPE_STORED_TEXTS: "0" });
  row("prefix, texts read as strings", strings);
  const same = strings.stdout === cli.stdout;
  console.log(`stored texts / strings: wall ${(cli.seconds / strings.seconds).toFixed(2)}, CPU ${(cli.cpuSeconds / strings.cpuSeconds).toFixed(2)}, peak ${(cli.peakBytes / strings.peakBytes).toFixed(2)}; output ${same ? "identical" : "DIFFERS"}`);
}
if (other) {
  const earlier = timeChild(process.execPath, prefixArgs(other));
  row(`prefix (${other})`, earlier);
  const same = earlier.stdout === cli.stdout;
  console.log(`this build / ${other}: wall ${(cli.seconds / earlier.seconds).toFixed(2)}, CPU ${(cli.cpuSeconds / earlier.cpuSeconds).toFixed(2)}, peak ${(cli.peakBytes / earlier.peakBytes).toFixed(2)}; output ${same ? "identical" : "DIFFERS"}`);
}
console.log(`ratio prefix / floor: wall ${(cli.seconds / floor.seconds).toFixed(2)}, CPU ${(cli.cpuSeconds / floor.cpuSeconds).toFixed(2)} (target ≤ 1.6); peak memory ${(cli.peakBytes / generated.bytes).toFixed(2)} × file (target ≤ 1.3)`);
if (!given) rmSync(agent ? generated.file.slice(0, generated.file.indexOf(path.sep, generated.file.indexOf("contextscope-agent-"))) : path.dirname(generated.file), { recursive: true, force: true });
