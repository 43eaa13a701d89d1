// `--facts FILE` and `--write-facts FILE`: the facts a recording's captures taught, kept in a file
// (src/core/captures/factsFile.ts) and applied to a later session instead of capturing again. A
// file that is not a facts file, or one of another agent, stops the command with its name; one of
// another version of the same agent is used, with a warning naming both versions.
import fs from "node:fs";
import type { PipelineOptions, RequestHeader, Session } from "../core/model";
import { applyFacts, factsFit, makeFactsFile, readFactsFile, sessionAgentVersion, userAgentVersion } from "../core/captures/factsFile";
import { findAgent } from "../core/session/agents";
import { listOption } from "./args";
import { CliError, type CliIo } from "./io";
import type { CliOptionSpec, CliOptionValues } from "./registry";

export const FACTS_OPTION: CliOptionSpec = {
  name: "facts",
  value: "file",
  description: "a facts file (`verify --write-facts`): system prompt, tools, settings and model facts a capture of the same agent version taught",
};

/** The facts of `--facts` for `session` as pipeline options; none when the option is absent. */
export function factsOption(options: CliOptionValues, io: CliIo, session: Session, command: string): Pick<PipelineOptions, "header" | "captures"> | null {
  const file = options.facts;
  if (typeof file !== "string") return null;
  let text: string;
  try {
    text = new TextDecoder("utf-8").decode(io.readFile(file));
  } catch (error) {
    throw new CliError(`${command}: facts file ${file}: ${(error as Error).message}`);
  }
  const read = readFactsFile(text, file);
  if ("problem" in read) throw new CliError(`${command}: ${read.problem}`);
  const fit = factsFit(read.facts, session.formatId, sessionAgentVersion(session), (id) => findAgent(id)?.label ?? id);
  if (fit.fit === "refuse") throw new CliError(`${command}: facts file ${file} is not for this session: ${fit.message}`);
  if (fit.fit === "warn") io.stderr(`warning: facts file ${file}: ${fit.message}\n`);
  return applyFacts(read.facts);
}

/** `--facts` replaces `--header` and `--capture`: the two ways of giving facts exclude each other. */
export function checkFactsAlone(options: CliOptionValues, command: string): void {
  if (typeof options.facts === "string" && (typeof options.header === "string" || listOption(options, "capture").length > 0)) {
    throw new CliError(`${command}: --facts and --header/--capture exclude each other (a facts file already holds what the captures taught)`);
  }
}

/** Writes the facts learnt from a recording; the agent version from the session file, else a capture's user-agent. */
export function writeFacts(file: string, session: Session, learnt: readonly RequestHeader[], userAgents: readonly (string | null)[], io: CliIo): void {
  if (learnt.length === 0) throw new CliError(`verify: --write-facts: the recording holds no main capture to learn from`);
  const fromCaptures = userAgents.map((agent) => (agent ? userAgentVersion(agent) : null)).find((version) => version !== null) ?? null;
  const facts = makeFactsFile(session.formatId, sessionAgentVersion(session) ?? fromCaptures, learnt);
  fs.writeFileSync(file, `${JSON.stringify(facts, null, 2)}\n`);
  io.stderr(`facts of ${learnt.length} model${learnt.length === 1 ? "" : "s"} written to ${file}\n`);
}
