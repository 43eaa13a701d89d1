// Codex's compaction texts are data, not code: the compaction prompt (FM-CX-15) and
// the prefix paragraph put before the summary in the compacted history (FM-CX-16) are slots. The
// prompt is filled from a captured summariser request; the prefix is read from the session's own
// `compacted` line when it has one (recorded data), else described. Two more slots hold request
// fields the rollout does not record (the base instructions item id, `client_metadata`): a
// captured request fills them so the whole body can be compared.
import type { Session } from "../../../model";
import { getCodexIndex, type RolloutItem } from "../rollout-index";
import type { CapturedSummariserRequest, InstructionSlotSpec } from "../../../simulate/types";
import { isObject } from "../../../util/is-object";
import { isText, textString } from "../../../text/text";

export const CODEX_COMPACT_PROMPT_SLOT = "compactPrompt";
export const CODEX_SUMMARY_PREFIX_SLOT = "summaryPrefix";
export const CODEX_BASE_ITEM_ID_SLOT = "baseItemId";
export const CODEX_CLIENT_METADATA_SLOT = "clientMetadata";

export const CODEX_SLOTS: readonly InstructionSlotSpec[] = [
  {
    slot: CODEX_COMPACT_PROMPT_SLOT,
    label: "Codex compaction prompt",
    ruleId: "FM-CX-15",
    description:
      "Codex's context-checkpoint compaction prompt: create a handoff summary for another model that will resume the task, with a short bullet list (current progress and key decisions; important context, constraints and preferences; what remains to be done; critical data and references) and a closing line asking for a concise, structured summary.",
  },
  {
    slot: CODEX_SUMMARY_PREFIX_SLOT,
    label: "Codex summary prefix paragraph",
    ruleId: "FM-CX-16",
    description: "The paragraph put before the summary in the compacted history: it presents the summary as another language model's summary of its work and asks the model to build on it.",
  },
  {
    slot: CODEX_BASE_ITEM_ID_SLOT,
    label: "input[0].id (request field, not recorded in the rollout)",
    ruleId: "FM-CX-10",
    description: "The id of the base instructions item.",
  },
  {
    slot: CODEX_CLIENT_METADATA_SLOT,
    label: "client_metadata (request field, partly not recorded)",
    ruleId: "FM-CX-12",
    description: "Installation id, sandbox flags and start time are not in the rollout.",
  },
];

/** The text of a message item's `input_text` / `output_text` blocks. */
export function itemText(item: unknown): string {
  if (!isObject(item) || !Array.isArray(item.content)) return "";
  // A large text may be a stored text (storedTextPlaces.ts): decoded here, for the caller's tests.
  return item.content.map((b) => (isObject(b) && isText(b.text) ? textString(b.text) : "")).join("");
}

/**
 * Reads a captured Codex summariser request by its shape (FM-CX-15): a Responses body with
 * `tools: []` whose last input item is a user message without an id. Data part = the history
 * between the base instructions item and the prompt.
 */
export function readCapturedCodexRequest(body: unknown, source: string): CapturedSummariserRequest | null {
  if (!isObject(body) || !Array.isArray(body.input) || !Array.isArray(body.tools) || body.tools.length !== 0) return null;
  const input = body.input as unknown[];
  const last = input[input.length - 1];
  if (!isObject(last) || last.type !== "message" || last.role !== "user" || "id" in last) return null;
  const prompt = itemText(last);
  if (prompt.length === 0) return null;
  const slots: Record<string, string> = { [CODEX_COMPACT_PROMPT_SLOT]: prompt };
  const first = input[0];
  if (isObject(first) && typeof first.id === "string") slots[CODEX_BASE_ITEM_ID_SLOT] = first.id;
  if (isObject(body.client_metadata)) slots[CODEX_CLIENT_METADATA_SLOT] = JSON.stringify(body.client_metadata);
  const sources: Record<string, string> = {};
  for (const key of Object.keys(slots)) sources[key] = source;
  return { values: { slots, sources }, focus: null, dataPart: input.slice(1, -1) };
}

/** The summariser's answer of a recorded compaction: the output item right after its input. */
export function recordedSummaryItem(session: Session, compactionEntryId: string): RolloutItem | null {
  const index = getCodexIndex(session);
  const compaction = index.compactions.find((c) => c.entry.id === compactionEntryId);
  if (!compaction) return null;
  const item = index.windows[compaction.fromWindow]?.[compaction.historyLength];
  return isObject(item) && item.type === "message" && item.role === "assistant" ? item : null;
}

/** The summary prefix paragraph as the session's first `compacted` line records it, or null. */
export function recordedSummaryPrefix(session: Session): string | null {
  for (const compaction of getCodexIndex(session).compactions) {
    const payload = compaction.entry.raw.payload;
    const message = isObject(payload) && typeof payload.message === "string" ? payload.message : null;
    const summary = itemText(recordedSummaryItem(session, compaction.entry.id));
    if (message !== null && summary.length > 0 && message.endsWith(summary)) return message.slice(0, message.length - summary.length);
  }
  return null;
}
