// Benchmark of whole-session prefix analysis (issue #5 item 4, design §3): generates a ≥100 MB,
// ≥2,000-turn pi session in a temporary directory and compares
//   (a) the floor: reading the file and JSON.parse of every line, with
//   (b) prefix analysis of every turn's request (segmentation, diff, causes, cache simulation),
// and prints the ratio b / a. Run with `npx tsx bench/prefix.bench.ts [--exact] [--pipeline]`.
//   --exact     also measure with exact o200k token counts (slow: tokenizes every distinct text)
//   --pipeline  also run the app pipeline: every turn's request in one walk (iterateTurnRequests)
//               and the whole-session prefix analysis on it (iterateSessionPrefixes)
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { PipelineOptions } from "../src/core/model";
import { createPrefixAnalyzer, type PrefixAnalysisOptions } from "../src/core/prefix/analyze";
import { generatePiSession } from "./generate-session";
import { loadTokenizerTables } from "../src/core/tokens/tables";

// The core counts synchronously once the hosts have loaded the tokenizer tables.
await loadTokenizerTables(["o200k", "claude"]);

type Json = Record<string, unknown>;

function readAndParse(file: string): Json[] {
  const buffer = readFileSync(file);
  const records: Json[] = [];
  let start = 0;
  for (let index = buffer.indexOf(10, start); index !== -1; index = buffer.indexOf(10, start)) {
    if (index > start) records.push(JSON.parse(buffer.toString("utf8", start, index)) as Json);
    start = index + 1;
  }
  return records;
}

const SYSTEM = { role: "system", content: "You are an expert coding assistant operating inside pi, a coding agent harness. ".repeat(40) };
const TOOLS = ["read", "bash", "edit", "write"].map((name) => ({
  type: "function",
  function: { name, description: `The ${name} tool. `.repeat(20), parameters: { type: "object", properties: { path: { type: "string" } } } },
}));

/** Chat Completions message for a pi message; cached per message object so turns share objects. */
const chatCache = new WeakMap<object, Json>();
function toChat(message: Json): Json {
  let chat = chatCache.get(message);
  if (chat) return chat;
  const content = message.content as Json[];
  if (message.role === "assistant") {
    const calls = content.filter((b) => b.type === "toolCall");
    const text = content.filter((b) => b.type === "text").map((b) => b.text).join("");
    chat = calls.length
      ? { role: "assistant", content: null, tool_calls: calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: JSON.stringify(c.arguments) } })) }
      : { role: "assistant", content: text };
  } else if (message.role === "toolResult") {
    chat = { role: "tool", content: content.map((b) => b.text).join(""), tool_call_id: message.toolCallId };
  } else chat = { role: "user", content };
  chatCache.set(message, chat);
  return chat;
}

/** One pass over the entries: the context as a list kept on the side, one request per assistant message. */
function* turnRequests(records: Json[]) {
  let context: Json[] = [];
  let contextIds: string[] = [];
  let compactionBetween = false;
  let turn = 0;
  for (const record of records) {
    if (record.type === "compaction") {
      const keep = contextIds.indexOf(record.firstKeptEntryId as string);
      const summary = { role: "user", content: [{ type: "text", text: `The conversation history before this point was compacted into the following summary:\n\n<summary>\n${record.summary}\n</summary>` }] };
      context = [summary, ...context.slice(keep)];
      contextIds = ["summary", ...contextIds.slice(keep)];
      compactionBetween = true;
      continue;
    }
    if (record.type !== "message") continue;
    const message = record.message as Json;
    if (message.role === "assistant") {
      turn++;
      yield {
        turn,
        api: "openai-completions" as const,
        body: { model: "gpt-4.1", messages: [SYSTEM, ...context], stream: true, stream_options: { include_usage: true }, store: false, max_completion_tokens: 4000, tools: TOOLS },
        timestamp: record.timestamp as string,
        facts: { compactionBetween },
      };
      compactionBetween = false;
    }
    context.push(toChat(message));
    contextIds.push(record.id as string);
  }
}

function analyzeDirect(records: Json[], options: PrefixAnalysisOptions) {
  const analyzer = createPrefixAnalyzer(options);
  let turns = 0;
  let breaks = 0;
  let causes = 0;
  for (const input of turnRequests(records)) {
    const report = analyzer.next(input);
    turns++;
    if (report.breakPath !== null) breaks++;
    if (report.cause === "history-rewritten") causes++;
  }
  return { turns, breaks, causes };
}

