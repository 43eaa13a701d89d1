// `watch`: follows a session file (or every session under a folder) while its agent writes it and
// prints one line per new turn: its tokens, the cached tokens, whether its request broke the
// cached prefix and why, and its cost. Only the bytes appended since the last poll are read
// (src/cli/watch/watchedFile.ts); a folder is listed again for new sessions on every poll, and only
// its new or changed files are looked into (src/cli/watch/sessionFolder.ts).
// A session's sub-agent files (Claude Code's `<session>/subagents/`) are followed with it: their
// new turns are printed under the session's file with the thread's label, never as sessions of
// their own. Another session appended, a file replaced or rewritten: said on standard error
// (src/cli/watch/watchedFile.ts tells them). A folder's sessions are read only once they change
// (a large folder's files are not even looked into before); a writer faster than the analysis
// has its newest turns printed and the rest skipped, with a notice. Runs until interrupted (Ctrl-C).
import fs from "node:fs";
import path from "node:path";
import { integerOption } from "../args";
import { CliError, type CliIo } from "../io";
import type { CliCommand, CliOptionValues } from "../registry";
import type { TokenizerChoice } from "../../core/tokens/counters";
import type { LiveTurn } from "../../core/session/follow";
import { linkSessions } from "../../core/session/threads";
import { costField } from "../costFields";
import { WatchedFile, WHOLE_DOCUMENT_NAME, type WatchSettings } from "../watch/watchedFile";
import { SessionFolder, type FileStamp, type FoundFile } from "../watch/sessionFolder";

const NAME = "watch";
const DEFAULT_INTERVAL_MS = 500;

