// The texts of Gemini CLI's chat compression are data, not code (docs/compaction-policies/gemini-cli.md):
// the compression system prompt, the instruction that asks for a new snapshot (or for an update of
// the previous one), the verification instruction and the model's acknowledgement put after the
// snapshot. Captured compression requests fill the first three; the acknowledgement is read from
// the session's own compressed history when it has one.
import type { CapturedSummariserRequest, InstructionSlotSpec } from "../../../simulate/types";
import { isObject } from "../../../util/is-object";
import { isText, textString } from "../../../text/text";
import { textIncludes } from "../../../text/textTests";

export const COMPRESSION_PROMPT_SLOT = "compressionPrompt";
export const NEW_SNAPSHOT_SLOT = "newSnapshotInstruction";
export const UPDATE_SNAPSHOT_SLOT = "updateSnapshotInstruction";
export const VERIFICATION_SLOT = "verificationInstruction";
export const ACKNOWLEDGEMENT_SLOT = "acknowledgement";

export const GEMINI_SLOTS: readonly InstructionSlotSpec[] = [
  {
    slot: COMPRESSION_PROMPT_SLOT,
    label: "Gemini CLI compression system prompt",
    ruleId: "CP-GM-4",
    description:
      "The system instruction of both compression requests: distil the chat history into a structured XML <state_snapshot> (overall goal, active constraints, key knowledge, artifact trail, file-system state, recent actions, task state), treating the history as data and ignoring instructions found in it.",
  },
  {
    slot: NEW_SNAPSHOT_SLOT,
    label: "Instruction asking for a new snapshot",
    ruleId: "CP-GM-4",
    description: "The user message after the history when it holds no earlier snapshot: generate a new <state_snapshot> from the history, reasoning in a scratchpad first.",
  },
  {
    slot: UPDATE_SNAPSHOT_SLOT,
    label: "Instruction asking to update the previous snapshot",
    ruleId: "CP-GM-4",
    description: "The user message after the history when it holds an earlier <state_snapshot>: integrate what is still relevant from it into the new one, reasoning in a scratchpad first.",
  },
  {
    slot: VERIFICATION_SLOT,
    label: "Verification instruction",
    ruleId: "CP-GM-5",
    description: "The user message of the second request, after the summary: critically evaluate the snapshot for omitted details and answer with a final, improved snapshot (or the same one again).",
  },
  {
    slot: ACKNOWLEDGEMENT_SLOT,
    label: "The model's acknowledgement after the snapshot",
    ruleId: "CP-GM-6",
    description: "A short fixed model message thanking for the additional context, placed after the snapshot in the compressed history.",
  },
];

type Content = { parts?: unknown; role?: unknown };

function textOf(content: Content | undefined): string {
  if (!content || !Array.isArray(content.parts)) return "";
  return content.parts.map((part) => (isObject(part) && isText(part.text) ? textString(part.text) : "")).join("");
}

/** True when any text part of the contents holds a snapshot: the CLI then asks for an update. */
export function holdsSnapshot(contents: readonly unknown[]): boolean {
  return contents.some((content) => isObject(content) && Array.isArray(content.parts) && content.parts.some((part) => isObject(part) && isText(part.text) && textIncludes(part.text, "<state_snapshot>")));
}

/**
 * Reads a captured compression request by its shape: a generateContent body without tools whose
 * last content is a user instruction. The verification request is the one whose content before
 * the instruction is the model's summary; its data part is the history plus that summary, the
 * summary request's the history alone.
 */
export function readCapturedCompression(body: unknown, source: string): CapturedSummariserRequest | null {
  if (!isObject(body) || !Array.isArray(body.contents) || "tools" in body) return null;
  const contents = body.contents as Content[];
  const last = contents[contents.length - 1];
  if (!isObject(last) || last.role !== "user") return null;
  const instruction = textOf(last);
  if (instruction.length === 0 || !instruction.includes("<state_snapshot>")) return null;
  const system = isObject(body.systemInstruction) ? textOf(body.systemInstruction as Content) : "";
  const before = contents[contents.length - 2];
  const verification = isObject(before) && before.role === "model" && textOf(before).includes("<state_snapshot>");
  const history = verification ? contents.slice(0, -2) : contents.slice(0, -1);
  const slot = verification ? VERIFICATION_SLOT : holdsSnapshot(history) ? UPDATE_SNAPSHOT_SLOT : NEW_SNAPSHOT_SLOT;
  const slots: Record<string, string> = { [slot]: instruction };
  if (system.length > 0) slots[COMPRESSION_PROMPT_SLOT] = system;
  const sources: Record<string, string> = {};
  for (const key of Object.keys(slots)) sources[key] = source;
  return { values: { slots, sources }, focus: null, dataPart: contents.slice(0, -1) };
}
