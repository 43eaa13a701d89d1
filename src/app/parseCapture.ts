// Tells the two kinds of captured request a user attaches apart: a pi summariser request (system
// prompt plus one "<conversation>" user message, accepted by extractCompactionInstructions, and no
// tools: pi never sends tools to its summariser, PI-K21) fills compaction instruction slots;
// anything else is a main request whose system prompt, tools and settings become the header, with
// the session constants and model facts it teaches (src/core/captures).
import { extractCompactionInstructions } from "../core/session/index";
import { learnCapture } from "../core/session/captures";
import type { ParsedCapture } from "./viewTypes";

function hasTools(body: unknown): boolean {
  const tools = typeof body === "object" && body !== null ? (body as Record<string, unknown>).tools : undefined;
  return Array.isArray(tools) ? tools.length > 0 : tools !== undefined && tools !== null;
}

export function parseCapture(body: unknown, source: string): ParsedCapture {
  const captured = hasTools(body) ? null : extractCompactionInstructions(body, source);
  if (captured) return { kind: "compaction", captured, source };
  return { kind: "header", header: learnCapture(body, source) };
}
