// `prefix`: one JSON line per turn with its prefix-stability report: the bytes
// and tokens of the turn's request in the provider's cache order, what it shares with the previous
// turn's request, where it stops extending it (breakPath), why (cause, PD-2), and the cached
// tokens the cache simulation predicts. Requests come from the one-pass builder, so a long session
// costs about as much as reading it (src/core/session/sessionPrefixes.ts). Every line names its
// thread: null for the main thread, a sub-agent thread's id with `--thread` or `--threads`.
import { statSync } from "node:fs";
import { PROFILE_IDS } from "../../core/session/agents";
import { API_IDS } from "../../core/model";
import type { PrefixTurnReport } from "../../core/prefix/analyze";
import type { TokenizerChoice } from "../../core/tokens/counters";
import { loadTokenizerTables, type TokenizerTable } from "../../core/tokens/tables";
import { sessionTables } from "../../core/tokens/sessionTables";
import { integerOption } from "../args";
import { loadAnySession } from "../inputs";
import { sessionPrefixCompositions } from "../parallelPrefixes";
import { createTokenPool, threadCount, type TokenPool } from "../threads/tokenPool";
import { costField, compositionField } from "../costFields";
import type { TurnComposition } from "../../core/session/sessionComposition";
import { costInputOfReport, turnCost, type TurnCost } from "../../core/pricing/index";
import { datasetPriceTable } from "../../core/pricing/dataset";
import { createSegmentCache } from "../../core/prefix/segment-builder";
import { CliError, type CliIo } from "../io";
import { type CliCommand, type CliOptionValues, withoutTokenTables } from "../registry";
import { threadTree } from "../../app/threads";
import type { PipelineOptions, Session } from "../../core/model";
import { threadOf, WITH_OPTION, withThreads } from "../threadOptions";
import { analyzeForCommand, checkLeaf, viewPipelineOptions } from "../viewOptions";
import { checkFactsAlone, FACTS_OPTION, factsOption } from "../facts";

const NAME = "prefix";
const TOKENIZERS: readonly TokenizerChoice[] = ["auto", "estimate", "o200k"];

/** The line printed per turn: exactly these keys, in this order (cost and composition when given). */
function prefixLine(
  report: PrefixTurnReport,
  thread: string | null = null,
  extra?: { cost: TurnCost; composition: TurnComposition | undefined },
): Record<string, unknown> {
  const line: Record<string, unknown> = {
    turn: report.turn,
    bytes: report.bytes,
    sharedBytes: report.sharedBytes,
    tokens: report.tokens,
    sharedTokens: report.sharedTokens,
    breakPath: report.breakPath,
    cause: report.cause,
    predictedCachedTokens: report.predictedCachedTokens,
    unrecordedTokens: report.unrecorded?.tokens ?? null,
    serverVerdict: report.serverVerdict,
    serverMissedTokens: report.serverMissedTokens,
    serverAgreement: report.serverAgreement,
    unexplainedMiss: report.unexplainedMiss,
    thread,
  };
  if (extra) {
    line.cost = costField(extra.cost, { predicted: true });
    line.composition = compositionField(extra.composition);
  }
  return line;
}

interface CountOptions {
  tokenizer: TokenizerChoice;
  /** The threads counting exact tokens; null: counted on the main thread. */
  pool: TokenPool | null;
}

/** An input file this large is sure to need the token threads: they start before it is read. */
const START_THREADS_AT_BYTES = 8 * 1024 * 1024;

async function printThread(session: Session, thread: string | null, pipeline: PipelineOptions, count: CountOptions, file: string, io: CliIo): Promise<void> {
  const analysis = analyzeForCommand(session, pipeline, file);
  const where = thread === null ? "" : ` (thread ${thread})`;
  for (const warning of analysis.warnings) io.stderr(`warning: line ${warning.line}${where}: ${warning.reason}\n`);
  const { tokenizer } = count;
  const tables = sessionTables(tokenizer, analysis, pipeline);
  // With counting threads, the first walk only collects the o200k texts: this thread loads the
  // o200k table after it, so the threads get their first texts sooner.
  const afterFirstWalk: TokenizerTable[] = count.pool ? tables.filter((table) => table === "o200k") : [];
  await loadTokenizerTables(tables.filter((table) => !afterFirstWalk.includes(table)));
  const segmentCache = createSegmentCache();
  const byTurn = new Map(analysis.turns.map((turn) => [turn.turn, turn]));
  const prices = datasetPriceTable();
  let previousTokens: number | null = null;
  const print = (report: PrefixTurnReport, composition: TurnComposition | undefined) => {
    const turn = byTurn.get(report.turn);
    const input = costInputOfReport(report, previousTokens, turn?.model ?? null);
    input.at = turn?.timestamp ?? null;
    // The line prints each cost's status and dollars, not its parts: none are made.
    const cost = turnCost(input, prices, false);
    previousTokens = report.tokens;
    io.stdout(`${JSON.stringify(prefixLine(report, thread, { cost, composition }))}\n`);
  };
  const walk = await sessionPrefixCompositions(session, pipeline, {
    tokenizer,
    pool: count.pool,
    analysis,
    segmentCache,
    beforeCounting: () => loadTokenizerTables(afterFirstWalk),
  });
  for await (const { report, composition } of walk) print(report, composition);
}

