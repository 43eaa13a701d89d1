// `scan`: every session under the folders and files given (src/cli/scan/discover.ts), analysed in
// parallel on worker threads, one JSON line per session as it finishes (src/cli/scan/line.ts),
// with a progress bar on standard error when it is a terminal. Files that are not sessions are
// named on standard error. Lines come in the order sessions finish: sort them for a stable order.
import { integerOption } from "../args";
import { CliError, orCliError, type CliIo } from "../io";
import { type CliCommand, type CliOptionValues, withoutTokenTables } from "../registry";
import type { TokenizerChoice } from "../../core/tokens/counters";
import { discoverSessions } from "../scan/discover";
import { progressBar } from "../scan/progress";
import { runScanJobs } from "../scan/run";
import { threadCount } from "../threads/tokenPool";

const NAME = "scan";

async function run(positionals: string[], options: CliOptionValues, io: CliIo): Promise<number> {
  const discovery = orCliError(NAME, () => discoverSessions(positionals));
  for (const skipped of discovery.skipped) io.stderr(`skipped: ${skipped.file}: ${skipped.reason}\n`);
  if (discovery.jobs.length === 0) throw new CliError(`${NAME}: no session files in ${positionals.join(", ")}`);
  const threads = threadCount(integerOption(options, "jobs", NAME));
  const tokenizer = (options.tokenizer as TokenizerChoice | undefined) ?? "auto";
  const progress = progressBar(discovery.jobs.length, io);
  let done = 0;
  let failed = 0;
  const full = options.full === true;
  await runScanJobs(discovery.jobs, { tokenizer, threads, full }, io.readFile, (line) => {
    if (line.error !== null) failed++;
    io.stdout(`${JSON.stringify(line)}\n`);
    progress.tick(++done);
  });
  progress.end();
  if (failed > 0) io.stderr(`warning: ${failed} of ${done} sessions could not be analysed (their lines have "error")\n`);
  return 0;
}

// Each job loads what its session needs, on the thread that analyses it.
export const scanCommand: CliCommand = withoutTokenTables({
  name: NAME,
  summary: "analyse every session under folders or files, in parallel: one JSON line per session (turns, compactions, tokens, cost; cache breaks by cause with --full)",
  positionals: ["<folder-or-file>…"],
  options: [
    {
      name: "tokenizer",
      value: "auto|estimate|o200k",
      description: "token counts as for prefix (default auto = exact o200k for OpenAI shapes; estimate = chars/4, fastest)",
      choices: ["auto", "estimate", "o200k"],
    },
    { name: "full", description: "the full rebuild of every session (breaks by cause, server verdicts, predicted cache); without it, a session whose agent has a summary pass is summed from its recorded usage in one pass over its lines" },
    { name: "jobs", value: "N", description: "sessions analysed at once, one per thread (default: one per core; 1 = one after another)" },
  ],
  details: [
    "Output, one JSON object per session, in the order they finish:",
    '  {"file","agent","turns","compactions","threads","breaks","breaksByCause":{cause:n},',
    '   "serverVerdicts":{"agree","disagree","inconclusive","noVerdict"},"unexplainedMisses","predictedCachedTokens",',
    '   "recordedCachedTokens","recordedInputTokens","requestTokens","tokenizer","warnings","with":[files],"error",',
    '   "wholeSession":{…},"reportedBreaks","pass":"summary"|"full"}',
    "Claude Code and Codex sessions are summed from their recorded usage in one pass (pass \"summary\"; the keys that",
    "need rebuilt requests are null); --full rebuilds every session (pass \"full\").",
    "Files that are not sessions are listed on stderr as `skipped: <file>: <reason>`. See docs/cli.md#scan.",
  ].join("\n"),
  run,
});
