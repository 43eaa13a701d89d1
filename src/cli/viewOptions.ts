// Options shared by `export`, `share` and `prefix`: which request the user is looking at (profile,
// provider shape, notes, branch, captured header), turned into PipelineOptions, and the turn, leaf
// and analysis checks the session commands share.
import { API_IDS, type ApiId, type PipelineOptions, type ProfileId, type Session } from "../core/model";
import { analyzeSession, type SessionAnalysis } from "../core/session/pipeline";
import { defaultProfileOf, PROFILE_IDS } from "../core/session/agents";
import { integerOption, listOption } from "./args";
import { learnCaptures, readCaptures } from "./captures";
import { loadHeader } from "./inputs";
import { CliError, type CliIo } from "./io";
import type { CliOptionSpec, CliOptionValues } from "./registry";

/** `--capture`: captured request bodies (files or folders), repeatable; facts per model, constants from the first. */
export const CAPTURE_OPTION: CliOptionSpec = {
  name: "capture",
  value: "file|folder",
  description: "captured request body or a folder of them (repeatable): session constants from the first main one (unless --header), model facts from each",
  multiple: true,
};

/** `--header` and `--capture` as PipelineOptions: the header (session constants) and the further captures. */
export function capturesOption(options: CliOptionValues, io: CliIo): Pick<PipelineOptions, "header" | "captures"> {
  const learnt = learnCaptures(readCaptures(io, listOption(options, "capture")));
  const header = typeof options.header === "string" ? loadHeader(io, options.header) : (learnt[0] ?? null);
  const captures = typeof options.header === "string" ? learnt : learnt.slice(1);
  return { header, ...(captures.length > 0 ? { captures } : {}) };
}

export const VIEW_OPTIONS: CliOptionSpec[] = [
  { name: "turn", value: "N", description: "the turn (1-based) on the branch; required" },
  { name: "provider", value: "API", description: "wire shape to render instead of the recorded one", choices: API_IDS },
  { name: "header", value: "captured-request.json", description: "captured main request: system prompt, tools and settings come from it" },
  CAPTURE_OPTION,
  { name: "profile", value: PROFILE_IDS.join("|"), description: "pipeline profile of pi files (default: the session's own, senpi for a senpi file)", choices: PROFILE_IDS },
  { name: "notes", value: "on|off", description: "senpi reply-language notes (default off)", choices: ["on", "off"] },
  { name: "leaf", value: "entryId", description: "branch: the path ending at this entry (default: last entry in file order)" },
  { name: "redact", value: "on|off", description: "mask secrets (default on); the masked values are listed on stderr", choices: ["on", "off"] },
  { name: "unmask", value: "finding-id", description: "keep this finding's value (id as listed on stderr); repeatable", multiple: true },
];

/** The profile the user named with --profile, else the session's own (a senpi file: senpi). */
export function profileFor(options: CliOptionValues, session: Session): ProfileId {
  return (options.profile as ProfileId | undefined) ?? defaultProfileOf(session);
}

/** The pipeline options of a view command, for the session it reads (read the session first). */
export function viewPipelineOptions(options: CliOptionValues, io: CliIo, session: Session): PipelineOptions {
  return {
    profile: profileFor(options, session),
    leafId: (options.leaf as string | undefined) ?? null,
    api: (options.provider as ApiId | undefined) ?? null,
    ...capturesOption(options, io),
    notes: options.notes === "on",
  };
}

/** The required `--turn`, checked against the branch's turns. */
export function requiredTurn(options: CliOptionValues, command: string, analysis: SessionAnalysis): number {
  const turn = integerOption(options, "turn", command);
  if (turn === undefined) throw new CliError(`${command}: --turn <N> is required`);
  if (turn > analysis.turns.length) throw new CliError(`${command}: --turn ${turn} does not exist (the branch has ${analysis.turns.length} turns)`);
  return turn;
}

export function checkLeaf(session: Session, options: PipelineOptions, command: string, file: string): void {
  if (options.leafId && !session.entries.some((entry) => entry.id === options.leafId)) {
    throw new CliError(`${command}: --leaf ${options.leafId} is not an entry of ${file}`);
  }
}

/** The session's analysis; a session the pipeline cannot read is an unsupported input. */
export function analyzeForCommand(session: Session, options: PipelineOptions, file: string): SessionAnalysis {
  try {
    return analyzeSession(session, options);
  } catch (error) {
    throw new CliError(`unsupported input ${file}: ${(error as Error).message}`);
  }
}

/** The review list on stderr: one line per masked value, with the id `--unmask` takes. */
export function reportFindings(io: CliIo, findings: readonly { id: string; label: string; masked: string; unmasked: boolean }[]): void {
  for (const finding of findings) {
    io.stderr(`${finding.unmasked ? "unmasked" : "redacted"}: ${finding.label}: ${finding.unmasked ? "(kept)" : finding.masked} [${finding.id}]\n`);
  }
}
