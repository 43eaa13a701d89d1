// `requests`: one JSON line per turn with the provider request the agent sent, and, in timeline
// order, one line per compaction with the summariser request(s) behind it (pi: PI-R10, PI-R12;
// senpi, Claude Code, Codex: rebuilt by the agent's compaction policy; opencode: auxiliary lines) and one line per
// auxiliary request (opencode's title and summariser requests, FM-OC-15, CP-OC-17). Works on every
// format the readers know, an opencode database included (`--session` picks one of its sessions).
import { API_IDS, type ApiId, type PipelineOptions, type Session } from "../../core/model";
import { buildTurnRequest } from "../../core/session/pipeline";
import {
  agentsWithRequestDumps,
  findAgent,
  PROFILE_IDS,
  rebuildRecordedCompaction,
  requestDumpsOf,
  timelineRebuildPolicy,
  type BoundaryRule,
  type CompactionRebuildOptions,
} from "../../core/session/index";
import { integerOption, listOption } from "../args";
import { timelineWithAuxiliary } from "../../core/session/timeline";
import { loadAnySession, loadCompactionInstructions } from "../inputs";
import { threadOf, WITH_OPTION, withThreads } from "../threadOptions";
import { CliError, type CliIo } from "../io";
import { type CliCommand, type CliOptionValues, withoutTokenTables } from "../registry";
import { checkFactsAlone, FACTS_OPTION, factsOption } from "../facts";
import { analyzeForCommand, CAPTURE_OPTION, capturesOption, checkLeaf, profileFor } from "../viewOptions";
import { costField, compositionField } from "../costFields";
import { priceableOfUsage, turnCost } from "../../core/pricing/index";
import { datasetPriceTable } from "../../core/pricing/dataset";
import { tokenComposition } from "../../core/prefix/composition";
import { createSegmentCache } from "../../core/prefix/segment-builder";
import { stringifyWithTexts } from "../../core/text/text";

const NAME = "requests";

function parseFocus(values: string[]): Record<string, string> {
  const focus: Record<string, string> = {};
  for (const value of values) {
    const at = value.indexOf("=");
    if (at <= 0) throw new CliError(`${NAME}: --compaction-focus must be <entryId>=<text> (got "${value}")`);
    focus[value.slice(0, at)] = value.slice(at + 1);
  }
  return focus;
}

function buildOptions(options: CliOptionValues, io: CliIo, session: Session): CompactionRebuildOptions {
  const pipeline: PipelineOptions = {
    profile: profileFor(options, session),
    leafId: (options.leaf as string | undefined) ?? null,
    api: (options.provider as ApiId | undefined) ?? null,
    ...capturesOption(options, io),
    // senpi reply-language notes (reply-language.md); off unless asked for, ignored by the pi profile.
    notes: options.notes === "on",
  };
  const reserveTokens = integerOption(options, "reserve-tokens", NAME);
  const keepRecentTokens = integerOption(options, "keep-recent-tokens", NAME, 0);
  return {
    ...pipeline,
    instructions: loadCompactionInstructions(io, listOption(options, "compaction-instructions")),
    settings: {
      ...(reserveTokens !== undefined ? { reserveTokens } : {}),
      ...(keepRecentTokens !== undefined ? { keepRecentTokens } : {}),
    },
    boundaryRule: (options["boundary-rule"] as BoundaryRule | undefined) ?? "G2",
    customInstructions: parseFocus(listOption(options, "compaction-focus")),
  };
}

/**
 * `--check-dumps`: each hermes-agent request dump of the session (HS-32) against the rebuilt
 * request of its turn. One JSON line per dump; exit 1 when one differs or matches no turn.
 */
function checkDumps(session: Session, options: PipelineOptions, file: string, io: CliIo): number {
  const dumps = requestDumpsOf(session);
  if (!dumps) {
    const labels = agentsWithRequestDumps().map((agent) => agent.label);
    throw new CliError(`${NAME}: --check-dumps compares ${labels.join(" or ")} request dumps; ${file} is not ${labels.join(" or ")} storage`);
  }
  const checks = dumps.check(session, options);
  if (checks.length === 0) throw new CliError(`${NAME}: ${dumps.noDumpsMessage(file)}`);
  for (const check of checks) {
    io.stdout(
      `${stringifyWithTexts({
        kind: "dump-check",
        file: check.fileName,
        reason: check.reason,
        turn: check.turn,
        result: check.turn === null ? "unmatched" : check.equal ? "equal" : "differs",
        ...(check.firstDifference ? { path: check.firstDifference, detail: check.detail } : {}),
        ...(check.unmatched ? { why: check.unmatched } : {}),
        notRebuilt: check.notRebuilt,
        notRecorded: check.notRecorded,
      })}\n`,
    );
    io.stderr(`${dumps.describe(check)}\n`);
  }
  return checks.every((check) => check.equal) ? 0 : 1;
}

