// `prefix`: one JSON line per turn with its prefix-stability report: the bytes
// and tokens of the turn's request in the provider's cache order, what it shares with the previous
// turn's request, where it stops extending it (breakPath), why (cause, PD-2), and the cached
// tokens the cache simulation predicts. Requests come from the one-pass builder, so a long session
// costs about as much as reading it (src/core/pipeline/sessionPrefixes.ts).
import { PROFILE_IDS } from "../../core/agents/registry";
import { API_IDS } from "../../core/model";
import type { PrefixTurnReport } from "../../core/prefix/analyze";
import { iterateSessionPrefixes } from "../../core/pipeline/sessionPrefixes";
import type { TokenizerChoice } from "../../core/tokens/counters";
import { loadAnySession } from "../inputs";
import { costField, compositionField } from "../costFields";
import { iterateSessionCompositions, type TurnComposition } from "../../core/pipeline/sessionComposition";
import { costInputOfReport, turnCost, type TurnCost } from "../../core/pricing/index";
import { createSegmentCache } from "../../core/prefix/segment-builder";
import type { CliIo } from "../io";
import type { CliCommand, CliOptionValues } from "../registry";
import { analyzeForCommand, checkLeaf, viewPipelineOptions } from "../viewOptions";

const NAME = "prefix";
const TOKENIZERS: readonly TokenizerChoice[] = ["auto", "estimate", "o200k"];

/** The line printed per turn: exactly these keys, in this order (cost and composition when given). */
export function prefixLine(
  report: PrefixTurnReport,
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
  };
  if (extra) {
    line.cost = costField(extra.cost, { predicted: true });
    line.composition = compositionField(extra.composition);
  }
  return line;
}

async function run(positionals: string[], options: CliOptionValues, io: CliIo): Promise<number> {
  const file = positionals[0]!;
  const pipeline = viewPipelineOptions(options, io);
  const session = await loadAnySession(io, file, (options.session as string | undefined) ?? null);
  checkLeaf(session, pipeline, NAME, file);
  const analysis = analyzeForCommand(session, pipeline, file);
  for (const warning of analysis.warnings) io.stderr(`warning: line ${warning.line}: ${warning.reason}\n`);
  const tokenizer = (options.tokenizer as TokenizerChoice | undefined) ?? "auto";
  const segmentCache = createSegmentCache();
  const models = new Map(analysis.turns.map((turn) => [turn.turn, turn.model]));
  // The composition walk runs beside the prefix walk, one turn ahead at most, sharing the segment cache.
  const compositions = iterateSessionCompositions(session, pipeline, { tokenizer, segmentCache });
  let previousTokens: number | null = null;
  for (const report of iterateSessionPrefixes(session, pipeline, { analysis, prefix: { tokenizer, segmentCache } })) {
    let composition = compositions.next().value as TurnComposition | undefined;
    while (composition && composition.turn < report.turn) composition = compositions.next().value as TurnComposition | undefined;
    const cost = turnCost(costInputOfReport(report, previousTokens, models.get(report.turn) ?? null));
    previousTokens = report.tokens;
    io.stdout(`${JSON.stringify(prefixLine(report, { cost, composition: composition?.turn === report.turn ? composition : undefined }))}\n`);
  }
  return 0;
}

export const prefixCommand: CliCommand = {
  name: NAME,
  summary: "print, per turn, what its request shares with the previous one, where and why it breaks, and the predicted cached tokens",
  positionals: ["<session-file>"],
  options: [
    { name: "provider", value: "API", description: "wire shape to compare instead of the recorded one", choices: API_IDS },
    { name: "header", value: "captured-request.json", description: "captured main request: system prompt, tools and settings come from it" },
    { name: "session", value: "id", description: "opencode database: the session to analyse (default: the most recently updated one)" },
    { name: "profile", value: PROFILE_IDS.join("|"), description: "pipeline profile (default pi)", choices: PROFILE_IDS },
    { name: "notes", value: "on|off", description: "senpi reply-language notes (default off)", choices: ["on", "off"] },
    { name: "leaf", value: "entryId", description: "branch to analyse: the path ending at this entry (default: last entry in file order)" },
    {
      name: "tokenizer",
      value: "auto|estimate|o200k",
      description: "token counts: auto (default) = exact o200k for OpenAI shapes, o200k estimates otherwise; estimate = chars/4 (fastest)",
      choices: TOKENIZERS,
    },
  ],
  details: [
    "Output, one JSON object per turn:",
    '  {"turn":N,"bytes":…,"sharedBytes":…,"tokens":…,"sharedTokens":…,"breakPath":…|null,"cause":…|null,"predictedCachedTokens":…,',
    '   "cost":{"recorded":{"status":…,"dollars":…|null},"predicted":{…},"break":{…,"rebilledTokens":N}|null,"priceRow":…|null},',
    '   "composition":{"tools":N,"system":N,"user":N,"assistant":N,"tool-result":N,…,"total":N}}',
    "bytes/tokens: the turn's request in the provider's cache order (cache markers and request metadata left out);",
    "sharedBytes/sharedTokens: its common prefix with the previous turn's request; breakPath: JSON path of the first",
    "difference (null when the request extends the previous one); cause: why (history-rewritten, system-changed, …).",
    "Token counts are exact for OpenAI shapes and estimates for Anthropic and Google (docs/prefix-stability.md).",
    "cost: US dollars from the built-in price table (docs/prices.md): the recorded usage, the cache simulation's",
    'prediction, and what a prefix break re-bills; "partly priced"/"not priced" (dollars null) when a price is unknown.',
    "composition: the request's tokens by kind, counted with the same tokenizer (docs/composition.md).",
  ].join("\n"),
  run,
};
