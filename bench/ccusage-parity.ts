// Accounting parity with ccusage (`ccusage session --json --offline`, the usage report many users
// run over the same local folders): for every session `scan` finds in the given folders (default
// ../shared/fixtures/realworld), our recorded tokens (input without the cache, cache reads, cache
// writes, output) and dollars — the main thread, and the whole session with its sub-agent threads —
// beside ccusage's, and the differences. By hand only, never in CI: it runs a pinned ccusage
// (20.0.24, the last release whose linux-x64 binary the registry has) through npx.
//
// ccusage reads the agents' own folders under $HOME, so the sessions are COPIED into a temporary
// home laid out as each agent writes them (ccusage follows no symbolic link: linked files are not
// read, measured with 20.0.24): Claude Code `~/.claude/projects/<p>/<id>.jsonl`, Codex
// `~/.codex/sessions/YYYY/MM/DD/rollout-….jsonl`, pi `~/.pi/agent/sessions/<p>/<id>.jsonl`,
// opencode `~/.local/share/opencode/opencode.db`, hermes-agent `~/.hermes/state.db` and `sessions/`.
//
// Run with `npx tsx bench/ccusage-parity.ts [folder …] [--ccusage "<command>"]`; exits 1 when a
// session's main-thread tokens differ or its dollars differ by more than 1 % where both price.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sessionCostInputs } from "../src/app/sessionPrices";
import { discoverSessions, type ScanJob } from "../src/cli/scan/discover";
import { loadAnySession, loadSession } from "../src/cli/inputs";
import type { CliIo } from "../src/cli/io";
import { wholeSessionCost, type ThreadCostInput } from "../src/core/pricing/index";
import { datasetPriceTable } from "../src/core/pricing/dataset";
import { linkSessions } from "../src/core/session/threads";
import { storageSummary } from "../src/core/session/storage";

interface Tokens {
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
}

interface Ours {
  file: string;
  agent: string;
  /** The id ccusage names the session by. */
  ids: string[];
  main: Tokens & { calls: number; dollars: number | null; status: string };
  whole: Tokens & { calls: number; threads: number; dollars: number | null; status: string };
}

interface Theirs extends Tokens {
  agent: string;
  id: string;
  dollars: number;
  models: string[];
}

const args = process.argv.slice(2);
const commandAt = args.indexOf("--ccusage");
const ccusage = commandAt === -1 ? "npx --yes ccusage@20.0.24" : args[commandAt + 1]!;
// The value after --ccusage is its command, not a folder (and with no --ccusage every argument is a folder).
const folders = args.filter((arg, index) => !arg.startsWith("--") && (commandAt === -1 || index !== commandAt + 1));
if (folders.length === 0) folders.push(path.resolve("../shared/fixtures/realworld"));

const io: CliIo = { stdout: () => undefined, stderr: () => undefined, readFile: (file) => readFileSync(file) };

function sum(threads: readonly ThreadCostInput[]): Tokens & { calls: number } {
  const out = { calls: 0, input: 0, cacheRead: 0, cacheWrite: 0, output: 0 };
  for (const thread of threads) {
    for (const turn of thread.turns) {
      out.calls++;
      if (!turn.usage) continue;
      out.input += turn.usage.input;
      out.cacheRead += turn.usage.cacheRead;
      out.cacheWrite += turn.usage.cacheWrite;
      out.output += turn.usage.output;
    }
  }
  return out;
}

/** The names ccusage gives a session: the file's base name, the session ids a header or database names. */
function idsOf(job: ScanJob, header: Record<string, unknown> | null): string[] {
  const base = path.basename(job.file).replace(/\.(jsonl|json|db)$/i, "");
  const ids = [base];
  if (header && typeof header.id === "string") ids.push(header.id);
  if (header && typeof header.sessionId === "string") ids.push(header.sessionId);
  return ids;
}

