// `threads`: the thread tree of a session, one JSON line per thread: the main thread first, then
// each sub-agent thread under the thread that started it (Claude Code sidechains, agent_progress
// lines, sub-agent files given with --with; Codex child rollouts given with --with), with its
// label, origin, the tool call that started it, turns, requests, prefix breaks and the cost of its recorded usage.
// The ids are what `requests --thread` and `prefix --thread` take.
import { threadInfos } from "../../app/threads";
import { loadAnySession } from "../inputs";
import type { CliIo } from "../io";
import { type CliCommand, type CliOptionValues, withoutTokenTables } from "../registry";
import { WITH_OPTION, withThreads } from "../threadOptions";
import { analyzeForCommand } from "../viewOptions";

const NAME = "threads";

async function run(positionals: string[], options: CliOptionValues, io: CliIo): Promise<number> {
  const file = positionals[0]!;
  const session = withThreads(await loadAnySession(io, file, (options.session as string | undefined) ?? null), options, io);
  const pipeline = { leafId: null };
  const analysis = analyzeForCommand(session, pipeline, file);
  const threads = threadInfos(session, pipeline);
  io.stdout(
    `${JSON.stringify({ thread: null, label: "main thread", parentThreadId: null, depth: 0, origin: "main", spawnedBy: null, turns: analysis.turns.length, requests: analysis.turns.length + (analysis.auxiliary?.length ?? 0), fileName: session.fileName })}\n`,
  );
  for (const info of threads) {
    io.stdout(
      `${JSON.stringify({ thread: info.id, label: info.label, parentThreadId: info.parentThreadId, depth: info.depth, origin: info.origin, spawnedBy: info.spawnedBy, turns: info.turns, requests: info.requests, breaks: info.breaks, cost: info.cost, fileName: info.fileName })}\n`,
    );
  }
  return 0;
}

// Its prefix breaks are counted in chars/4.
export const threadsCommand: CliCommand = withoutTokenTables({
  name: NAME,
  summary: "list the session's threads as a tree: the main thread and every sub-agent thread, with the tool call that started it",
  positionals: ["<session-file>"],
  options: [WITH_OPTION, { name: "session", value: "id", description: "opencode database: the session to list (default: the most recently updated one)" }],
  details: [
    "Output, one JSON object per thread, the main thread first, then the tree depth-first:",
    '  {"thread":null,"label":"main thread","parentThreadId":null,"depth":0,"origin":"main","spawnedBy":null,"turns":N,"requests":N,"fileName":…}',
    '  {"thread":id,"label":…,"parentThreadId":null|id,"depth":1…,"origin":"sidechain|progress|file|elsewhere",',
    '   "spawnedBy":{"entryId","toolCallId","toolName"}|null,"turns":N,"requests":N,"breaks":N|null,"cost":{"status","dollars"}|null,"fileName":…}',
    "breaks: the thread's requests that do not extend the previous one (prefix analysis, chars/4 tokens).",
    "cost: the thread's recorded usage in dollars (built-in price table; \"not priced\" when its model is unknown).",
  ].join("\n"),
  run,
});