function time<T>(run: () => T): { ms: number; value: T } {
  const start = performance.now();
  const value = run();
  return { ms: performance.now() - start, value };
}

async function main() {
  const args = new Set(process.argv.slice(2));
  const minMb = Number(process.env.BENCH_MB ?? 105);
  const generated = time(() => generatePiSession({ minBytes: minMb * 1024 * 1024, minTurns: Number(process.env.BENCH_TURNS ?? 2000) }));
  const session = await generated.value;
  console.log(`session: ${(session.bytes / 1e6).toFixed(1)} MB, ${session.lines} lines, ${session.turns} turns, ${session.compactions} compactions`);
  try {
    // Warm up the JIT on a small slice so neither side pays compilation alone.
    readAndParse(session.file).slice(0, 2000);

    const floor = time(() => readAndParse(session.file));
    const records = floor.value;
    console.log(`(a) read + JSON.parse every line: ${floor.ms.toFixed(0)} ms`);

    const estimate = time(() => analyzeDirect(records, { tokenizer: "estimate" }));
    console.log(
      `(b) prefix analysis, chars/4 tokens: ${estimate.ms.toFixed(0)} ms for ${estimate.value.turns} turns (${estimate.value.breaks} breaks, ${estimate.value.causes} history-rewritten)`,
    );
    console.log(`ratio b / a = ${(estimate.ms / floor.ms).toFixed(2)}  (target ≤ 2)`);

    if (args.has("--exact")) {
      const exact = time(() => analyzeDirect(records, { tokenizer: "auto" }));
      console.log(`(b') prefix analysis, exact o200k tokens: ${exact.ms.toFixed(0)} ms; ratio ${(exact.ms / floor.ms).toFixed(2)}`);
    }

    if (args.has("--pipeline")) {
      const { piReader } = await import("../src/core/agents/pi/reader");
      const { analyzeSession } = await import("../src/core/session/pipeline");
      const { iterateTurnRequests } = await import("../src/core/session/turnRequests");
      const { iterateSessionPrefixes } = await import("../src/core/session/sessionPrefixes");
      const read = time(() => {
        const reader = piReader.createLineReader(path.basename(session.file));
        const buffer = readFileSync(session.file);
        let start = 0;
        let line = 0;
        for (let index = buffer.indexOf(10, start); index !== -1; index = buffer.indexOf(10, start)) {
          reader.pushLine(buffer.toString("utf8", start, index), ++line);
          start = index + 1;
        }
        return reader.finish();
      });
      const options: PipelineOptions = { profile: "pi" };
      const analysis = time(() => analyzeSession(read.value, options));
      console.log(`pipeline: read ${read.ms.toFixed(0)} ms, analyzeSession ${analysis.ms.toFixed(0)} ms, ${analysis.value.turns.length} turns`);
      // (c) every turn's request through the app pipeline, one walk (src/core/pipeline/turnRequests.ts).
      const built = time(() => {
        let count = 0;
        for (const item of iterateTurnRequests(read.value, options)) count += item.turn > 0 ? 1 : 0;
        return count;
      });
      console.log(`(c) iterateTurnRequests, all ${built.value} turns: ${built.ms.toFixed(0)} ms; ratio c / a = ${(built.ms / floor.ms).toFixed(2)}`);
      // (d) the whole-session prefix analysis the CLI and the worker run: requests + analysis.
      const whole = time(() => {
        let turns = 0;
        let rewritten = 0;
        for (const report of iterateSessionPrefixes(read.value, options, { analysis: analysis.value, prefix: { tokenizer: "estimate" } })) {
          turns++;
          if (report.cause === "history-rewritten") rewritten++;
        }
        return { turns, rewritten };
      });
      console.log(
        `(d) iterateSessionPrefixes (requests + prefix analysis), chars/4: ${whole.ms.toFixed(0)} ms for ${whole.value.turns} turns ` +
          `(${whole.value.rewritten} history-rewritten); ratio d / a = ${(whole.ms / floor.ms).toFixed(2)}  (target ≤ 2); ` +
          `with analyzeSession (d + analyze) / a = ${((whole.ms + analysis.ms) / floor.ms).toFixed(2)}`,
      );
    }
  } finally {
    rmSync(path.dirname(session.file), { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
