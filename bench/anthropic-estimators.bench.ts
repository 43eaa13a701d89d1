// How far each Anthropic token estimator is from the provider's own counts, on real Claude Code
// sessions. A Claude Code transcript records the usage of every call: input + cache read + cache
// creation is the whole prompt the provider counted. Between two consecutive main-chain calls
// whose second request strictly extends the first (no compaction, no model switch, no prefix
// break), the growth of that total is the provider's count of what was appended: the first call's
// reply as sent back, plus the tool results and user content after it. Each estimator counts the
// same appended part through the app's own segmentation (src/core/prefix), so the error measured is
// the error the app shows.
//
// Run: `npx tsx bench/anthropic-estimators.bench.ts [--json] [files…]`. Without files it reads the
// Claude Code sessions of ../shared/fixtures/realworld/claude-code. The recorded fixtures of
// ../shared/fixtures/claude/* are listed but not measured: their provider was scripted and reported
// ceil(request characters / 4) as input usage (their README), which says nothing about tokens.
//
// Fitted rows (a divisor or factor) are fitted leave-one-file-out: each file is scored with the
// value fitted on the other files (Σ usage growth / Σ estimate), so the fit is not scored on the
// data it came from. The last row is the app's default Anthropic counter (src/core/tokens).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { countTokens as anthropicCount } from "@anthropic-ai/tokenizer";
import { Tokenizer } from "ai-tokenizer";
import * as claudeEncoding from "ai-tokenizer/encoding/claude";
import { countTokens as o200kCount } from "gpt-tokenizer/encoding/o200k_base";
import type { PipelineOptions, Session } from "../src/core/model";
import { analyzeSession } from "../src/core/session/pipeline";
import { iterateSessionPrefixes } from "../src/core/session/sessionPrefixes";
import { iterateTurnRequests } from "../src/core/session/turnRequests";
import type { PrefixTurnReport } from "../src/core/prefix/analyze";
import { readSessionText } from "../src/core/session/read";
import { claudeEstimateCounter, type TokenCounter } from "../src/core/tokens/counters";
import { loadTokenizerTables } from "../src/core/tokens/tables";

// The core counts synchronously once the hosts have loaded the tokenizer tables.
await loadTokenizerTables(["o200k", "claude"]);

const SHARED = path.resolve(import.meta.dirname, "../../shared/fixtures");

/** A transcript under a folder, recursively (the shared claude fixture keeps it under session/projects). */
function jsonlUnder(folder: string): string[] {
  if (!existsSync(folder)) return [];
  const found: string[] = [];
  for (const name of readdirSync(folder)) {
    const full = path.join(folder, name);
    if (statSync(full).isDirectory()) found.push(...jsonlUnder(full));
    else if (name.endsWith(".jsonl") && !name.startsWith("agent-")) found.push(full);
  }
  return found.sort();
}

function scriptedFixtures(): string[] {
  const folder = path.join(SHARED, "claude");
  return existsSync(folder) ? readdirSync(folder).flatMap((name) => jsonlUnder(path.join(folder, name, "session"))) : [];
}

const claudeTokenizer = new Tokenizer(claudeEncoding);
const countWith = (count: (text: string) => number) => (text: string) => (text.length === 0 ? 0 : count(text));

/** Character count: gives the appended characters, from which chars/N and the fitted divisor follow. */
const charsCounter: TokenCounter = { id: "bench:chars", exact: false, label: "characters", count: (text) => text.length };

const TOKENIZERS: { name: string; counter: TokenCounter; core: boolean }[] = [
  { name: "o200k (gpt-tokenizer)", core: true, counter: { id: "bench:o200k", exact: false, label: "o200k", count: countWith(o200kCount) } },
  { name: "@anthropic-ai/tokenizer 0.0.4", core: false, counter: { id: "bench:anthropic", exact: false, label: "anthropic", count: countWith(anthropicCount) } },
  { name: "ai-tokenizer 1.0.6 claude", core: true, counter: { id: "bench:ai-claude", exact: false, label: "ai-claude", count: countWith((text) => claudeTokenizer.count(text)) } },
  { name: `default: ${claudeEstimateCounter.label}`, core: true, counter: claudeEstimateCounter },
];
const DEFAULT_ROW = TOKENIZERS[TOKENIZERS.length - 1]!.name;

interface Pair {
  file: string;
  turn: number;
  actual: number;
  chars: number;
  estimates: Record<string, number>;
  thinking: boolean;
}

