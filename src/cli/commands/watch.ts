// `watch`: follows a session file (or every session under a folder) while its agent writes it and
// prints one line per new turn: its tokens, the cached tokens, whether its request broke the
// cached prefix and why, and its cost. Only the bytes appended since the last poll are read
// (src/cli/watch/watchedFile.ts); a folder is searched again for new sessions on every poll.
// Runs until interrupted (Ctrl-C), then exits 0.
import fs from "node:fs";
import { integerOption } from "../args";
import { CliError, type CliIo } from "../io";
import type { CliCommand, CliOptionValues } from "../registry";
import type { TokenizerChoice } from "../../core/tokens/counters";
import type { LiveTurn } from "../../core/session/follow";
import { discoverSessions } from "../scan/discover";
import { costField } from "../costFields";
import { WatchedFile, type WatchSettings } from "../watch/watchedFile";

const NAME = "watch";
const DEFAULT_INTERVAL_MS = 500;

/** The JSON line of a new turn: exactly these keys, in this order. */
function turnLine(file: string | null, turn: LiveTurn): Record<string, unknown> {
  return {
    ...(file !== null ? { file } : {}),
    turn: turn.turn,
    timestamp: turn.timestamp,
    model: turn.model,
    tokens: turn.tokens,
    cachedTokens: { recorded: turn.recordedCachedTokens, predicted: turn.predictedCachedTokens },
    break: turn.cause === null ? null : { cause: turn.cause, detail: turn.causeDetail, path: turn.breakPath, rebilledTokens: turn.rebilledTokens },
    afterCompaction: turn.afterCompaction,
    cost: costField(turn.cost, { predicted: true }),
  };
}

function dollars(value: number | null): string {
  return value === null ? "not priced" : `$${value.toFixed(4)}`;
}

/** The same facts as one line for a terminal. */
function turnText(file: string | null, turn: LiveTurn): string {
  const cached = turn.recordedCachedTokens ?? turn.predictedCachedTokens;
  const cachedWord = turn.recordedCachedTokens !== null ? "cached" : "predicted cached";
  const parts = [
    `${file !== null ? `${file}  ` : ""}turn ${turn.turn}`,
    `${turn.tokens.toLocaleString("en-US")} tokens`,
    `${cachedWord} ${cached === null ? "?" : cached.toLocaleString("en-US")}`,
    dollars(turn.cost.recorded.dollars ?? turn.cost.predicted.dollars),
  ];
  if (turn.afterCompaction) parts.push("after a compaction");
  if (turn.cause !== null) parts.push(`CACHE BREAK: ${turn.cause}${turn.causeDetail ? ` (${turn.causeDetail})` : ""}${turn.cost.break ? `, re-billed ${dollars(turn.cost.break.dollars)}` : ""}`);
  return parts.join("  ");
}

/** Resolves on the first interrupt (SIGINT or SIGTERM). */
function interrupted(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}

async function run(positionals: string[], options: CliOptionValues, io: CliIo): Promise<number> {
  const target = positionals[0]!;
  const stat = fs.statSync(target, { throwIfNoEntry: false });
  if (!stat) throw new CliError(`${NAME}: ${target}: no such file or folder`);
  const folder = stat.isDirectory();
  const interval = integerOption(options, "interval", NAME) ?? DEFAULT_INTERVAL_MS;
  const text = options.format === "text";
  const printExisting = options.existing === true;
  const settings: WatchSettings = {
    pipeline: { profile: "pi", leafId: null, api: null, header: null, notes: false },
    tokenizer: (options.tokenizer as TokenizerChoice | undefined) ?? "auto",
  };
  const watched = new Map<string, WatchedFile>();
  const print = (file: WatchedFile, turns: LiveTurn[]) => {
    const name = folder ? file.file : null;
    for (const turn of turns) io.stdout(text ? `${turnText(name, turn)}\n` : `${JSON.stringify(turnLine(name, turn))}\n`);
  };
  const findFiles = (starting: boolean) => {
    if (!folder) {
      if (!watched.has(target)) watched.set(target, new WatchedFile(target, settings, io, !printExisting));
      return [];
    }
    const added: WatchedFile[] = [];
    for (const job of discoverSessions([target]).jobs) {
      if (watched.has(job.file)) continue;
      // A session that appears once watching has started is new: all of its turns are reported.
      const file = new WatchedFile(job.file, settings, io, starting && !printExisting);
      watched.set(job.file, file);
      added.push(file);
    }
    return added;
  };

  // The files as they are now: analysed (the next turn is compared with their last one), printed only with --existing.
  findFiles(true);
  let existing = 0;
  for (const file of watched.values()) {
    const result = await file.poll();
    existing += file.turnCount;
    if (result && printExisting) print(file, result.turns);
  }
  io.stderr(`watching ${target}${folder ? ` (${watched.size} session${watched.size === 1 ? "" : "s"})` : ""}: ${existing} turn${existing === 1 ? "" : "s"} so far; Ctrl-C stops\n`);

  const stop = interrupted();
  let stopped = false;
  void stop.then(() => {
    stopped = true;
  });
  while (!stopped) {
    await Promise.race([stop, new Promise((resolve) => setTimeout(resolve, interval))]);
    if (stopped) break;
    for (const file of findFiles(false)) io.stderr(`new session: ${file.file}\n`);
    for (const file of watched.values()) {
      const result = await file.poll();
      if (!result) continue;
      if (result.restarted) io.stderr(`${file.file}: rewritten rather than appended to; read again whole\n`);
      print(file, result.turns);
    }
  }
  return 0;
}

export const watchCommand: CliCommand = {
  name: NAME,
  // Each watched file loads the tables its session's request shapes need.
  tokenTables: () => [],
  summary: "follow a session file (or a folder of sessions) while the agent writes it: one JSON line per new turn (tokens, cached, cache break and its cause, cost)",
  positionals: ["<session-file-or-folder>"],
  options: [
    { name: "format", value: "json|text", description: "json (default): one JSON object per turn; text: one readable line per turn", choices: ["json", "text"] },
    {
      name: "tokenizer",
      value: "auto|estimate|o200k",
      description: "token counts as for prefix (default auto; estimate = chars/4, fastest)",
      choices: ["auto", "estimate", "o200k"],
    },
    { name: "interval", value: "ms", description: "how often the file is checked for new bytes (default 500)" },
    { name: "existing", description: "also print the turns already in the file when watching starts" },
  ],
  details: [
    "Output, one JSON object per new turn, as the agent writes it (a folder adds \"file\" first):",
    '  {"turn":N,"timestamp":…,"model":…,"tokens":N,"cachedTokens":{"recorded":N|null,"predicted":N|null},',
    '   "break":null|{"cause":…,"detail":…,"path":…,"rebilledTokens":N},"afterCompaction":bool,"cost":{"recorded":{…},"predicted":{…},"break":{…}|null,"priceRow":…}}',
    "Only the bytes appended since the last check are read and only the new turns analysed; a database",
    "(opencode, hermes-agent) or a file rewritten rather than appended is read again whole. Stops on Ctrl-C.",
    "See docs/cli.md#watch and docs/live.md.",
  ].join("\n"),
  run,
};
