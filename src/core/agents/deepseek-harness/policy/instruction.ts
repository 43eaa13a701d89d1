// deepseek-harness compaction instruction (CP-DH-10 … CP-DH-12) and checkpoint preamble
// (CP-DH-14) as slots: the harness's prose is data; the descriptions below are ours and follow
// the structure the spec names (opening sentence, output contract, eight sections, rules) for each
// instruction version.
import type { InstructionSlotSpec, InstructionSlotValues } from "../../../simulate/types";

export const DEEPSEEK_SECTIONS = [
  "## Primary Request and Intent",
  "## Key Technical Concepts",
  "## Files and Code",
  "## Errors and Fixes",
  "## Pending Jobs",
  "## Current Work",
  "## Next Step",
  "## Critical Context",
];

/** CP-DH-12: the classifier's opening words. */
export const COMPACTION_ENGINE_OPENING = "You are now acting as a compaction engine";

export type InstructionVersion = "v0" | "v1" | "v2";

const SECTIONS_TEXT = DEEPSEEK_SECTIONS.join(", ");

const DESCRIPTIONS: Record<InstructionVersion, string> = {
  v0: `(Opening: the model acts as a compaction engine condensing the conversation above into a structured checkpoint. Output contract: exact Markdown, every section present and in order, terse bullets, (none) for empty sections. Sections: ${SECTIONS_TEXT}. Rules: preserve exact paths, commands, errors, identifiers, signatures; capture user feedback faithfully; never mention summarisation; checkpoint text only, no tool calls; merge an existing <compacted-summary> as a prior checkpoint.)`,
  v1: `(Opening: the model acts as a compaction engine writing an English-language internal engineering checkpoint of the conversation above, translating narrative material as needed while preserving exact literals. Output contract and sections: ${SECTIONS_TEXT}. Rules as v0.)`,
  v2: `(Opening: the model acts as a compaction engine condensing the conversation above into a structured checkpoint. Output contract and sections: ${SECTIONS_TEXT}. First rule: concise English engineering prose with exact file paths, commands, error strings, identifiers, numeric values, function signatures and syntax fragments; then the v0 rules.)`,
};

export function deepseekInstructionSlot(version: InstructionVersion): InstructionSlotSpec {
  return { slot: `compactionInstruction.${version}`, label: `deepseek-harness COMPACTION_INSTRUCTION (${version})`, ruleId: "CP-DH-11", description: DESCRIPTIONS[version] };
}

export const CHECKPOINT_PREAMBLE_SLOT: InstructionSlotSpec = {
  slot: "checkpointPreamble",
  label: "deepseek-harness CHECKPOINT_PREAMBLE",
  ruleId: "CP-DH-14",
  description: "(Three sentences: this is an automatically generated checkpoint; treat it as established background; continue without acknowledging it.)",
};

export const DEEPSEEK_SLOTS: readonly InstructionSlotSpec[] = [
  deepseekInstructionSlot("v0"),
  deepseekInstructionSlot("v1"),
  deepseekInstructionSlot("v2"),
  CHECKPOINT_PREAMBLE_SLOT,
];

function hasSectionsInOrder(text: string): boolean {
  let from = 0;
  for (const heading of DEEPSEEK_SECTIONS) {
    const at = text.indexOf(heading, from);
    if (at < 0) return false;
    from = at + heading.length;
  }
  return true;
}

/**
 * CP-DH-12: a request is a compaction request iff its final user message starts with the opening
 * words (v0, v2; v1 assumed), or holds the eight sections in order. Also tells the version.
 */
export function classifyDeepseekRequest(finalUserText: string): { compaction: boolean; version: InstructionVersion | null } {
  const opening = finalUserText.startsWith(COMPACTION_ENGINE_OPENING);
  if (!opening && !hasSectionsInOrder(finalUserText)) return { compaction: false, version: null };
  const firstSentence = finalUserText.split(/(?<=\.)\s/)[0] ?? "";
  if (/English/.test(firstSentence)) return { compaction: true, version: "v1" };
  const rulesAt = finalUserText.indexOf("Rules:");
  const firstRule = rulesAt >= 0 ? (finalUserText.slice(rulesAt).split("\n").find((l) => /^\s*[-*\d]/.test(l)) ?? "") : "";
  return { compaction: true, version: /English/.test(firstRule) ? "v2" : "v0" };
}

/** The compaction instruction a captured summarisation request holds (its last user message), as slot values; null for any other request. */
export function capturedInstruction(body: unknown, source: string): InstructionSlotValues | null {
  const messages = (body as { messages?: unknown[] } | null)?.messages;
  const last = Array.isArray(messages) ? (messages[messages.length - 1] as { role?: string; content?: unknown }) : null;
  if (!last || last.role !== "user") return null;
  const text = typeof last.content === "string" ? last.content : Array.isArray(last.content) ? last.content.map((b) => String((b as { text?: string }).text ?? "")).join("") : "";
  const kind = classifyDeepseekRequest(text);
  if (!kind.compaction || !kind.version) return null;
  const slot = `compactionInstruction.${kind.version}`;
  return { slots: { [slot]: text }, sources: { [slot]: source } };
}
