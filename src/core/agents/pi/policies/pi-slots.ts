// pi's instruction slots (PI-K20, PI-K22, PI-K27) as simulator slots. The texts are pi's prose and
// come from captured summariser requests; the descriptions below are ours.
import { extractCompactionInstructions, type CompactionInstructions } from "../compaction";
import { fillSlot } from "../../../simulate/instruction-slots";
import type { InstructionSlotSpec, InstructionSlotUse, InstructionSlotValues } from "../../../simulate/types";
import { isText, textString, type Text } from "../../../text/text";

export const PI_SLOTS: readonly InstructionSlotSpec[] = [
  {
    slot: "summarizationSystemPrompt",
    label: "pi summarization system prompt",
    ruleId: "PI-K20",
    description:
      "(Two short paragraphs: the model is a context summarization assistant that reads a user/assistant coding conversation and writes a structured summary in the requested format; it must not continue the conversation or answer its questions, only output the summary.)",
  },
  {
    slot: "initialPrompt",
    label: "pi initial summarization prompt",
    ruleId: "PI-K22",
    description:
      "(Summarise the conversation above into a checkpoint another model continues from, in this layout: ## Goal, ## Constraints & Preferences, ## Progress with ### Done / ### In Progress / ### Blocked, ## Key Decisions, ## Next Steps, ## Critical Context; concise, keep exact file paths, function names and error messages.)",
  },
  {
    slot: "updatePrompt",
    label: "pi update summarization prompt",
    ruleId: "PI-K22",
    description:
      "(The messages above are NEW; merge them into the summary in <previous-summary>: preserve existing information, add new progress, decisions and context, move In Progress items to Done, update Next Steps, keep exact paths, names and errors, drop what is no longer relevant; same layout as the initial prompt.)",
  },
  {
    slot: "turnPrefixPrompt",
    label: "pi turn-prefix summarization prompt",
    ruleId: "PI-K27",
    description:
      "(This is the PREFIX of a turn too large to keep; the SUFFIX is retained. Summarise the prefix under ## Original Request, ## Early Progress, ## Context for Suffix, concisely.)",
  },
];

/** Template headings of pi's summary, for placeholders (PI-K22). */
export const PI_SUMMARY_HEADINGS = [
  "## Goal",
  "## Constraints & Preferences",
  "## Progress",
  "### Done",
  "### In Progress",
  "### Blocked",
  "## Key Decisions",
  "## Next Steps",
  "## Critical Context",
];
export const PI_TURN_PREFIX_HEADINGS = ["## Original Request", "## Early Progress", "## Context for Suffix"];

export interface FilledPiSlots {
  instructions: CompactionInstructions;
  uses: Record<string, InstructionSlotUse>;
  captured: Record<string, boolean>;
}

/** Every pi slot filled: captured text, else our description behind the visible marker. */
export function fillPiSlots(values: InstructionSlotValues | undefined): FilledPiSlots {
  const instructions: CompactionInstructions = {};
  const uses: Record<string, InstructionSlotUse> = {};
  const captured: Record<string, boolean> = {};
  for (const spec of PI_SLOTS) {
    const filled = fillSlot(spec, values);
    (instructions as Record<string, string>)[spec.slot] = filled.text;
    uses[spec.slot] = filled.use;
    captured[spec.slot] = filled.captured;
  }
  return { instructions, uses, captured };
}

/** What one captured pi summariser request gives: slots, focus, and its data part. */
export interface CapturedPiRequest {
  values: InstructionSlotValues;
  focus: string | null;
  /** The user text before the instruction (`<conversation>` and `<previous-summary>` blocks). */
  dataPart: string;
}

export function readCapturedPiRequest(body: unknown, source: string): CapturedPiRequest | null {
  const captured = extractCompactionInstructions(body, source);
  if (!captured) return null;
  const slots: Record<string, string> = {};
  const sources: Record<string, string> = {};
  for (const [key, value] of Object.entries(captured.instructions)) {
    if (key === "sources" || typeof value !== "string") continue;
    slots[key] = value;
    sources[key] = source;
  }
  const instruction = captured.instructions[captured.slot] ?? "";
  const user = userTextOf(body);
  const tail = instruction + (captured.customInstructions !== null ? `\n\nAdditional focus: ${captured.customInstructions}` : "");
  const dataPart = user !== null && user.endsWith(tail) ? user.slice(0, user.length - tail.length) : "";
  return { values: { slots, sources }, focus: captured.customInstructions, dataPart };
}

function userTextOf(body: unknown): string | null {
  const messages = (body as { messages?: unknown[] }).messages;
  if (!Array.isArray(messages)) return null;
  const user = messages.find((m) => (m as { role?: string }).role === "user") as { content?: unknown } | undefined;
  if (!user) return null;
  if (isText(user.content)) return textString(user.content);
  if (!Array.isArray(user.content)) return null;
  return user.content.map((b) => ((b as { type?: string }).type === "text" ? textString((b as { text?: Text }).text ?? "") : "")).join("");
}
