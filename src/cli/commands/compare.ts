// `compare`: two sessions, or two branches of one (the same file twice with `--leaf-b`), turns
// aligned by user message then by position, per aligned pair whether the requests differ in what
// the provider's cache keys on and where first, the first such pair, and totals side by side.
// The comparison itself is src/core/compare.
import { PROFILE_IDS } from "../../core/session/agents";
import { compareSessions, type ComparedPair, type SessionComparison } from "../../core/compare/index";
import { API_IDS, type PipelineOptions, type Session } from "../../core/model";
import type { TokenizerChoice } from "../../core/tokens/counters";
import { loadAnySession } from "../inputs";
import type { CliIo } from "../io";
import type { CliCommand, CliOptionValues } from "../registry";
import { analyzeForCommand, checkLeaf, profileFor, viewPipelineOptions } from "../viewOptions";

const NAME = "compare";

function pairLine(pair: ComparedPair): Record<string, unknown> {
  return {
    kind: "pair",
    a: pair.a,
    b: pair.b,
    by: pair.by,
    differs: pair.differs,
    path: pair.path,
    settingsChanged: pair.settingsChanged,
    sharedTokens: pair.sharedTokens,
    tokensA: pair.tokensA,
    tokensB: pair.tokensB,
    userText: pair.userText,
  };
}

/** Every line of a comparison, in output order: the pairs, the first difference, the totals. */
function comparisonLines(comparison: SessionComparison): Record<string, unknown>[] {
  const first = comparison.firstDifference === null ? null : comparison.pairs[comparison.firstDifference]!;
  return [
    ...comparison.pairs.map(pairLine),
    { kind: "first-difference", pair: comparison.firstDifference, a: first?.a ?? null, b: first?.b ?? null, path: first?.path ?? null },
    { kind: "totals", a: comparison.totals.a, b: comparison.totals.b },
  ];
}

async function run(positionals: string[], options: CliOptionValues, io: CliIo): Promise<number> {
  const [fileA, fileB] = positionals as [string, string];
  const sessionA = await loadAnySession(io, fileA, (options.session as string | undefined) ?? null);
  // The same file twice (two branches): read once, so both sides share their message objects.
  const sameFile = fileA === fileB && options["session-b"] === undefined;
  const sessionB: Session = sameFile ? sessionA : await loadAnySession(io, fileB, (options["session-b"] as string | undefined) ?? null);
  // Each side in its own session's profile unless --profile names one for both.
  const pipelineA = viewPipelineOptions(options, io, sessionA);
  const pipelineB: PipelineOptions = { ...pipelineA, profile: profileFor(options, sessionB), leafId: (options["leaf-b"] as string | undefined) ?? null };
  checkLeaf(sessionA, pipelineA, NAME, fileA);
  checkLeaf(sessionB, pipelineB, NAME, fileB);
  const analysisA = analyzeForCommand(sessionA, pipelineA, fileA);
  const analysisB = analyzeForCommand(sessionB, pipelineB, fileB);
  for (const warning of analysisA.warnings) io.stderr(`warning: a: line ${warning.line}: ${warning.reason}\n`);
  if (!sameFile) for (const warning of analysisB.warnings) io.stderr(`warning: b: line ${warning.line}: ${warning.reason}\n`);
  const tokenizer = (options.tokenizer as TokenizerChoice | undefined) ?? "estimate";
  const comparison = compareSessions(
    { session: sessionA, options: pipelineA, analysis: analysisA },
    { session: sessionB, options: pipelineB, analysis: analysisB },
    { prefix: { tokenizer } },
  );
  for (const line of comparisonLines(comparison)) io.stdout(`${JSON.stringify(line)}\n`);
  return 0;
}

export const compareCommand: CliCommand = {
  name: NAME,
  summary: "align the turns of two sessions (or two branches of one) and name the first pair whose requests differ for the cache",
  positionals: ["<session-a>", "<session-b>"],
  options: [
    { name: "leaf", value: "entryId", description: "branch of session A: the path ending at this entry (default: last entry in file order)" },
    { name: "leaf-b", value: "entryId", description: "branch of session B (give the same file twice to compare two branches of one session)" },
    { name: "provider", value: "API", description: "render both sides in this wire shape instead of the recorded one", choices: API_IDS },
    { name: "header", value: "captured-request.json", description: "captured main request: system prompt, tools and settings of both sides" },
    { name: "session", value: "id", description: "opencode database or hermes-agent storage: the session of side A" },
    { name: "session-b", value: "id", description: "the same for side B" },
    { name: "profile", value: PROFILE_IDS.join("|"), description: "pipeline profile of both sides (default: each session's own, senpi for a senpi file)", choices: PROFILE_IDS },
    { name: "notes", value: "on|off", description: "senpi reply-language notes (default off)", choices: ["on", "off"] },
    { name: "tokenizer", value: "auto|estimate|o200k", description: "token counts (default estimate = chars/4; auto as for prefix)", choices: ["auto", "estimate", "o200k"] },
  ],
  details: [
    "Output, JSON lines: one per aligned pair, then the first difference, then the totals:",
    '  {"kind":"pair","a":N|null,"b":N|null,"by":"user-message|position|unmatched","differs":…,"path":…|null,"settingsChanged":[…],"sharedTokens":…,"tokensA":…,"tokensB":…,"userText":…}',
    '  {"kind":"first-difference","pair":I|null,"a":N|null,"b":N|null,"path":…|null}',
    '  {"kind":"totals","a":{"turns","tokensSent","largestRequest","recordedInput","breaks","unexpectedBreaks","compactions","cost"},"b":{…}}',
    "Two branches of one session: compare s.jsonl s.jsonl --leaf <entry-of-branch-1> --leaf-b <entry-of-branch-2>.",
  ].join("\n"),
  run,
};
