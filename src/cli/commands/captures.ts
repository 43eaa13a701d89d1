// `captures`: rebuilt main requests against captured ones, byte for byte (JSON.stringify with
// sorted keys). `--capture` bodies teach session constants and model facts (src/core/captures);
// `--against` bodies are each matched to their turn and compared, every differing path named and
// classed (src/app/captureCheck.ts). The measuring harness of docs/captures.md.
import type { PipelineOptions } from "../../core/model";
import { PROFILE_IDS } from "../../core/session/agents";
import { checkCaptures } from "../../app/captureCheck";
import { listOption } from "../args";
import { learnCaptures, mainCaptures, readCaptures } from "../captures";
import { loadAnySession } from "../inputs";
import { CliError, type CliIo } from "../io";
import type { CliCommand, CliOptionValues } from "../registry";
import { analyzeForCommand, profileFor } from "../viewOptions";

const NAME = "captures";

async function run(positionals: string[], options: CliOptionValues, io: CliIo): Promise<number> {
  const file = positionals[0]!;
  const teach = learnCaptures(readCaptures(io, listOption(options, "capture")));
  const againstPaths = listOption(options, "against");
  const against = mainCaptures(readCaptures(io, againstPaths.length > 0 ? againstPaths : listOption(options, "capture")));
  if (against.length === 0) throw new CliError(`${NAME}: nothing to compare: give --against <file|folder> (or --capture)`);
  const session = await loadAnySession(io, file, (options.session as string | undefined) ?? null);
  const pipeline: PipelineOptions = {
    profile: profileFor(options, session),
    header: teach[0] ?? null,
    captures: teach.slice(1),
  };
  analyzeForCommand(session, pipeline, file);
  const results = checkCaptures(session, pipeline, against);
  const classes: Record<string, number> = {};
  for (const result of results) {
    for (const difference of result.differences) classes[difference.class] = (classes[difference.class] ?? 0) + 1;
    io.stdout(
      `${JSON.stringify({
        kind: "capture-check",
        file: result.source,
        turn: result.turn,
        result: result.turn === null ? "unmatched" : result.equal ? "equal" : "differs",
        differences: result.differences,
      })}\n`,
    );
  }
  const equal = results.filter((result) => result.equal).length;
  const facts = teach.flatMap((header) => (header.facts ?? []).map((fact) => ({ key: fact.key, kind: fact.kind, label: fact.label, source: fact.source })));
  io.stdout(`${JSON.stringify({ kind: "summary", equal, total: results.length, classes, facts })}\n`);
  io.stderr(`${equal}/${results.length} byte-equal\n`);
  const failing = results.some((result) => result.turn === null || result.differences.some((difference) => difference.class === "bug"));
  return failing ? 1 : 0;
}

export const capturesCommand: CliCommand = {
  name: NAME,
  summary: "compare rebuilt main requests with captured request bodies, byte for byte, naming and classing each differing field",
  positionals: ["<session-file>"],
  options: [
    { name: "capture", value: "file|folder", description: "captured request body (or a folder of them) to learn from; the first main one supplies the session constants (repeatable)", multiple: true },
    { name: "against", value: "file|folder", description: "captured main requests to compare with their turns (repeatable; default: the --capture bodies)", multiple: true },
    { name: "profile", value: PROFILE_IDS.join("|"), description: "pipeline profile of pi files (default: the session's own, senpi for a senpi file)", choices: PROFILE_IDS },
    { name: "session", value: "id", description: "opencode database or hermes-agent state.db: the session to use" },
  ],
  details: [
    "Output, one JSON object per line:",
    '  {"kind":"capture-check","file":"005.json","turn":5,"result":"equal"|"differs"|"unmatched","differences":[{"path":"$…","class":"not derivable"|"learnt from another capture"|"bug","reason":"…"}]}',
    '  {"kind":"summary","equal":N,"total":M,"classes":{…},"facts":[{"key":…,"kind":"session"|"model","label":…,"source":…}]}',
    "A folder's NNN.meta.json files (a recorder's) say each body's kind; only main requests are compared.",
    "Exit 1 when a capture matches no turn or a difference is classed \"bug\".",
  ].join("\n"),
  run,
};