const OPTIONS: PipelineOptions = { profile: "pi", leafId: null };

/** Entries between two answers, in file order, that belong to a sub-agent: its calls interleave. */
function sidechainBetween(session: Session, fromEntry: string, toEntry: string): boolean {
  const from = session.entries.findIndex((entry) => entry.id === fromEntry);
  const to = session.entries.findIndex((entry) => entry.id === toEntry);
  if (from < 0 || to < 0) return true;
  for (const entry of session.entries.slice(from + 1, to)) {
    if (entry.raw.isSidechain === true) return true;
    const data = entry.raw.data as { type?: unknown } | undefined;
    if (entry.raw.type === "progress" && data?.type === "agent_progress") return true;
  }
  return false;
}

/** Whether the request's last assistant message (the reply just appended) carries a thinking block. */
function replyHasThinking(report: PrefixTurnReport, bodies: Map<number, Record<string, unknown>>): boolean {
  const messages = (bodies.get(report.turn)?.messages ?? []) as { role?: string; content?: unknown }[];
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role !== "assistant") continue;
    return Array.isArray(message.content) && message.content.some((block: { type?: string }) => block.type === "thinking" || block.type === "redacted_thinking");
  }
  return false;
}

function reportsWith(session: Session, counter: TokenCounter): PrefixTurnReport[] {
  const analysis = analyzeSession(session, OPTIONS);
  const reports: PrefixTurnReport[] = [];
  for (const report of iterateSessionPrefixes(session, OPTIONS, { analysis, prefix: { counter, simulate: false } })) reports.push(report);
  return reports;
}

function pairsOf(file: string): { pairs: Pair[]; turns: number; excluded: Record<string, number> } {
  const session = readSessionText(readFileSync(file, "utf8"), path.basename(file));
  const analysis = analyzeSession(session, OPTIONS);
  const summaries = new Map(analysis.turns.map((turn) => [turn.turn, turn]));
  const bodies = new Map<number, Record<string, unknown>>();
  const base = reportsWith(session, charsCounter);
  const byCounter = TOKENIZERS.map((item) => reportsWith(session, item.counter));
  // The bodies, for the thinking check: built once more through the same pipeline.
  for (const { turn, request } of iterateTurnRequests(session, OPTIONS, {})) bodies.set(turn, request.body);
  const excluded: Record<string, number> = {};
  const exclude = (why: string) => (excluded[why] = (excluded[why] ?? 0) + 1);
  const pairs: Pair[] = [];
  for (let index = 1; index < base.length; index++) {
    const previous = base[index - 1]!;
    const current = base[index]!;
    const before = summaries.get(previous.turn);
    const after = summaries.get(current.turn);
    if (!previous.recordedUsage || !current.recordedUsage || previous.recordedUsage.totalInput === 0) {
      exclude("no usage");
      continue;
    }
    if (after?.afterCompaction) {
      exclude("compaction between");
      continue;
    }
    if (current.cause !== null || current.sharedBytes !== previous.bytes) {
      exclude(`does not extend (${current.cause ?? "shorter"})`);
      continue;
    }
    if (!before || !after || sidechainBetween(session, before.entryId, after.entryId)) {
      exclude("sub-agent entries between");
      continue;
    }
    const actual = current.recordedUsage.totalInput - previous.recordedUsage.totalInput;
    if (actual <= 0) {
      exclude("usage did not grow");
      continue;
    }
    const estimates: Record<string, number> = {};
    TOKENIZERS.forEach((item, which) => {
      const reports = byCounter[which]!;
      estimates[item.name] = reports[index]!.tokens - reports[index - 1]!.tokens;
    });
    pairs.push({ file: path.basename(file), turn: current.turn, actual, chars: current.tokens - previous.tokens, estimates, thinking: replyHasThinking(current, bodies) });
  }
  return { pairs, turns: base.length, excluded };
}

interface Row {
  estimator: string;
  core: boolean;
  mean: number;
  median: number;
  p90: number;
  /** Σ estimate / Σ actual − 1: the bias over all appended tokens. */
  total: number;
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (position - low);
}

function rowOf(estimator: string, core: boolean, pairs: Pair[], estimate: (pair: Pair) => number): Row {
  const errors = pairs.map((pair) => Math.abs(estimate(pair) - pair.actual) / pair.actual).sort((a, b) => a - b);
  const sumEstimate = pairs.reduce((sum, pair) => sum + estimate(pair), 0);
  const sumActual = pairs.reduce((sum, pair) => sum + pair.actual, 0);
  return {
    estimator,
    core,
    mean: errors.reduce((sum, value) => sum + value, 0) / errors.length,
    median: quantile(errors, 0.5),
    p90: quantile(errors, 0.9),
    total: sumEstimate / sumActual - 1,
  };
}

