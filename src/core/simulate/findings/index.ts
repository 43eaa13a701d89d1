// Findings on summariser requests: the checks every policy's requests go through.
import type { Finding, SimulatedSummariserRequest } from "../types";
import { checkEnglishRegister } from "./english-register";
import { checkSecrets } from "./secrets";
import { checkInstructionsShareMessage } from "./shared-message";
import { checkUserTextInSystemSlot } from "./system-slot";

export { checkEnglishRegister } from "./english-register";
export { checkSecrets } from "./secrets";
export { checkInstructionsShareMessage } from "./shared-message";
export { checkUserTextInSystemSlot } from "./system-slot";
export { checkToolPairsAcrossCut, type Side } from "./tool-pairs";
export { detectUnfinishedSummaries, unfinishedSummaryFindings } from "./unfinished-summary";

/** The request-level checks, on every summariser request of a result. */
export function checkSummariserRequests(requests: readonly SimulatedSummariserRequest[]): Finding[] {
  const findings: Finding[] = [];
  requests.forEach((request, index) => {
    findings.push(...checkInstructionsShareMessage(request, index));
    findings.push(...checkUserTextInSystemSlot(request, index));
    findings.push(...checkSecrets(request.body, index, `${request.role} request`));
    findings.push(...checkEnglishRegister(request, index));
  });
  return findings;
}
