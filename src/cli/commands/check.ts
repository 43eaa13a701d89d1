// `check`: the findings of prefix analysis and of the compaction simulator for one session, as
// JSON lines (or GitHub Actions annotations), then a summary record of the record types the file
// holds (read, skipped on purpose, unknown), and an exit status a CI job can fail on
// (`--fail-on <kinds>`, `unknown-records` among them). The findings and their kinds come from src/core/check.
import { PROFILE_IDS } from "../../core/session/agents";
import { CHECK_KIND_IDS, checkSession, type CheckFinding, type CheckKindId } from "../../core/check/index";
import { API_IDS } from "../../core/model";
import { newerVersionSentence, recordReport, type RecordReport } from "../../core/session/recordReport";
import type { TokenizerChoice } from "../../core/tokens/counters";
import { loadTokenizerTables } from "../../core/tokens/tables";
import { sessionTables } from "../../core/tokens/sessionTables";
import { loadAnySession } from "../inputs";
import { CliError, type CliIo } from "../io";
import type { CliCommand, CliOptionValues } from "../registry";
import { analyzeForCommand, checkLeaf, viewPipelineOptions } from "../viewOptions";

const NAME = "check";

/** The line printed per finding: these keys, in this order. */
function checkLine(finding: CheckFinding): Record<string, unknown> {
  return {
    turn: finding.turn,
    kind: finding.kind,
    severity: finding.severity,
    message: finding.message,
    line: finding.line,
    entryId: finding.entryId,
    path: finding.path,
    cause: finding.cause,
    ruleId: finding.ruleId,
    serverVerdict: finding.serverVerdict,
    serverMissedTokens: finding.serverMissedTokens,
  };
}

/** The summary record after the findings: what the file holds, read, skipped on purpose and unknown. */
function recordsLine(report: RecordReport): Record<string, unknown> {
  return {
    summary: "records",
    agent: report.agent,
    versions: report.versions,
    newestVerified: report.newestVerified,
    // In plain words; null when no version the file names is newer than the newest verified.
    newerThanVerified: newerVersionSentence(report),
    read: report.read,
    skipped: report.skipped,
    unknown: report.unknown,
  };
}

/** GitHub's workflow-command escaping: data escapes %, CR, LF; properties also `:` and `,`. */
function escapeData(text: string): string {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

const ANNOTATION_LEVEL = { error: "error", warning: "warning", info: "notice" } as const;

/** One GitHub Actions annotation: `::error file=…,line=…,title=…::message`. */
export function githubAnnotation(finding: CheckFinding, file: string): string {
  const properties = [`file=${escapeProperty(file)}`];
  if (finding.line !== null) properties.push(`line=${finding.line}`);
  const title = finding.turn !== null ? `${finding.kind} (turn ${finding.turn})` : finding.kind;
  properties.push(`title=${escapeProperty(title)}`);
  return `::${ANNOTATION_LEVEL[finding.severity]} ${properties.join(",")}::${escapeData(finding.message)}`;
}

function parseFailOn(value: unknown): Set<CheckKindId> {
  const kinds = new Set<CheckKindId>();
  if (typeof value !== "string") return kinds;
  for (const part of value.split(",").map((s) => s.trim()).filter((s) => s.length > 0)) {
    if (!(CHECK_KIND_IDS as readonly string[]).includes(part)) {
      throw new CliError(`${NAME}: --fail-on: unknown kind "${part}" (kinds: ${CHECK_KIND_IDS.join(", ")})`);
    }
    kinds.add(part as CheckKindId);
  }
  return kinds;
}

async function run(positionals: string[], options: CliOptionValues, io: CliIo): Promise<number> {
  const file = positionals[0]!;
  const failOn = parseFailOn(options["fail-on"]);
  const session = await loadAnySession(io, file, (options.session as string | undefined) ?? null);
  const pipeline = viewPipelineOptions(options, io, session);
  checkLeaf(session, pipeline, NAME, file);
  const analysis = analyzeForCommand(session, pipeline, file);
  const tokenizer = (options.tokenizer as TokenizerChoice | undefined) ?? "auto";
  // The tables this session's request shapes count with, as prefix loads them: a Claude Code
  // session under the default tokenizer never loads o200k (a third of a second of CPU).
  await loadTokenizerTables(sessionTables(tokenizer, analysis, pipeline));
  const findings = checkSession(session, pipeline, { analysis, prefix: { tokenizer } });
  const github = options.format === "github";
  for (const finding of findings) io.stdout(`${github ? githubAnnotation(finding, file) : JSON.stringify(checkLine(finding))}\n`);
  const records = recordReport(session);
  if (!github && records) io.stdout(`${JSON.stringify(recordsLine(records))}\n`);
  const newer = records ? newerVersionSentence(records) : null;
  if (github && newer) io.stdout(`::notice file=${escapeProperty(file)},title=${escapeProperty("agent version")}::${escapeData(newer)}\n`);
  const failing = findings.filter((finding) => failOn.has(finding.kind));
  if (failing.length > 0) {
    const kinds = [...new Set(failing.map((f) => f.kind))].join(", ");
    io.stderr(`check: ${failing.length} finding(s) of a --fail-on kind (${kinds})\n`);
    return 1;
  }
  return 0;
}

export const checkCommand: CliCommand = {
  name: NAME,
  // run() loads the tables once it knows the session's request shapes.
  tokenTables: () => [],
  summary: "print the findings of prefix analysis and the compaction simulator; exit 1 on a --fail-on kind (a CI gate)",
  positionals: ["<session-file>"],
  options: [
    { name: "fail-on", value: "kinds", description: `comma-separated finding kinds that make the exit status 1 (${CHECK_KIND_IDS.join(", ")})` },
    { name: "format", value: "json|github", description: "json (default): one JSON line per finding; github: GitHub Actions annotations", choices: ["json", "github"] },
    { name: "provider", value: "API", description: "wire shape to check instead of the recorded one", choices: API_IDS },
    { name: "header", value: "captured-request.json", description: "captured main request: system prompt, tools and settings come from it" },
    { name: "session", value: "id", description: "opencode database or hermes-agent storage: the session to check" },
    { name: "profile", value: PROFILE_IDS.join("|"), description: "pipeline profile of pi files (default: the session's own, senpi for a senpi file)", choices: PROFILE_IDS },
    { name: "notes", value: "on|off", description: "senpi reply-language notes (default off)", choices: ["on", "off"] },
    { name: "leaf", value: "entryId", description: "branch to check: the path ending at this entry (default: last entry in file order)" },
    { name: "tokenizer", value: "auto|estimate|o200k", description: "token counts as for prefix (default auto)", choices: ["auto", "estimate", "o200k"] },
  ],
  details: [
    "Output, one JSON object per finding (by turn, then severity; session-wide findings last):",
    '  {"turn":N|null,"kind":"…","severity":"error|warning|info","message":"…","line":N|null,"entryId":…,"path":…,"cause":…,"ruleId":…,"serverVerdict":…|null,"serverMissedTokens":…|null}',
    "then one summary record of what the file holds (agents with a catalogue of record types):",
    '  {"summary":"records","agent":"…","versions":["…"],"newestVerified":"…"|null,"newerThanVerified":"<sentence>"|null,"read":[{"type","count"}],"skipped":[{"type","count","why"}],"unknown":[{"type","count","firstLine"}]}',
    "With --format github: ::error|warning|notice file=<session-file>,line=<line>,title=<kind> (turn N)::<message>",
    "Exit status 1 when a finding of a --fail-on kind occurs (the kinds table is in docs/cli.md#check).",
  ].join("\n"),
  run,
};
