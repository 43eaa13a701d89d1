// What the policy takes from a deepseek-harness session itself when it runs on one: the requests it
// builds are serialized by the harness's DeepSeek adapter with the turn's stored request header
// (so the summariser request and the request after compaction compare with the real ones byte for
// byte, not through a generic Chat Completions shape), and re-running a recorded compaction starts
// from the surface as it stood just before that compaction (the last answer included).
import type { ContextMessage, LlmMessage } from "../../../model";
import type { SimulationInput } from "../../../simulate/types";
import { compactionOfEntry } from "../auxiliary";
import { DEEPSEEK_HARNESS_FORMAT_ID } from "../events";
import { headerAt, surfaceMessages } from "../pipeline";
import { harnessIndex } from "../sessionIndex";
import { deepseekBody } from "../wire";
import { isText, textString } from "../../../text/text";
import { isObject } from "../../../util/is-object";

function isHarnessSession(input: SimulationInput): boolean {
  return input.session.formatId === DEEPSEEK_HARNESS_FORMAT_ID;
}

/** The surface just before the recorded compaction being re-run, or null (then the turn's context is used). */
export function recordedSurface(input: SimulationInput): ContextMessage[] | null {
  if (!isHarnessSession(input) || input.recordedCompactionEntryId === undefined) return null;
  const record = compactionOfEntry(input.session, input.recordedCompactionEntryId);
  if (!record) return null;
  return surfaceMessages(input.session, harnessIndex(input.session), record.nodesBefore);
}

/**
 * The body the harness's adapter sends for `messages` after turn `input.turn`: the summarisation
 * request (no effort, temperature or stop from the header; `maxTokens` its own cap) or a
 * conversation request (the header's settings). Null when the session is not the harness's own,
 * or another wire shape is asked for: the caller serializes generically then.
 */
export function harnessBody(input: SimulationInput, messages: readonly LlmMessage[], purpose: "summary" | "conversation", model: string, maxTokens?: number): Record<string, unknown> | null {
  if (!isHarnessSession(input)) return null;
  if ((input.api ?? input.options.api ?? "openai-completions") !== "openai-completions") return null;
  const request = harnessIndex(input.session).requests[input.turn - 1];
  if (!request) return null;
  const header = headerAt(input.session, request.header);
  const items: ContextMessage[] = messages.map((message) => ({ message, provenance: { rule: "entry", entryId: null } }));
  const conversation = purpose === "conversation";
  return deepseekBody({
    model,
    system: header.system,
    messages: items,
    tools: header.tools,
    effort: { kind: "config", effort: conversation ? header.config.reasoningEffort : undefined },
    ...(conversation && header.config.temperature !== undefined ? { temperature: header.config.temperature } : {}),
    ...(conversation ? (header.config.maxTokens !== undefined ? { maxTokens: header.config.maxTokens } : {}) : maxTokens !== undefined ? { maxTokens } : {}),
    ...(conversation && header.config.stop !== undefined ? { stop: header.config.stop } : {}),
  });
}

/** The recorded compaction being re-run, when the session is the harness's own. */
function recordedCompaction(input: SimulationInput) {
  if (!isHarnessSession(input) || input.recordedCompactionEntryId === undefined) return null;
  return compactionOfEntry(input.session, input.recordedCompactionEntryId);
}

/** The summary the recorded compaction stored (its text blocks, joined), for a re-run. */
export function recordedSummaryText(input: SimulationInput): string | null {
  const record = recordedCompaction(input);
  if (!record || record.summary === null) return null;
  const summary = input.session.entries[record.summary]!.raw.data as { summary?: unknown } | undefined;
  if (!Array.isArray(summary?.summary)) return null;
  // A long summary block is a stored text (storedTextPlaces.ts): read as its characters.
  return summary.summary.map((block: unknown) => (isObject(block) && isText(block.text) ? textString(block.text) : "")).join("");
}

/** The checkpoint preamble as the recorded checkpoint holds it (the log stores it; only the instruction is a code constant). */
export function recordedPreamble(input: SimulationInput): string | null {
  const record = recordedCompaction(input);
  if (!record || record.checkpoint === null) return null;
  const data = input.session.entries[record.checkpoint]!.raw.data as { content?: unknown } | undefined;
  const first = Array.isArray(data?.content) ? (data.content[0] as { text?: unknown } | undefined) : undefined;
  const text = isText(first?.text) ? textString(first.text) : null;
  const marker = "\n\n<compacted-summary>";
  return text !== null && text.endsWith(marker) ? text.slice(0, -marker.length) : null;
}

/**
 * The context window the harness logged for the route in force at turn `input.turn`
 * (`request/context`), which the catalogue may not know; null when none was logged.
 */
export function recordedContextWindow(input: SimulationInput): number | null {
  if (!isHarnessSession(input)) return null;
  return harnessIndex(input.session).requests[input.turn - 1]?.contextWindow ?? null;
}
