// A Claude Code session with one 50 MB field against the same session without it: `requests` and
// `prefix` (default tokenizer, and `--tokenizer estimate`) as whole processes of the compiled CLI,
// under GNU time (bench/child-time.ts). The field is the longest string of the first recorded
// request blob (the system prompt Claude Code sends with every turn), so every turn's request
// carries it. Large values are meant to be measured once per distinct content (token counts,
// secret scans, hashes), never again per turn: the ratio huge / small is what this reports, with
// the per-line floor (read and JSON.parse the file) of the huge session for scale. CPU seconds
// (user + system) are the figure that matters on a shared machine; wall seconds are printed too.
// Build first (`npm run build:cli`). Run with `npx tsx bench/huge-field.bench.ts [--mb N]`.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { timeChild, type ChildTime } from "./child-time";

const bin = "dist-cli/contextscope.mjs";
if (!existsSync(bin)) {
  console.error(`${bin} is missing: run \`npm run build:cli\` first`);
  process.exit(1);
}
const mbIndex = process.argv.indexOf("--mb");
const megabytes = mbIndex === -1 ? 50 : Number(process.argv[mbIndex + 1]);
const fixture = "test/fixtures/claude/print-autocompact-manualcompact/session/projects/-home-dev-claude-print-autocompact-manualcompact-lighthouse-notes/ae06c21a-08ae-4c39-89e0-c4dcf08d14e8.jsonl";

/** The fixture with the longest string of its first request blob replaced by `text`. */
function withField(text: string): string {
  const lines = readFileSync(fixture, "utf8").trimEnd().split("\n");
  const at = lines.findIndex((line) => (JSON.parse(line) as { type?: string }).type === "api-request-blob");
  const value = JSON.parse(lines[at]!) as unknown;
  let longest: { length: number; set: (text: string) => void } = { length: -1, set: () => {} };
  const visit = (node: unknown) => {
    if (node === null || typeof node !== "object") return;
    const record = node as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const child = record[key];
      if (typeof child === "string" && child.length > longest.length) longest = { length: child.length, set: (t) => (record[key] = t) };
      else visit(child);
    }
  };
  visit(value);
  longest.set(text);
  lines[at] = JSON.stringify(value);
  return `${lines.join("\n")}\n`;
}

const dir = mkdtempSync(path.join(tmpdir(), "contextscope-huge-field-"));
const small = path.join(dir, "small.jsonl");
const huge = path.join(dir, "huge.jsonl");
writeFileSync(small, withField("sk-ant token "));
// Text with words and separators, so tokenizers and secret patterns see structure.
writeFileSync(huge, withField("sk-ant token ".repeat(Math.round((megabytes * 1e6) / 13))));

const runs: [string, string[]][] = [
  ["requests", ["requests"]],
  ["prefix", ["prefix"]],
  ["prefix --tokenizer estimate", ["prefix", "--tokenizer", "estimate"]],
];
const cli = (file: string, args: string[]): ChildTime => timeChild(process.execPath, ["--max-old-space-size=8192", bin, args[0]!, file, ...args.slice(1)]);
const floor = timeChild(process.execPath, ["bench/line-floor.mjs", huge]);
const format = (t: ChildTime) => `${t.cpuSeconds.toFixed(2)} s CPU (${t.seconds.toFixed(2)} s wall, ${(t.peakBytes / 1e6).toFixed(0)} MB peak)`;
console.log(`field: ${megabytes} MB; per-line floor of the session with it: ${format(floor)}`);
try {
  for (const [name, args] of runs) {
    const without = cli(small, args);
    const withIt = cli(huge, args);
    const ratio = withIt.cpuSeconds / without.cpuSeconds;
    const overFloor = (withIt.cpuSeconds - floor.cpuSeconds) / without.cpuSeconds;
    console.log(`${name}: without ${format(without)}; with ${format(withIt)}; ratio ${ratio.toFixed(1)} (${overFloor.toFixed(1)} once the floor is taken off)`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