/** Every session a job holds: a database's sessions one by one (ccusage reports each), a file's one. */
async function oursAll(job: ScanJob): Promise<Ours[]> {
  const first = await loadAnySession(io, job.file);
  const listed = storageSummary(first)?.sessions ?? [];
  if (listed.length <= 1) return [await ours(job, null)];
  const out: Ours[] = [];
  for (const listing of listed) out.push(await ours(job, listing.id));
  return out;
}

async function ours(job: ScanJob, sessionId: string | null): Promise<Ours> {
  const main = await loadAnySession(io, job.file, sessionId);
  const others = job.with.map((file) => loadSession(io, file));
  const session = others.length > 0 ? linkSessions([main, ...others]).session : main;
  const threads = sessionCostInputs(session, { profile: "pi", leafId: null });
  const table = datasetPriceTable();
  const whole = wholeSessionCost(threads, table);
  const mainCost = whole.threads[0]!.recorded;
  const shown = storageSummary(session)?.sessionId;
  return {
    file: shown ? `${job.file}#${shown}` : job.file,
    agent: session.formatId,
    ids: shown ? [shown] : idsOf(job, session.header as Record<string, unknown> | null),
    main: { ...sum(threads.slice(0, 1)), dollars: mainCost.dollars, status: mainCost.status },
    whole: { ...sum(threads), threads: threads.length - 1, dollars: whole.total.dollars, status: whole.total.status },
  };
}

/** A temporary home holding copies of the sessions where each agent keeps them. */
function homeFor(sessions: readonly Ours[], jobOf: (session: Ours) => ScanJob): string {
  const home = mkdtempSync(path.join(tmpdir(), "ccusage-parity-"));
  // ccusage refuses a CLAUDE_CONFIG_DIR without projects/.
  mkdirSync(path.join(home, ".claude/projects"), { recursive: true });
  const place = (file: string, folder: string, name = path.basename(file)) => {
    mkdirSync(path.join(home, folder), { recursive: true });
    copyFileSync(file, path.join(home, folder, name));
  };
  const placed = new Set<ScanJob>();
  sessions.forEach((session) => {
    const job = jobOf(session);
    if (placed.has(job)) return;
    placed.add(job);
    const name = path.basename(job.file);
    switch (session.agent) {
      case "claude-code":
        place(job.file, ".claude/projects/parity");
        for (const file of job.with) place(file, `.claude/projects/parity/${name.replace(/\.jsonl$/, "")}/subagents`);
        break;
      case "codex":
        place(job.file, ".codex/sessions/2026/01/01", name.startsWith("rollout-") ? name : `rollout-2026-01-01T00-00-00-${name}`);
        break;
      case "pi":
        place(job.file, ".pi/agent/sessions/parity");
        break;
      case "opencode":
        if (name.endsWith(".db")) place(job.file, ".local/share/opencode", "opencode.db");
        break;
      case "hermes":
        if (name.endsWith(".db")) place(job.file, ".hermes", "state.db");
        else place(job.file, ".hermes/sessions");
        break;
      default:
        break;
    }
  });
  return home;
}

