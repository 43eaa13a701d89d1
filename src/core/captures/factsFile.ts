// The facts file: what the first capture of each model taught (session constants such as the
// system prompt, tools and settings; model facts), kept as a small JSON document so that a later
// session of the same agent version is rebuilt with them without capturing again
// (docs/fidelity.md, "Keeping what a capture teaches"). Reading is lenient: a file that is not
// one, or of a format version we do not know, is named in words and never throws.
import type { PipelineOptions, RequestHeader, Session } from "../model";
import { isObject } from "../util/is-object";

export const FACTS_FORMAT = "contextscope-facts";
const FACTS_VERSION = 1;

export interface FactsFile {
  format: typeof FACTS_FORMAT;
  version: typeof FACTS_VERSION;
  /** The agent whose captures taught the facts (its descriptor id, as `Session.formatId`). */
  agent: string;
  /** The agent's version, from the session file or the captures' user-agent; null when neither says. */
  agentVersion: string | null;
  /**
   * One learnt header per model, the first capture of each; the first entry's session constants
   * are the session's, the others add the facts of their own model.
   */
  models: { model: string | null; header: RequestHeader }[];
}

/**
 * Whether a text's first bytes are a facts file's: our writer puts `"format"` first, so a capture
 * need not be parsed whole to be told from one.
 */
export function isFactsFileHead(head: string): boolean {
  return new RegExp(`^\\s*\\{\\s*"format"\\s*:\\s*"${FACTS_FORMAT}"`).test(head);
}

/** The first header learnt for each model, in order: what a facts file keeps (a turn's own capture never teaches it). */
export function firstOfEachModel(headers: readonly RequestHeader[]): RequestHeader[] {
  const seen = new Set<string>();
  return headers.filter((header) => {
    const model = header.model ?? "";
    if (seen.has(model)) return false;
    seen.add(model);
    return true;
  });
}

/** A facts file of the headers learnt from a recording's first capture of each model. */
export function makeFactsFile(agent: string, agentVersion: string | null, learnt: readonly RequestHeader[]): FactsFile {
  return { format: FACTS_FORMAT, version: FACTS_VERSION, agent, agentVersion, models: learnt.map((header) => ({ model: header.model ?? null, header })) };
}

/** The facts as pipeline options: the first model's header, the others as further captures. */
export function applyFacts(facts: FactsFile): Pick<PipelineOptions, "header" | "captures"> {
  const headers = facts.models.map((entry) => entry.header);
  return { header: headers[0] ?? null, ...(headers.length > 1 ? { captures: headers.slice(1) } : {}) };
}

function isHeader(value: unknown): value is RequestHeader {
  return isObject(value) && typeof value.api === "string" && typeof value.source === "string" && isObject(value.extraSettings) && (value.facts === undefined || Array.isArray(value.facts));
}

/** A facts file read from text, or the reason it is not one (never throws). */
export function readFactsFile(text: string, name: string): { facts: FactsFile } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    return { problem: `${name} is not JSON (${(error as Error).message})` };
  }
  if (!isObject(value) || value.format !== FACTS_FORMAT) return { problem: `${name} is not a Contextscope facts file (no "format": "${FACTS_FORMAT}")` };
  if (value.version !== FACTS_VERSION) return { problem: `${name} is a facts file of format version ${String(value.version)}; this Contextscope reads version ${FACTS_VERSION}` };
  if (typeof value.agent !== "string") return { problem: `${name} names no agent` };
  if (!Array.isArray(value.models) || value.models.length === 0) return { problem: `${name} holds no learnt models` };
  const models: FactsFile["models"] = [];
  for (const [i, entry] of value.models.entries()) {
    if (!isObject(entry) || !isHeader(entry.header)) return { problem: `${name}: model entry ${i + 1} holds no learnt request header` };
    models.push({ model: typeof entry.model === "string" ? entry.model : null, header: entry.header });
  }
  const agentVersion = typeof value.agentVersion === "string" ? value.agentVersion : null;
  return { facts: { format: FACTS_FORMAT, version: FACTS_VERSION, agent: value.agent, agentVersion, models } };
}

/** The agent version a session file records (a string `version` or `cli_version` in its header), or null. */
export function sessionAgentVersion(session: Session): string | null {
  const header = session.header ?? {};
  for (const key of ["version", "cli_version"]) if (typeof header[key] === "string") return header[key];
  return null;
}

/** The agent version in a request's user-agent ("claude-cli/2.1.332 (external, sdk-cli)" → "2.1.332"), or null. */
export function userAgentVersion(userAgent: string): string | null {
  return /^[^\s/]+\/(\d[\w.+-]*)/.exec(userAgent)?.[1] ?? null;
}

/**
 * Whether facts apply to a session: "refuse" for another agent (its constants would be wrong
 * throughout), "warn" naming a different or unknown agent version, "same" otherwise. `nameOf`
 * gives an agent's name for the message (its id when the caller has none).
 */
export function factsFit(facts: FactsFile, agent: string, agentVersion: string | null, nameOf: (agent: string) => string = (id) => id): { fit: "same" } | { fit: "warn" | "refuse"; message: string } {
  if (facts.agent !== agent) return { fit: "refuse", message: `the facts were learnt from ${nameOf(facts.agent)}; this session was written by ${nameOf(agent)}` };
  if (facts.agentVersion === agentVersion) return { fit: "same" };
  const learnt = facts.agentVersion ?? "an unknown version";
  const here = agentVersion ?? "an unknown version";
  return { fit: "warn", message: `the facts were learnt from ${nameOf(facts.agent)} ${learnt}, this session is ${here}; constants that changed between versions will differ` };
}
