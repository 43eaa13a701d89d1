// Finding "user-controlled text in system slot" (CP-0-6): a focus topic, custom instruction,
// automatic focus or quoted user turn that appears in a system-role part of the request.
import type { Finding, SimulatedSummariserRequest } from "../types";
import { systemSlotTexts } from "./body-text";

export function checkUserTextInSystemSlot(request: SimulatedSummariserRequest, requestIndex: number): Finding[] {
  const inputs = request.findingInputs;
  if (!inputs) return [];
  // Focus texts the user typed count at any length; quoted turns only from MIN_MATCH_CHARS on.
  const texts = inputs.userControlledTexts.filter((t) => t.trim().length > 0);
  const findings: Finding[] = [];
  for (const slot of systemSlotTexts(request.body)) {
    const found = texts.find((t) => t.trim().length >= 3 && slot.value.includes(t.trim()));
    if (found === undefined) continue;
    const at = slot.value.indexOf(found.trim());
    findings.push({
      id: "user-text-in-system-slot",
      severity: "error",
      message: `${request.role} request: user-controlled text (${JSON.stringify(found.trim().slice(0, 60))}) sits in the system slot ${slot.path}`,
      location: { request: requestIndex, path: slot.path, start: at, end: at + found.trim().length },
      ruleId: "CP-0-6",
    });
  }
  return findings;
}
