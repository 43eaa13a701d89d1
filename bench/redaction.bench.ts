// Secret detection over a large real session, with and without gitleaks' rules: every line of the
// file is parsed and redacted as share and export redact (redactJson, the detector check uses).
// Three catalogues: our own patterns alone (the detector before gitleaks' rules joined it), the
// whole detector (ours + gitleaks, keyword pre-filter on), and the whole detector with the
// pre-filter off (each gitleaks rule's regex run on every string), to show what the keywords save.
// Run with `npx tsx bench/redaction.bench.ts [file]` (default: the largest shared Claude Code file).
import { readFileSync } from "node:fs";
import { secretDetector } from "../src/core/check/secretDetector";
import { gitleaksRules, OWN_SECRET_PATTERNS } from "../src/core/redact/catalogue";
import { redactJson } from "../src/core/redact";
import type { SecretPattern } from "../src/core/redact/types";

const file = process.argv[2] ?? "../shared/fixtures/realworld/claude-code/entire-bccb-2compactions-subagents.jsonl";
const lines = readFileSync(file, "utf8").split("\n").filter((line) => line.trim() !== "");
const values = lines.map((line) => JSON.parse(line) as unknown);
const bytes = lines.reduce((sum, line) => sum + line.length, 0);

const withoutKeywords: readonly SecretPattern[] = secretDetector().map((pattern) =>
  "keywords" in pattern && pattern.keywords ? { ...pattern, keywords: undefined } : pattern,
);

function run(catalogue: readonly SecretPattern[]): { ms: number; findings: number } {
  const started = performance.now();
  let findings = 0;
  for (const value of values) findings += redactJson(value, { catalogue }).findings.length;
  return { ms: performance.now() - started, findings };
}

function median(catalogue: readonly SecretPattern[], runs = 3): { ms: number; findings: number } {
  const results = Array.from({ length: runs }, () => run(catalogue)).sort((a, b) => a.ms - b.ms);
  return results[Math.floor(runs / 2)]!;
}

console.log(`${file}: ${lines.length} lines, ${(bytes / 1e6).toFixed(1)} MB; gitleaks rules used ${gitleaksRules().patterns.length}, left out ${gitleaksRules().leftOut.length}`);
for (const [name, catalogue] of [
  [`our ${OWN_SECRET_PATTERNS.length} patterns alone`, OWN_SECRET_PATTERNS],
  [`detector (${secretDetector().length} patterns, keyword pre-filter)`, secretDetector()],
  ["detector, pre-filter off", withoutKeywords],
] as const) {
  const { ms, findings } = median(catalogue);
  console.log(`${name.padEnd(52)} ${ms.toFixed(0).padStart(6)} ms  ${(bytes / 1e6 / (ms / 1000)).toFixed(1).padStart(6)} MB/s  ${findings} findings`);
}
