// Claude Code's summariser texts are data, not code: the compaction prompt is a
// named slot filled from a captured summariser request (FM-CC-16, fixture requests 009 and 015).
// Two more slots hold request fields the transcript does not record (FM-CC-19 steps 5–6): the
// billing header block and `metadata.user_id`. They are not instructions; a captured request
// fills them so the whole body can be compared, otherwise they keep the pipeline's placeholders.
import type { CapturedSummariserRequest, InstructionSlotSpec } from "../../../simulate/types";
import { isObject } from "../../../util/is-object";

export const CLAUDE_COMPACT_PROMPT_SLOT = "compactPrompt";
export const CLAUDE_BILLING_HEADER_SLOT = "billingHeader";
export const CLAUDE_METADATA_SLOT = "metadataUserId";

/**
 * CP-CC-INF-5: custom instructions of `/compact <text>` are appended to the prompt behind this
 * separator. Not pinned by a recording (the fixture's `/compact` had no arguments).
 */
export const CLAUDE_FOCUS_SEPARATOR = "\n\nAdditional Instructions:\n";

export const CLAUDE_SLOTS: readonly InstructionSlotSpec[] = [
  {
    slot: CLAUDE_COMPACT_PROMPT_SLOT,
    label: "Claude Code compaction prompt",
    ruleId: "FM-CC-16",
    description:
      "Claude Code's compaction prompt: respond with text only and call no tools; write an <analysis> block, then a <summary> block with nine numbered sections (the user's requests and intent, key technical concepts, files and code, errors and fixes, problem solving, all user messages, pending tasks, current work, an optional next step); ends with a reminder not to call tools.",
  },
  {
    slot: CLAUDE_BILLING_HEADER_SLOT,
    label: "billing header block (request field, not recorded in the transcript)",
    ruleId: "FM-CC-19",
    description: "system[0]: `x-anthropic-billing-header: cc_version=<version>.<build suffix>; cc_entrypoint=<entrypoint>;`",
  },
  {
    slot: CLAUDE_METADATA_SLOT,
    label: "metadata.user_id (request field, device and account ids not recorded)",
    ruleId: "FM-CC-19",
    description: "metadata.user_id: a JSON string with device id, account uuid and session id",
  },
];

/**
 * Reads a captured Claude Code summariser request: an Anthropic Messages body whose last message
 * is a user message with a plain string asking for an `<analysis>` and a `<summary>` block
 * (FM-CC-16), after an assistant message. Data part = every message before the instruction.
 */
export function readCapturedClaudeRequest(body: unknown, source: string): CapturedSummariserRequest | null {
  if (!isObject(body) || !Array.isArray(body.messages) || !Array.isArray(body.system)) return null;
  const messages = body.messages as unknown[];
  const last = messages[messages.length - 1];
  const before = messages[messages.length - 2];
  if (!isObject(last) || last.role !== "user" || typeof last.content !== "string") return null;
  if (!isObject(before) || before.role !== "assistant") return null;
  if (!last.content.includes("<analysis>") || !last.content.includes("<summary>")) return null;
  let prompt = last.content;
  let focus: string | null = null;
  const at = prompt.lastIndexOf(CLAUDE_FOCUS_SEPARATOR);
  if (at >= 0) {
    focus = prompt.slice(at + CLAUDE_FOCUS_SEPARATOR.length);
    prompt = prompt.slice(0, at);
  }
  const slots: Record<string, string> = { [CLAUDE_COMPACT_PROMPT_SLOT]: prompt };
  const first = body.system[0];
  if (isObject(first) && typeof first.text === "string" && first.text.startsWith("x-anthropic-billing-header:")) slots[CLAUDE_BILLING_HEADER_SLOT] = first.text;
  if (isObject(body.metadata) && typeof body.metadata.user_id === "string") slots[CLAUDE_METADATA_SLOT] = body.metadata.user_id;
  const sources: Record<string, string> = {};
  for (const key of Object.keys(slots)) sources[key] = source;
  return { values: { slots, sources }, focus, dataPart: messages.slice(0, -1) };
}