/** An estimate scaled by the factor fitted on the other files (leave-one-file-out). */
function crossFitted(pairs: Pair[], base: (pair: Pair) => number): { estimate: (pair: Pair) => number; factors: number[] } {
  const factorFor = new Map<string, number>();
  for (const file of new Set(pairs.map((pair) => pair.file))) {
    const others = pairs.filter((pair) => pair.file !== file);
    const estimated = others.reduce((sum, pair) => sum + base(pair), 0);
    factorFor.set(file, estimated > 0 ? others.reduce((sum, pair) => sum + pair.actual, 0) / estimated : 1);
  }
  return { estimate: (pair) => base(pair) * (factorFor.get(pair.file) ?? 1), factors: [...factorFor.values()] };
}

const range = (values: number[], digits: number) => {
  const low = Math.min(...values).toFixed(digits);
  const high = Math.max(...values).toFixed(digits);
  return low === high ? low : `${low}–${high}`;
};

function rowsOf(pairs: Pair[]): Row[] {
  const rows = [rowOf("characters / 4", true, pairs, (pair) => pair.chars / 4)];
  const chars = crossFitted(pairs, (pair) => pair.chars);
  rows.push(rowOf(`characters / ${range(chars.factors.map((factor) => 1 / factor), 2)} (fitted)`, true, pairs, chars.estimate));
  for (const item of TOKENIZERS) {
    const base = (pair: Pair) => pair.estimates[item.name]!;
    rows.push(rowOf(item.name, item.core, pairs, base));
    if (item.name === DEFAULT_ROW) continue;
    const fitted = crossFitted(pairs, base);
    rows.push(rowOf(`${item.name} × ${range(fitted.factors, 3)} (fitted)`, item.core, pairs, fitted.estimate));
  }
  return rows;
}

const pct = (value: number) => `${(value * 100).toFixed(1)} %`;
const signed = (value: number) => `${value >= 0 ? "+" : "−"}${(Math.abs(value) * 100).toFixed(1)} %`;

function printTable(title: string, pairs: Pair[]): Row[] {
  const rows = rowsOf(pairs);
  console.log(`\n${title} (${pairs.length} pairs)\n`);
  console.log("| estimator | in core | mean abs error | median | p90 | Σ estimate vs Σ usage |");
  console.log("|---|---|---|---|---|---|");
  for (const row of rows) console.log(`| ${row.estimator} | ${row.core ? "yes" : "no (Node only)"} | ${pct(row.mean)} | ${pct(row.median)} | ${pct(row.p90)} | ${signed(row.total)} |`);
  return rows;
}

function main(): void {
  const args = process.argv.slice(2);
  const json = args.includes("--json");
  const files = args.filter((arg) => !arg.startsWith("--"));
  const inputs = files.length > 0 ? files : jsonlUnder(path.join(SHARED, "realworld/claude-code"));
  if (inputs.length === 0) throw new Error(`no Claude Code sessions found under ${SHARED}/realworld/claude-code`);
  if (files.length === 0) for (const file of scriptedFixtures()) console.log(`${path.basename(file)}: not measured (scripted provider: usage = ceil(request characters / 4))`);
  const all: Pair[] = [];
  for (const file of inputs) {
    const started = Date.now();
    const { pairs, turns, excluded } = pairsOf(file);
    all.push(...pairs);
    const why = Object.entries(excluded).map(([reason, count]) => `${count} ${reason}`).join(", ");
    console.log(`${path.basename(file)}: ${turns} turns, ${pairs.length} pairs measured${why ? `; excluded: ${why}` : ""} (${Date.now() - started} ms)`);
  }
  const rows = printTable("All pairs", all);
  // Thinking blocks are sent back and counted; a table of their own only when both kinds occur.
  const thinking = all.filter((pair) => pair.thinking);
  console.log(`\npairs whose first reply carries a thinking block: ${thinking.length} of ${all.length}`);
  if (thinking.length > 0 && thinking.length < all.length) {
    printTable("The first call's reply has a thinking block", thinking);
    printTable("The first call's reply has no thinking block", all.filter((pair) => !pair.thinking));
  }
  if (json) console.log(JSON.stringify({ rows, pairs: all }));
}

main();
