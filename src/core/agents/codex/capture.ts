// What a captured Codex request (OpenAI Responses) holds that the rollout does not (FM-CX-10,
// FM-CX-12, FM-CX-13), all constant across a session: `input[0]` as sent (the base instructions
// and the id Codex gives that item), the `tools` list verbatim (namespaces and built-in tools
// included, which the neutral header form cannot hold), and the installation and configuration
// values of `client_metadata` with the key order of its `x-codex-turn-metadata` string.
import type { CaptureFact } from "../../model";
import { fact } from "../../captures/fact";
import { isObject } from "../../util/is-object";

/** Turn-metadata keys that are the same in every request of a session (installation and config). */
const CODEX_CONSTANT_METADATA_KEYS = [
  "installation_id",
  "agent_name",
  "sandbox",
  "sandbox_mode",
  "auto_review_enabled",
  "node_repl_auto_review_required",
  "node_repl_disabled",
  "analytics_enabled",
] as const;

export const CODEX_BASE_ITEM = "codex.base_instructions_item";
export const CODEX_TOOLS = "codex.tools";
export const CODEX_TURN_METADATA = "codex.turn_metadata";

/** The learnt turn-metadata constants and the capture's key order. */
export interface CodexTurnMetadataFact {
  constants: Record<string, unknown>;
  order: string[];
}

function parseObject(text: unknown): Record<string, unknown> | null {
  if (typeof text !== "string") return null;
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

export function learnCodexCapture(body: Record<string, unknown>, source: string): CaptureFact[] {
  const facts: CaptureFact[] = [];
  const input = Array.isArray(body.input) ? body.input : [];
  const first = input[0];
  if (isObject(first) && first.type === "message" && first.role === "developer" && typeof first.id === "string") {
    facts.push(fact("session", CODEX_BASE_ITEM, "base instructions item (input[0]) and its id", "$.input[0]", first, source));
  }
  if (Array.isArray(body.tools) && isObject(body.client_metadata)) {
    facts.push(fact("session", CODEX_TOOLS, `tools as sent (${body.tools.length})`, "$.tools", body.tools, source));
  }
  const metadata = isObject(body.client_metadata) ? parseObject(body.client_metadata["x-codex-turn-metadata"]) : null;
  if (metadata) {
    const constants: Record<string, unknown> = {};
    for (const key of CODEX_CONSTANT_METADATA_KEYS) if (key in metadata) constants[key] = metadata[key];
    const value: CodexTurnMetadataFact = { constants, order: Object.keys(metadata) };
    facts.push(fact("session", CODEX_TURN_METADATA, "installation id and configuration flags of client_metadata", '$.client_metadata["x-codex-turn-metadata"]', value, source));
  }
  return facts;
}
