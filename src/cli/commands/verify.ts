// `verify`: each captured request of a recording (a `capture` folder, a fixture's requests/)
// beside the request we rebuild from the session file(s), whole body against whole body
// (src/app/captureVerify.ts). One JSON line per capture, a summary line, and a headline on
// stderr; `--fail-on differs` makes a difference an exit status for CI.
import fs from "node:fs";
import path from "node:path";
import type { PipelineOptions } from "../../core/model";
import { PROFILE_IDS } from "../../core/session/agents";
import { factsOfCaptures, verifiedHeadline, verifySession, type VerifyCapture, type VerifyResult } from "../../app/captureVerify";
import { readCaptures } from "../captures";
import { FACTS_OPTION, factsOption, writeFacts } from "../facts";
import { loadAnySession } from "../inputs";
import { CliError, type CliIo } from "../io";
import type { CliCommand, CliOptionValues } from "../registry";
import { analyzeForCommand, profileFor } from "../viewOptions";

const NAME = "verify";
const FAIL_ON = ["differs", "declared", "never"] as const;

/** A recording folder holds its bodies in requests/; a folder of bodies is taken as it is. */
function capturesFolder(dir: string): string {
  const inner = path.join(dir, "requests");
  return fs.existsSync(inner) && fs.statSync(inner).isDirectory() ? inner : dir;
}

function resultLine(file: string, result: VerifyResult): string {
  return JSON.stringify({
    kind: "verify",
    session: file,
    capture: result.source,
    type: result.kind,
    turn: result.turn,
    ...(result.auxiliary !== null ? { auxiliary: result.auxiliary } : {}),
    verdict: result.verdict,
    ...(result.teaches ? { teaches: true } : {}),
    ...(result.declared.length > 0 ? { declared: result.declared } : {}),
    ...(result.difference ? { difference: result.difference } : {}),
    ...(result.reason ? { reason: result.reason } : {}),
  });
}

async function run(positionals: string[], options: CliOptionValues, io: CliIo): Promise<number> {
  const dir = options.captures;
  if (typeof dir !== "string") throw new CliError(`${NAME}: give the recording with --captures <dir>`);
  if (!fs.existsSync(dir)) throw new CliError(`${NAME}: ${dir} does not exist`);
  const recording = readCaptures(io, [capturesFolder(dir)]);
  let pool: VerifyCapture[] = recording;
  const all: VerifyResult[] = [];
  for (const [i, file] of positionals.entries()) {
    const session = await loadAnySession(io, file, (options.session as string | undefined) ?? null);
    const pipeline: PipelineOptions = { profile: profileFor(options, session) };
    analyzeForCommand(session, pipeline, file);
    if (i === 0 && typeof options["write-facts"] === "string") {
      const learnt = factsOfCaptures(recording);
      writeFacts(options["write-facts"], session, learnt.header ? [learnt.header, ...learnt.captures] : [], recording.map((capture) => capture.userAgent), io);
    }
    const kept = factsOption(options, io, session, NAME) ?? undefined;
    const results = verifySession(session, pipeline, pool, kept);
    // A capture another session may carry waits for it; the last session takes what is left.
    const last = i === positionals.length - 1;
    const shown = results.filter((result) => last || result.turn !== null || result.auxiliary !== null);
    const taken = new Set(shown.map((result) => result.source));
    pool = pool.filter((capture) => !taken.has(capture.source));
    for (const result of shown) io.stdout(`${resultLine(file, result)}\n`);
    all.push(...shown);
  }
  const headline = verifiedHeadline(all);
  const count = (verdict: VerifyResult["verdict"]) => all.filter((result) => result.verdict === verdict).length;
  const summary = {
    kind: "summary",
    turns: { equal: headline.equal, declared: headline.declared, total: headline.total },
    captures: all.length,
    equal: count("equal"),
    declared: count("declared"),
    differs: count("differs"),
    unmatched: count("unmatched"),
    notCompared: count("not compared"),
    declaredFields: [...new Set(all.flatMap((result) => result.declared.map((item) => item.path)))],
    text: headline.text,
  };
  io.stdout(`${JSON.stringify(summary)}\n`);
  io.stderr(`${headline.text}; ${summary.differs} differ, ${summary.unmatched} unmatched of ${all.length} captures\n`);
  const failOn = (options["fail-on"] as string | undefined) ?? "never";
  if (failOn === "differs" && summary.differs + summary.unmatched > 0) return 1;
  if (failOn === "declared" && summary.differs + summary.unmatched + summary.declared > 0) return 1;
  return 0;
}

export const verifyCommand: CliCommand = {
  name: NAME,
  summary: "compare every captured request with the one rebuilt from the session file(s), whole body against whole body",
  positionals: ["<session-file>…"],
  options: [
    { name: "captures", value: "dir", description: "the recording: a `capture` folder or a folder of NNN.json bodies (with NNN.meta.json kinds)" },
    { name: "write-facts", value: "file", description: "write what the first capture of each model taught to a facts file (for --facts on a later session of the same agent version)" },
    { ...FACTS_OPTION, description: "check every capture against a facts file's facts instead of learning them from the recording" },
    { name: "fail-on", value: FAIL_ON.join("|"), description: "exit 1 when a capture differs or matches nothing (differs), also when one differs only where declared (declared); default never", choices: FAIL_ON },
    { name: "profile", value: PROFILE_IDS.join("|"), description: "pipeline profile of pi files (default: the session's own, senpi for a senpi file)", choices: PROFILE_IDS },
    { name: "session", value: "id", description: "opencode database or hermes-agent state.db: the session to use" },
  ],
  details: [
    "Facts (system prompt, tools, settings, model facts) come only from the first main capture of each model;",
    "a turn's rebuild never uses its own capture otherwise (those first captures are marked \"teaches\").",
    "Summariser and title requests take the fixed texts no file holds (prompts, instructions) from the first capture of their kind",
    "holding each (also marked \"teaches\"); a summariser request only a replay with settings rebuilds is \"not compared\", with why.",
    "Output, one JSON object per line:",
    '  {"kind":"verify","session":…,"capture":"005.json","type":"main"|"summary"|"title","turn":5,"verdict":"equal"|"declared"|"differs"|"unmatched"|"not compared",',
    '   "declared":[{"path":…,"reason":…}],"difference":{"offset":N,"path":…,"part":"message 6, block 2","line":L,"firstLine":F,"rebuilt":[…],"wire":[…]}}',
    '  {"kind":"summary","turns":{"equal":…,"declared":…,"total":…},"equal":…,"differs":…,"unmatched":…,"declaredFields":[…],"text":"15 of 15 turns equal to the wire"}',
    "Bodies are compared under JSON.stringify with sorted keys (key order is not compared).",
  ].join("\n"),
  tokenTables: () => [],
  run,
};