/** The JSON line of a new turn: exactly these keys, in this order (`thread` for a sub-agent thread's turn). */
function turnLine(file: string | null, thread: string | null, turn: LiveTurn): Record<string, unknown> {
  return {
    ...(file !== null ? { file } : {}),
    ...(thread !== null ? { thread } : {}),
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
function turnText(file: string | null, thread: string | null, turn: LiveTurn): string {
  const cached = turn.recordedCachedTokens ?? turn.predictedCachedTokens;
  const cachedWord = turn.recordedCachedTokens !== null ? "cached" : "predicted cached";
  const parts = [
    `${file !== null ? `${file}  ` : ""}${thread !== null ? `[${thread}]  ` : ""}turn ${turn.turn}`,
    `${turn.tokens.toLocaleString("en-US")} tokens`,
    `${cachedWord} ${cached === null ? "?" : cached.toLocaleString("en-US")}`,
    dollars(turn.cost.recorded.dollars ?? turn.cost.predicted.dollars),
  ];
  if (turn.afterCompaction) parts.push("after a compaction");
  if (turn.cause !== null) parts.push(`CACHE BREAK: ${turn.cause}${turn.causeDetail ? ` (${turn.causeDetail})` : ""}${turn.cost.break ? `, re-billed ${dollars(turn.cost.break.dollars)}` : ""}`);
  return parts.join("  ");
}

/**
 * Waits `ms`; true when an interrupt (SIGINT or SIGTERM) came meanwhile. Only while waiting is the
 * interrupt handled here (watch then returns 0): while a poll works — a long read, a large
 * analysis that does not yield — no handler is installed, so the signal's default action ends
 * the process at once rather than waiting for the work to finish.
 *
 * The wait ends one event-loop turn after its timer, not in the timer's callback. A signal that
 * comes while the handler is installed is caught at once but handed to the listener only when
 * the loop next polls for events; under load the process often takes the signal between its
 * timer coming due and the timers running (waiting for a core). Removing the listener in the
 * timer's callback then dropped the signal: watch went on, and Ctrl-C did nothing. The timer
 * only schedules the end; the loop's poll for events comes before it and hands over a signal
 * caught by then, which ends the wait as an interrupt.
 */
function waitOrInterrupt(ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    let ended = false;
    const end = (interrupted: boolean) => {
      if (ended) return;
      ended = true;
      clearTimeout(timer);
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve(interrupted);
    };
    const stop = () => end(true);
    const timer = setTimeout(() => setImmediate(() => end(false)), ms);
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
    pipeline: { leafId: null, api: null, header: null, notes: false },
    tokenizer: (options.tokenizer as TokenizerChoice | undefined) ?? "auto",
  };
  const watched = new Map<string, WatchedFile>();
  /** A sub-agent file's session file (its turns are printed under it). */
  const parentOf = new Map<WatchedFile, WatchedFile>();
  const print = async (file: WatchedFile, turns: LiveTurn[]) => {
    const parent = parentOf.get(file) ?? null;
    // The thread's label comes from the session: a session not read yet is read as it was at the start.
    if (parent && turns.length > 0) await parent.readStart();
    const name = folder || parent ? (parent ?? file).file : null;
    const thread = parent ? threadLabel(parent, file) : null;
    for (const turn of turns) io.stdout(text ? `${turnText(name, thread, turn)}\n` : `${JSON.stringify(turnLine(name, thread, turn))}\n`);
  };
  /** Starts following `file` (a sub-agent file of `parent`'s session when given). */
  const follow = (file: string, parent: WatchedFile | null, starting: boolean, withSubAgents: boolean, listedAs: FileStamp | null): WatchedFile => {
    // A session (or sub-agent file) that appears once watching has started is new: all of its turns are reported.
    // A folder's sessions there at the start are read only when they change (thousands start at
    // once); not a session with sub-agent files, whose threads' labels need the session read. One
    // only listed at the start (a large folder) is followed from how it was then, once it changed.
    const existingUnreported = (starting || listedAs !== null) && !printExisting;
    // A JSON document (Gemini CLI's older `.json` chats) is rewritten whole: its turns at the start
    // are read at the start, since its bytes then cannot be read back after the rewrite.
    const lazy = existingUnreported && folder && !WHOLE_DOCUMENT_NAME.test(file) && (listedAs !== null || (!parent && !withSubAgents));
    const added = new WatchedFile(file, settings, io, existingUnreported, lazy, listedAs);
    watched.set(file, added);
    if (parent) parentOf.set(added, parent);
    return added;
  };
  const sessionFolder = folder ? new SessionFolder(target, printExisting) : null;
  /** The sessions (and sub-agent files) not followed yet, and whether each is new (not there, or not a session, at the start). */
  const findFiles = (starting: boolean): { file: WatchedFile; isNew: boolean }[] => {
    const found: FoundFile[] = sessionFolder
      ? sessionFolder.check()
      : [target, ...subAgentFilesOf(target)].filter((file) => !watched.has(file)).map((file) => ({ file, parent: file === target ? null : target, listedAs: null }));
    return found.map((one) => {
      const withSubAgents = found.some((other) => other.parent === one.file);
      const file = follow(one.file, one.parent === null ? null : watched.get(one.parent)!, starting, withSubAgents, one.listedAs);
      return { file, isNew: !starting && one.listedAs === null };
    });
  };
  // The files as they are now: analysed (the next turn is compared with their last one), printed only with --existing.
  findFiles(true);
  let existing = 0;
  let unread = 0;
  for (const file of watched.values()) {
    const result = await file.poll();
    existing += file.turnCount;
    if (!file.read) unread++;
    if (result && printExisting) await print(file, result.turns);
  }
  const sessions = watched.size - parentOf.size;
  const subAgents = parentOf.size > 0 ? `, with ${parentOf.size} sub-agent file${parentOf.size === 1 ? "" : "s"}` : "";
  const untold = sessionFolder?.untold ?? 0;
  const listed = untold > 0 ? `${sessions > 0 ? "; and " : ""}${untold} file${untold === 1 ? "" : "s"} only listed, looked into when they change` : "";
  const counted = folder ? ` (${sessions > 0 || untold === 0 ? `${sessions} session${sessions === 1 ? "" : "s"}${subAgents}` : ""}${listed})` : subAgents ? ` (${subAgents.slice(2)})` : "";
  const sofar = unread === watched.size ? "each read when it changes" : `${existing} turn${existing === 1 ? "" : "s"} so far${unread > 0 ? ` (${unread} not read until they change)` : ""}`;
  io.stderr(`watching ${target}${counted}: ${sofar}; Ctrl-C stops\n`);

  while (!(await waitOrInterrupt(interval))) {
    for (const { file, isNew } of findFiles(false)) {
      const parent = parentOf.get(file);
      if (isNew) io.stderr(parent ? `new sub-agent file: ${file.file} (of ${parent.file})\n` : `new session: ${file.file}\n`);
    }
    for (const file of watched.values()) {
      const result = await file.poll();
      if (!result) continue;
      for (const notice of result.notices) io.stderr(`${file.file}: ${notice}\n`);
      await print(file, result.turns);
    }
  }
  return 0;
}

/** A session file's sub-agent files (Claude Code: `<session>/subagents/*.jsonl` beside `<session>.jsonl`). */
function subAgentFilesOf(file: string): string[] {
  if (!file.toLowerCase().endsWith(".jsonl")) return [];
  const folder = path.join(file.slice(0, -".jsonl".length), "subagents");
  if (!fs.statSync(folder, { throwIfNoEntry: false })?.isDirectory()) return [];
  return fs
    .readdirSync(folder, { withFileTypes: true }).filter((entry) => entry.isFile() && entry.name.toLowerCase().endsWith(".jsonl")).map((entry) => path.join(folder, entry.name)).sort();
}

/** The label of the thread a sub-agent file is, as its agent links it to the session (its file name until both are read). */
function threadLabel(parent: WatchedFile, child: WatchedFile): string {
  const main = parent.session;
  const sub = child.session;
  if (main && sub) {
    const thread = linkSessions([main, sub]).session.threads?.find((candidate) => candidate.session === sub);
    if (thread) return thread.label;
  }
  return path.basename(child.file, ".jsonl");
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
    "(opencode, hermes-agent; with its -wal) or a JSON document is read again whole. Lines of another",
    "session appended, another file moved over the watched one and a rewrite in place are said on",
    "standard error and followed as the new session. A folder's sessions are read when they first",
    "change (not at the start; a large folder's files are not even looked into before). When more",
    "than 200 turns came since the last check, the newest 200 are printed and the rest skipped,",
    "said on standard error.",
    "A session's sub-agent files (<session>/subagents/*.jsonl) are followed with it: their turns add",
    "\"thread\" (the thread's label) after \"file\" (the session's file). Stops on Ctrl-C.",
    "See docs/cli.md#watch and docs/live.md.",
  ].join("\n"),
  run,
};
