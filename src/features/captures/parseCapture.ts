// Tells the two kinds of captured request a user attaches apart: a pi summariser request (system
// prompt plus one "<conversation>" user message, accepted by extractCompactionInstructions, and no
// tools: pi never sends tools to its summariser, PI-K21) fills compaction instruction slots;
// anything else is a main request whose system prompt, tools and settings become the header, with
// the session constants and model facts it teaches (src/core/captures). A summariser request's
// slots are merged here into those filled so far, so the page needs none of the agents' code.
import { extractCompactionInstructions, mergeCompactionInstructions, type CompactionInstructions } from "../../core/session/index";
import { learnCapture } from "../../core/session/captures";
import { FACTS_FORMAT } from "../../core/captures/factsFile";
import type { ParsedCapture } from "./protocol";

/** A facts file (src/core/captures/factsFile.ts) is told by its `format`; it is read against the session. */
function isFactsFile(body: unknown): boolean {
  return typeof body === "object" && body !== null && (body as Record<string, unknown>).format === FACTS_FORMAT;
}

function hasTools(body: unknown): boolean {
  const tools = typeof body === "object" && body !== null ? (body as Record<string, unknown>).tools : undefined;
  return Array.isArray(tools) ? tools.length > 0 : tools !== undefined && tools !== null;
}

/** `filled`: the summariser slots filled so far, which a summariser request's own fill where empty. */
export function parseCapture(body: unknown, source: string, filled: CompactionInstructions | null = null): ParsedCapture {
  if (isFactsFile(body)) return { kind: "facts" };
  const captured = hasTools(body) ? null : extractCompactionInstructions(body, source);
  if (captured) return { kind: "compaction", captured, source, merged: mergeCompactionInstructions(filled, captured.instructions) };
  return { kind: "header", header: learnCapture(body, source) };
}