async function run(positionals: string[], options: CliOptionValues, io: CliIo): Promise<number> {
  const file = positionals[0]!;
  const turnOption = integerOption(options, "turn", NAME);
  checkFactsAlone(options, NAME);
  const session = threadOf(withThreads(await loadAnySession(io, file, (options.session as string | undefined) ?? null), options, io), options.thread as string | undefined, NAME);
  const rebuildOptions = buildOptions(options, io, session);
  Object.assign(rebuildOptions, factsOption(options, io, session, NAME));
  checkLeaf(session, rebuildOptions, NAME, file);

  const analysis = analyzeForCommand(session, rebuildOptions, file);
  for (const warning of analysis.warnings) io.stderr(`warning: line ${warning.line}: ${warning.reason}\n`);

  if (turnOption !== undefined && turnOption > analysis.turns.length) {
    throw new CliError(`${NAME}: --turn ${turnOption} does not exist (the branch has ${analysis.turns.length} turns)`);
  }

  if (options["check-dumps"] === true) return checkDumps(session, rebuildOptions, file, io);

  const timeline = timelineWithAuxiliary(analysis.timeline, analysis.auxiliary);
  // An empty input has no agent (and no timeline rows).
  const agent = findAgent(session.formatId);
  const standaloneRebuild = agent?.recorded?.standaloneRebuild;
  const segmentCache = createSegmentCache();
  const prices = datasetPriceTable();
  for (const item of timeline) {
    if (item.kind === "turn") {
      if (turnOption !== undefined && item.turn !== turnOption) continue;
      const built = buildTurnRequest(session, rebuildOptions, item.turn);
      const summary = analysis.turns[item.turn - 1]?.turn === item.turn ? analysis.turns[item.turn - 1] : analysis.turns.find((t) => t.turn === item.turn);
      const usage = summary?.usage ?? null;
      const cost = turnCost(
        {
          turn: item.turn,
          model: summary?.model ?? null,
          at: summary?.timestamp ?? null,
          recorded: usage ? priceableOfUsage(usage) : null,
          predicted: null,
          rebilledTokens: 0,
        },
        prices,
      );
      const composition = tokenComposition(built, { tokenizer: "estimate", cache: segmentCache });
      const byKind = Object.fromEntries(composition.rows.map((row) => [row.kind, row.tokens]));
      io.stdout(
        `${stringifyWithTexts({
          turn: item.turn,
          request: built.body,
          cost: costField({ ...cost }, { predicted: false }),
          composition: compositionField({ turn: item.turn, byKind, total: composition.total, exact: composition.exact }),
        })}\n`,
      );
    } else if (item.kind === "auxiliary" && turnOption === undefined && agent?.auxiliary) {
      const built = agent.auxiliary.build(session, rebuildOptions, item.index);
      const line: Record<string, unknown> = {
        kind: "auxiliary",
        index: item.index,
        purpose: item.purpose,
        rule: item.rule,
        beforeTurn: item.beforeTurn,
        request: built.request.body,
      };
      if (built.summariser) line.summariser = { conversation: built.summariser.conversation, priorSummary: built.summariser.priorSummary };
      io.stdout(`${stringifyWithTexts(line)}\n`);
    } else if (item.kind === "compaction" && turnOption === undefined && timelineRebuildPolicy(session, item.entryId) !== null) {
      // senpi (replay form), Claude Code, Codex: rebuilt by the agent's compaction policy
      // (instruction slots not captured here: use `compact --replay-recorded --instructions-from`).
      let requests: Record<string, unknown>[] = [];
      // senpi's warm job (SP-K8): the request went out before an earlier turn than the compaction.
      let sentBeforeTurn: number | undefined;
      try {
        const rebuilt = rebuildRecordedCompaction(session, rebuildOptions, item.entryId).requests;
        requests = rebuilt.map((r) => r.body);
        sentBeforeTurn = rebuilt.find((r) => r.sentBeforeTurn !== undefined)?.sentBeforeTurn;
      } catch (error) {
        io.stderr(`warning: compaction ${item.entryId}: ${(error as Error).message}\n`);
      }
      io.stdout(`${stringifyWithTexts({ kind: "compaction", entryId: item.entryId, beforeTurn: item.beforeTurn, ...(sentBeforeTurn !== undefined ? { sentBeforeTurn } : {}), requests })}\n`);
    } else if (item.kind === "compaction" && turnOption === undefined && !standaloneRebuild) {
      // The agent recorded the compaction; no summariser rebuild exists for this format.
      io.stdout(`${stringifyWithTexts({ kind: "compaction", entryId: item.entryId, beforeTurn: item.beforeTurn, ...(item.failed !== undefined ? { failed: item.failed } : {}), requests: [] })}\n`);
    } else if (item.kind === "compaction" && turnOption === undefined && standaloneRebuild) {
      // The agent's own summariser form (pi, PI-R12).
      let requests: Record<string, unknown>[] = [];
      try {
        requests = standaloneRebuild(session, rebuildOptions, item.entryId).requests.map((r) => r.body);
      } catch (error) {
        io.stderr(`warning: compaction ${item.entryId}: ${(error as Error).message}\n`);
      }
      io.stdout(`${stringifyWithTexts({ kind: "compaction", entryId: item.entryId, beforeTurn: item.beforeTurn, requests })}\n`);
    }
  }
  return 0;
}