async function run(positionals: string[], options: CliOptionValues, io: CliIo): Promise<number> {
  const file = positionals[0]!;
  checkFactsAlone(options, NAME);
  const tokenizer = (options.tokenizer as TokenizerChoice | undefined) ?? "auto";
  const thread = options.thread as string | undefined;
  if (thread !== undefined && options.threads === true) throw new CliError(`${NAME}: --thread and --threads exclude each other`);
  const pool = tokenizer === "estimate" ? null : createTokenPool(threadCount(integerOption(options, "jobs", NAME)));
  if (pool && fileBytes(file) >= START_THREADS_AT_BYTES) pool.start();
  try {
    const main = withThreads(await loadAnySession(io, file, (options.session as string | undefined) ?? null), options, io);
    const pipeline = viewPipelineOptions(options, io, main);
    Object.assign(pipeline, factsOption(options, io, main, NAME));
    const count = { tokenizer, pool };
    if (options.threads === true) {
      checkLeaf(main, pipeline, NAME, file);
      await printThread(main, null, pipeline, count, file, io);
      // Sub-agent threads on their own default branch, in tree order (as `threads` lists them).
      for (const { thread: item } of threadTree(main.threads ?? [], main)) {
        await printThread(item.session, item.id, { ...pipeline, leafId: null }, count, file, io);
      }
      return 0;
    }
    const session = threadOf(main, thread, NAME);
    checkLeaf(session, pipeline, NAME, file);
    await printThread(session, thread ?? null, pipeline, count, file, io);
    return 0;
  } finally {
    await pool?.close();
  }
}

/** The size of `file` in bytes, or 0 when it is not a regular file (a folder, a database name). */
function fileBytes(file: string): number {
  try {
    const stat = statSync(file);
    return stat.isFile() ? stat.size : 0;
  } catch {
    return 0;
  }
}

// printThread loads the tables each session's request shapes need.
export const prefixCommand: CliCommand = withoutTokenTables({
  name: NAME,
  summary: "print, per turn, what its request shares with the previous one, where and why it breaks, and the predicted cached tokens",
  positionals: ["<session-file>"],
  options: [
    { name: "provider", value: "API", description: "wire shape to compare instead of the recorded one", choices: API_IDS },
    { name: "header", value: "captured-request.json", description: "captured main request: system prompt, tools and settings come from it" },
    FACTS_OPTION,
    { name: "session", value: "id", description: "opencode database: the session to analyse (default: the most recently updated one)" },
    { name: "profile", value: PROFILE_IDS.join("|"), description: "pipeline profile of pi files (default: the session's own, senpi for a senpi file)", choices: PROFILE_IDS },
    { name: "notes", value: "on|off", description: "senpi reply-language notes (default off)", choices: ["on", "off"] },
    { name: "leaf", value: "entryId", description: "branch to analyse: the path ending at this entry (default: last entry in file order)" },
    {
      name: "tokenizer",
      value: "auto|estimate|o200k",
      description: "token counts: auto (default) = exact o200k for OpenAI shapes, the measured Claude estimate for Anthropic, o200k for Google; estimate = chars/4 (fastest)",
      choices: TOKENIZERS,
    },
    WITH_OPTION,
    { name: "thread", value: "id", description: "analyse this sub-agent thread's requests instead of the main thread's (ids: the `threads` command)" },
    { name: "threads", description: "analyse the main thread, then every sub-agent thread in tree order" },
    { name: "jobs", value: "N", description: "worker threads counting exact tokens (default: one per core; 1 = none besides the main one)" },
  ],
  details: [
    "Output, one JSON object per turn:",
    '  {"turn":N,"bytes":…,"sharedBytes":…,"tokens":…,"sharedTokens":…,"breakPath":…|null,"cause":…|null,"predictedCachedTokens":…,"unrecordedTokens":…|null,',
    '   "serverVerdict":…|null,"serverMissedTokens":…|null,"serverAgreement":"agree|disagree|inconclusive|no-verdict","unexplainedMiss":…,"thread":null|id,',
    '   "cost":{"recorded":{"status":…,"dollars":…|null},"predicted":{…},"break":{…,"rebilledTokens":N}|null,"priceRow":…|null},',
    '   "composition":{"tools":N,"system":N,"user":N,"assistant":N,"tool-result":N,…,"total":N}}',
    "bytes/tokens: the turn's request in the provider's cache order (cache markers and request metadata left out);",
    "sharedBytes/sharedTokens: its common prefix with the previous turn's request; breakPath: JSON path of the first",
    "difference (null when the request extends the previous one); cause: why (history-rewritten, system-changed, …).",
    "unrecordedTokens: what the file does not hold (system prompt, tools), inferred from the first recorded usage",
    "(again after a compaction); the cache prediction counts it, `tokens` does not. null: nothing missing or no usage.",
    "serverVerdict/serverMissedTokens: the provider's own cache verdict the file records for the call (Claude Code",
    "2.1.143+: tools_changed, messages_changed, none, unavailable, …) and the input tokens it says missed the cache;",
    "serverAgreement: that verdict against breakPath/cause; unexplainedMiss: the recorded usage wrote most of the",
    "previous call's prompt to the cache again and nothing above explains it (docs/prefix-stability.md).",
    "thread: null for the main thread, else the sub-agent thread's id (--thread, --threads; turns count per thread).",
    "Token counts are exact for OpenAI shapes and estimates for Anthropic and Google (docs/prefix-stability.md).",
    "cost: US dollars from the built-in price table (docs/prices.md): the recorded usage, the cache simulation's",
    'prediction, and what a prefix break re-bills; "partly priced"/"not priced" (dollars null) when a price is unknown.',
    "composition: the request's tokens by kind, counted with the same tokenizer (docs/composition.md).",
  ].join("\n"),
  run,
});
