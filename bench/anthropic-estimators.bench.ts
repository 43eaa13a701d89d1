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
// Claude Code sessions of ../shared/fixtures/realworld/claude-code and the transcript of
// ../shared/fixtures/claude/*.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { countTokens as anthropicCount } from "@anthropic-ai/tokenizer";
import { Tokenizer } from "ai-tokenizer";
import * as claudeEncoding from "ai-tokenizer/encoding/claude";
import { countTokens as o200kCount } from "gpt-tokenizer/encoding/o200k_base";
import type { PipelineOptions, Session } from "../src/core/model";
import { analyzeSession } from "../src/core/pipeline/index";
import { iterateSessionPrefixes } from "../src/core/pipeline/sessionPrefixes";
import { iterateTurnRequests } from "../src/core/pipeline/turnRequests";
import type { PrefixTurnReport } from "../src/core/prefix/analyze";
import { readSessionText } from "../src/core/readers/registry";
import type { TokenCounter } from "../src/core/tokens/counters";

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

function defaultFiles(): string[] {
  const claudeFixtures = existsSync(path.join(SHARED, "claude")) ? readdirSync(path.join(SHARED, "claude")).map((name) => path.join(SHARED, "claude", name, "session")) : [];
  return [...jsonlUnder(path.join(SHARED, "realworld/claude-code")), ...claudeFixtures.flatMap(jsonlUnder)];
}

const claudeTokenizer = new Tokenizer(claudeEncoding);
const countWith = (count: (text: string) => number) => (text: string) => (text.length === 0 ? 0 : count(text));

/** Character count: gives the appended characters, from which chars/N and the fitted divisor follow. */
const charsCounter: TokenCounter = { id: "bench:chars", exact: false, label: "characters", count: (text) => text.length };

const TOKENIZERS: { name: string; counter: TokenCounter; core: boolean }[] = [
  { name: "o200k (gpt-tokenizer)", core: true, counter: { id: "bench:o200k", exact: false, label: "o200k", count: countWith(o200kCount) } },
  { name: "@anthropic-ai/tokenizer 0.0.4", core: false, counter: { id: "bench:anthropic", exact: false, label: "anthropic", count: countWith(anthropicCount) } },
  { name: "ai-tokenizer 1.0.6 claude", core: true, counter: { id: "bench:ai-claude", exact: false, label: "ai-claude", count: countWith((text) => claudeTokenizer.count(text)) } },
];

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

function rowsOf(pairs: Pair[], divisor: number): Row[] {
  return [
    rowOf("characters / 4", true, pairs, (pair) => pair.chars / 4),
    rowOf(`characters / ${divisor.toFixed(2)} (fitted)`, true, pairs, (pair) => pair.chars / divisor),
    ...TOKENIZERS.map((item) => rowOf(item.name, item.core, pairs, (pair) => pair.estimates[item.name]!)),
  ];
}

const pct = (value: number) => `${(value * 100).toFixed(1)} %`;
const signed = (value: number) => `${value >= 0 ? "+" : "−"}${(Math.abs(value) * 100).toFixed(1)} %`;

function printTable(title: string, pairs: Pair[], divisor: number): Row[] {
  const rows = rowsOf(pairs, divisor);
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
  const inputs = files.length > 0 ? files : defaultFiles();
  if (inputs.length === 0) throw new Error(`no Claude Code sessions found under ${SHARED}`);
  const all: Pair[] = [];
  for (const file of inputs) {
    const started = Date.now();
    const { pairs, turns, excluded } = pairsOf(file);
    all.push(...pairs);
    const why = Object.entries(excluded).map(([reason, count]) => `${count} ${reason}`).join(", ");
    console.log(`${path.basename(file)}: ${turns} turns, ${pairs.length} pairs measured${why ? `; excluded: ${why}` : ""} (${Date.now() - started} ms)`);
  }
  const sumChars = all.reduce((sum, pair) => sum + pair.chars, 0);
  const sumActual = all.reduce((sum, pair) => sum + pair.actual, 0);
  // In-sample fit: the divisor that makes Σ chars / divisor equal Σ usage growth.
  const divisor = sumChars / sumActual;
  const rows = printTable("All pairs", all, divisor);
  printTable("Replies without a thinking block", all.filter((pair) => !pair.thinking), divisor);
  printTable("Replies with a thinking block", all.filter((pair) => pair.thinking), divisor);
  if (json) console.log(JSON.stringify({ divisor, rows, pairs: all }));
}

main();