function theirs(home: string): Theirs[] {
  const [command, ...rest] = ccusage.split(" ");
  const text = execFileSync(command!, [...rest, "session", "--json", "--offline"], {
    env: { ...process.env, HOME: home, CLAUDE_CONFIG_DIR: path.join(home, ".claude"), CODEX_HOME: path.join(home, ".codex") },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const parsed = JSON.parse(text) as { session: Record<string, unknown>[] };
  return parsed.session.map((row) => ({
    agent: String(row.agent),
    id: String(row.period),
    input: Number(row.inputTokens),
    cacheRead: Number(row.cacheReadTokens),
    cacheWrite: Number(row.cacheCreationTokens),
    output: Number(row.outputTokens),
    dollars: Number(row.totalCost),
    models: (row.modelsUsed as string[] | undefined) ?? [],
  }));
}

const tokens = (t: Tokens) => `${t.input}/${t.cacheRead}/${t.cacheWrite}/${t.output}`;
const same = (a: Tokens, b: Tokens) => a.input === b.input && a.cacheRead === b.cacheRead && a.cacheWrite === b.cacheWrite && a.output === b.output;
const money = (dollars: number | null) => (dollars === null ? "—" : `$${dollars.toFixed(4)}`);

async function main(): Promise<void> {
  const { jobs } = discoverSessions(folders);
  const mine: Ours[] = [];
  const jobOf = new Map<Ours, ScanJob>();
  for (const job of jobs) {
    for (const one of await oursAll(job)) {
      mine.push(one);
      jobOf.set(one, job);
    }
  }
  const home = homeFor(mine, (session) => jobOf.get(session)!);
  let rows: Theirs[];
  try {
    rows = theirs(home);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
  const used = new Set<Theirs>();
  let failures = 0;
  console.log("| session | agent | calls (main / whole, sub-agents) | our tokens, main thread (input/cache read/cache write/output) | our tokens, whole session | ccusage tokens | our $ main | our $ whole | ccusage $ | verdict |");
  console.log("|---|---|---|---|---|---|---|---|---|---|");
  for (const session of mine) {
    // ccusage names a Codex session by its path under sessions/ ("2026/01/01/rollout-…").
    const row = rows.find((candidate) => !used.has(candidate) && session.ids.some((id) => candidate.id === id || candidate.id.endsWith(`/${id}`) || candidate.id.endsWith(`-${id}`)));
    if (row) used.add(row);
    const recorded = session.whole.calls > 0 && session.whole.input + session.whole.cacheRead + session.whole.output > 0;
    let verdict: string;
    if (!row) verdict = recorded ? "ccusage did not report it" : "no usage recorded (both)";
    else {
      const tokensMatch = same(session.main, row) ? "main-thread tokens equal" : same(session.whole, row) ? "whole-session tokens equal" : "TOKENS DIFFER";
      const ourDollars = same(session.whole, row) ? session.whole.dollars : session.main.dollars;
      const diff = ourDollars !== null && row.dollars > 0 ? Math.abs(ourDollars - row.dollars) / row.dollars : null;
      // A model named through a gateway ("monkeycode-basic/deepseek-v4-flash"): ccusage's fuzzy match
      // picks another list entry than the model's own vendor price we use (docs/prices.md).
      const routed = row.models.some((model) => model.replace(/^\[[a-z]+\] /, "").includes("/"));
      const dollarsMatch =
        diff === null
          ? "not compared"
          : diff <= 0.01
            ? `dollars within ${(diff * 100).toFixed(2)} %`
            : routed
              ? `dollars differ ${(diff * 100).toFixed(1)} %, explained: ccusage prices the gateway name ${row.models.join(", ")} as another list entry, we price the model's vendor list`
              : `DOLLARS DIFFER ${(diff * 100).toFixed(1)} % (${row.models.join(", ")})`;
      if (tokensMatch === "TOKENS DIFFER") failures++;
      if (dollarsMatch.startsWith("DOLLARS")) failures++;
      verdict = `${tokensMatch}; ${dollarsMatch}`;
    }
    console.log(
      `| ${path.basename(session.file)} | ${session.agent} | ${session.main.calls} / ${session.whole.calls} (${session.whole.threads}) | ${tokens(session.main)} | ${tokens(session.whole)} | ${row ? tokens(row) : "—"} | ${money(session.main.dollars)} | ${money(session.whole.dollars)} | ${row ? money(row.dollars) : "—"} | ${verdict} |`,
    );
  }
  for (const row of rows) if (!used.has(row)) console.log(`| (ccusage only) ${row.id} | ${row.agent} | | | | ${tokens(row)} | | | ${money(row.dollars)} | not found by scan |`);
  console.log(`\n${failures === 0 ? "parity: every difference is within the rules above" : `${failures} difference(s) beyond the rules above`}`);
  process.exitCode = failures === 0 ? 0 : 1;
}

await main();
