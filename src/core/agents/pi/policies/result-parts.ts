// Pieces of a SimulationResult shared by the pi-family policies and reusable by others: rebuild
// lints as findings, user turn texts for CP-0-6.
import type { PiProfileId } from "../profile";
import { estimateMessageTokens } from "../estimate";
import type { AgentMessage } from "../../../model";
import { isText, textString } from "../../../text/text";
import type { Finding, SimulationContext } from "../../../simulate/types";

/** Texts of the user turns in turn N's context (quoted user turns, CP-0-6). */
export function userTurnTexts(context: SimulationContext): string[] {
  const out: string[] = [];
  for (const item of context.turnContext.messages) {
    if (item.message.role !== "user" || item.provenance.rule !== "entry") continue;
    const content = item.message.content;
    const text = isText(content) ? textString(content) : content.map((b) => (b.type === "text" ? textString(b.text) : "")).join("");
    if (text.trim().length >= 16) out.push(text);
  }
  return out;
}

/** The rebuild's lints (pi rules about the cut and the recorded entry) as findings. */
export function lintFindings(lints: readonly string[]): Finding[] {
  return lints.map((lint) => {
    if (lint.startsWith("previous summary discarded")) return { id: "previous-summary-discarded", severity: "warning", message: lint, location: null, ruleId: "PI-K29" };
    if (lint.startsWith("kept messages dropped without summary")) return { id: "dropped-without-summary", severity: "warning", message: lint, location: null, ruleId: "PI-K15" };
    return { id: "pi-rebuild-note", severity: "info", message: lint, location: null };
  });
}

export function sumMessageTokens(messages: readonly AgentMessage[], profile: PiProfileId): number {
  let total = 0;
  for (const message of messages) total += estimateMessageTokens(message, { profile });
  return total;
}