// Its token figures are chars/4 estimates.
export const requestsCommand: CliCommand = withoutTokenTables({
  name: NAME,
  summary: "print the provider request of every turn (and every compaction's summariser requests) as JSON lines",
  positionals: ["<session-file>"],
  options: [
    { name: "session", value: "id", description: "opencode database or hermes-agent state.db: the session to show (default: the most recently updated / started one)" },
    { name: "turn", value: "N", description: "only turn N (1-based); compaction lines are then left out" },
    {
      name: "check-dumps",
      description: "hermes-agent: compare each request_dump_*.json beside the session with the rebuilt request of its turn; Kimi Code: each llm.request record of the wire file (\"equal\" or the first differing path; exit 1 when one differs)",
    },
    { name: "provider", value: "API", description: "wire shape to render instead of the recorded one", choices: API_IDS },
    { name: "header", value: "captured-request.json", description: "captured main request: system prompt, tools and settings come from it" },
    CAPTURE_OPTION,
    FACTS_OPTION,
    { name: "profile", value: PROFILE_IDS.join("|"), description: "pipeline profile of pi files (default: the session's own, senpi for a senpi file; other agents use their own)", choices: PROFILE_IDS },
    {
      name: "notes",
      value: "on|off",
      description: "senpi reply-language notes (default off; the pi profile never adds notes)",
      choices: ["on", "off"],
    },
    { name: "leaf", value: "entryId", description: "branch to show: the path ending at this entry (default: last entry in file order)" },
    WITH_OPTION,
    { name: "thread", value: "id", description: "print the requests of this sub-agent thread (an agent id) instead of the main thread's" },
    {
      name: "compaction-instructions",
      value: "captured-summary-request.json",
      description: "captured pi summariser request: fills the summariser system prompt and instruction texts (repeatable)",
      multiple: true,
    },
    { name: "reserve-tokens", value: "N", description: "pi compaction.reserveTokens in force (default 16384); sets the summariser caps" },
    { name: "keep-recent-tokens", value: "N", description: "pi compaction.keepRecentTokens in force (default 20000); used to check the recorded cut" },
    { name: "boundary-rule", value: "G1|G2", description: "compaction boundary generation (default G2, pi 0.73.1)", choices: ["G1", "G2"] },
    {
      name: "compaction-focus",
      value: "entryId=text",
      description: "custom instructions given to /compact for that compaction entry (not stored in sessions; repeatable)",
      multiple: true,
    },
  ],
  details: [
    "Output, one JSON object per line, in timeline order:",
    '  {"turn":N,"request":{...provider body...},"cost":{"recorded":{"status":…,"dollars":…|null},"priceRow":…|null},"composition":{"tools":N,…,"total":N}}',
    "cost: the recorded usage priced with the built-in price table (docs/prices.md); composition: the request's",
    "tokens by kind, chars/4 estimates (docs/composition.md).",
    '  {"kind":"compaction","entryId":"…","beforeTurn":N|null,"requests":[{...summariser body...}, …]}',
    '  {"kind":"auxiliary","index":I,"purpose":"title"|"summary","rule":"…","beforeTurn":N|null,"request":{...}} (opencode)',
    "Sub-agent threads: those the file holds (Claude Code sidechains and agent_progress lines) and the files given",
    "with --with; --thread <id> prints one thread's requests.",
    "Inputs: pi/senpi, Claude Code and Codex JSONL, opencode export JSON or the opencode.db database",
    "(its opencode.db-wal next to it is applied automatically), hermes-agent's state.db (with its -wal and",
    "the snapshots and request dumps of <home>/sessions/), its home folder, or one of its session files.",
    '--check-dumps prints {"kind":"dump-check","file":…,"turn":N,"result":"equal"|"differs"|"unmatched","path":…} per dump.',
    'Parts the session does not record (system prompt, tools, summariser texts) are {"$notRecorded":"…"} markers.',
  ].join("\n"),
  run,
});
