// Instruction slots: a policy's fixed instruction texts are other projects' prose,
// so they are data. A slot is filled from a captured summariser request; otherwise it holds our
// own short description of the template, behind a visible marker, and the request says so.
import type { InstructionSlotSpec, InstructionSlotUse, InstructionSlotValues } from "./types";

/** Opening of every described (not captured) slot, so the text cannot pass for the agent's own. */
export const DESCRIBED_SLOT_MARKER = "[contextscope: instruction not captured";

export function describedSlotText(spec: InstructionSlotSpec): string {
  return `${DESCRIBED_SLOT_MARKER} — "${spec.label}" is described here by Contextscope (${spec.ruleId}); attach a captured summariser request to use the real text]\n${spec.description}`;
}

export interface FilledSlot {
  text: string;
  use: InstructionSlotUse;
  captured: boolean;
}

export function fillSlot(spec: InstructionSlotSpec, values: InstructionSlotValues | undefined): FilledSlot {
  const captured = values?.slots[spec.slot];
  if (captured !== undefined) {
    const source = values?.sources?.[spec.slot];
    return { text: captured, captured: true, use: { slot: spec.slot, filledFrom: "captured", ...(source ? { source } : {}) } };
  }
  return { text: describedSlotText(spec), captured: false, use: { slot: spec.slot, filledFrom: "description" } };
}

/** Later values fill the slots earlier ones left empty (first value of a slot wins). */
export function mergeSlotValues(...all: (InstructionSlotValues | null | undefined)[]): InstructionSlotValues {
  const slots: Record<string, string> = {};
  const sources: Record<string, string> = {};
  for (const item of all) {
    if (!item) continue;
    for (const [slot, text] of Object.entries(item.slots)) {
      if (slot in slots) continue;
      slots[slot] = text;
      const source = item.sources?.[slot];
      if (source) sources[slot] = source;
    }
  }
  return { slots, sources };
}
