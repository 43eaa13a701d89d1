// opencode's summariser request (compaction-policies.md CP-OC-17 … CP-OC-22): one system message,
// one user message, no tools, `max_tokens` = the model's output limit, streaming with usage. The
// fixed texts (system prompt, the instruction after the conversation, the combine rules after the
// prior summary) are opencode's prose, so they are named slots filled from a captured summariser
// request (fixture opencode/run-autocompact requests 010 and 016 carry them). The wrappers
// around the data blocks are given byte-exact by CP-OC-19/20 and written here.
import { fillSlot } from "../../../simulate/instruction-slots";
import type { InstructionSlotSpec, InstructionSlotUse, InstructionSlotValues } from "../../../simulate/types";

const CONVERSATION_OPEN = "Here is the conversation so far:\n\n<conversation>\n";
const CONVERSATION_CLOSE = "\n</conversation>\n\n";
const PRIOR_OPEN = "Here is the summary of the conversation before the <conversation> above:\n\n<prior-summary>\n";
const PRIOR_CLOSE = "\n</prior-summary>\n\n";

export const OPENCODE_SLOTS: readonly InstructionSlotSpec[] = [
  {
    slot: "system",
    label: "opencode summariser system prompt",
    ruleId: "CP-OC-18",
    description:
      "A context summarization agent turns a user/agent conversation into a structured summary in the format the user prompt specifies, so another coding agent can continue; keep every section, preserve exact paths and identifiers, prefer terse bullets; do not continue the conversation or answer its questions; respond in the same language as the conversation.",
  },
  {
    slot: "first-instruction",
    label: "opencode instruction after the conversation (first compaction)",
    ruleId: "CP-OC-19",
    description:
      "Asks for a new anchored summary of the conversation in the tags above, then the template instructions: output exactly the Markdown inside <template> (## Objective, ## Important Details, ## Work State with ### Completed / ### Active / ### Blocked, ## Next Move with two numbered items, ## Relevant Files, each with (none) placeholders) and rules: keep every section, terse bullets, exact paths/symbols/commands/errors/URLs/identifiers, never mention the summary process.",
  },
  {
    slot: "update-instruction",
    label: "opencode combine rules after the prior summary",
    ruleId: "CP-OC-20",
    description:
      "Combine rules: the prior summary is discarded after this call, so carry forward objectives, constraints, directives, decisions and workstreams; the conversation is newer and wins on conflict; add new progress; move Active to Completed; update resolved blockers; update Objective and Next Move. Then the same template instructions as the first compaction.",
  },
];

function slotSpec(name: string): InstructionSlotSpec {
  return OPENCODE_SLOTS.find((slot) => slot.slot === name) as InstructionSlotSpec;
}

export interface OpencodeSummariserBody {
  body: Record<string, unknown>;
  systemText: string;
  userText: string;
  instructionTexts: string[];
  slots: InstructionSlotUse[];
}

/** CP-OC-17 … CP-OC-20. The conversation block comes before the prior summary. */
export function buildOpencodeSummariserBody(input: {
  model: string;
  maxTokens: number;
  conversation: string;
  priorSummary: string | null;
  instructions?: InstructionSlotValues;
}): OpencodeSummariserBody {
  const system = fillSlot(slotSpec("system"), input.instructions);
  const instruction = fillSlot(slotSpec(input.priorSummary !== null ? "update-instruction" : "first-instruction"), input.instructions);
  let userText = CONVERSATION_OPEN + input.conversation + CONVERSATION_CLOSE;
  if (input.priorSummary !== null) userText += PRIOR_OPEN + input.priorSummary + PRIOR_CLOSE;
  userText += instruction.text;
  const body = {
    model: input.model,
    max_tokens: input.maxTokens,
    messages: [
      { role: "system", content: system.text },
      { role: "user", content: userText },
    ],
    stream: true,
    stream_options: { include_usage: true },
  };
  return { body, systemText: system.text, userText, instructionTexts: [system.text, instruction.text], slots: [system.use, instruction.use] };
}

/**
 * Slot values from a captured opencode summariser request: the system message, and the text after
 * the last `</prior-summary>` wrapper (update) or the last `</conversation>` wrapper (first).
 */
export function extractOpencodeInstructions(captured: unknown, source: string): InstructionSlotValues | null {
  if (typeof captured !== "object" || captured === null) return null;
  const messages = (captured as { messages?: unknown }).messages;
  if (!Array.isArray(messages) || messages.length !== 2) return null;
  const [system, user] = messages as { role?: unknown; content?: unknown }[];
  if (system?.role !== "system" || user?.role !== "user") return null;
  if (typeof system.content !== "string" || typeof user.content !== "string") return null;
  if (!user.content.startsWith(CONVERSATION_OPEN)) return null;
  const slots: Record<string, string> = { system: system.content };
  const prior = user.content.lastIndexOf(PRIOR_CLOSE);
  if (prior >= 0 && user.content.includes(PRIOR_OPEN)) slots["update-instruction"] = user.content.slice(prior + PRIOR_CLOSE.length);
  else {
    const close = user.content.lastIndexOf(CONVERSATION_CLOSE);
    if (close < 0) return null;
    slots["first-instruction"] = user.content.slice(close + CONVERSATION_CLOSE.length);
  }
  const sources: Record<string, string> = {};
  for (const key of Object.keys(slots)) sources[key] = source;
  return { slots, sources };
}

/** The data part of a captured request: conversation text and prior summary (for comparisons). */
export function opencodeDataPart(captured: { messages: { content: string }[] }): { conversation: string; priorSummary: string | null } {
  const user = captured.messages[1]?.content ?? "";
  const body = user.slice(CONVERSATION_OPEN.length);
  const close = body.lastIndexOf(CONVERSATION_CLOSE, body.includes(PRIOR_OPEN) ? body.lastIndexOf(PRIOR_OPEN) : undefined);
  const conversation = body.slice(0, close);
  const priorStart = body.indexOf(PRIOR_OPEN, close);
  const priorSummary = priorStart >= 0 ? body.slice(priorStart + PRIOR_OPEN.length, body.lastIndexOf(PRIOR_CLOSE)) : null;
  return { conversation, priorSummary };
}
