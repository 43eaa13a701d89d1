// Finding "instructions sharing a message with turn content" (CP-HA-24 invariant 1):
// a message of the summariser request holds both an instruction text and turn content, so the
// model cannot tell the operator's instruction from the (untrusted) transcript by role.
import type { Finding, SimulatedSummariserRequest } from "../types";
import { bodyMessages } from "./body-text";

/** Turn texts shorter than this are ignored: a short turn ("ok") may occur in any prose. */
const MIN_MATCH_CHARS = 16;

export function checkInstructionsShareMessage(request: SimulatedSummariserRequest, requestIndex: number): Finding[] {
  const inputs = request.findingInputs;
  if (!inputs) return [];
  const instructions = inputs.instructionTexts.filter((t) => t.trim().length > 0);
  const turns = inputs.turnTexts.filter((t) => t.trim().length >= MIN_MATCH_CHARS);
  if (instructions.length === 0 || turns.length === 0) return [];
  const findings: Finding[] = [];
  for (const message of bodyMessages(request.body)) {
    const hasInstruction = instructions.some((t) => message.text.includes(t));
    const hasTurn = turns.some((t) => message.text.includes(t));
    if (hasInstruction && hasTurn) {
      findings.push({
        id: "instructions-share-message-with-turns",
        severity: "warning",
        message: `${request.role} request: ${message.path} (${message.role}) holds both the instruction and turn content; the model cannot tell them apart by role`,
        location: { request: requestIndex, path: message.path, messageIndex: message.index },
        ruleId: "CP-HA-24",
      });
    }
  }
  return findings;
}
