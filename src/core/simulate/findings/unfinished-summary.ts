// Finding "errored or unfinished summary still in scope" (CP-OC-8): a summary that
// failed (error stop, cut at the token cap, aborted, blank) but is still in the context the
// summariser or the next request reads, so each failed attempt enlarges the next one.
import type { ContextMessage } from "../../model";
import { isText, textString } from "../../text/text";
import type { Finding } from "../types";

export interface UnfinishedSummary {
  entryId: string | null;
  messageIndex: number;
  reason: string;
}

const FAILED_STOPS = new Set(["error", "aborted", "length"]);

function isSummaryProvenance(item: ContextMessage): boolean {
  return /summary/i.test(item.provenance.rule);
}

function text(item: ContextMessage): string {
  const content = item.message.content;
  if (isText(content)) return textString(content);
  return content.map((b) => (b.type === "text" ? textString(b.text) : "")).join("");
}

/**
 * Summary messages in a context that did not complete: assistant summaries with a failed stop
 * reason, and summary messages with blank text.
 */
export function detectUnfinishedSummaries(messages: readonly ContextMessage[]): UnfinishedSummary[] {
  const out: UnfinishedSummary[] = [];
  messages.forEach((item, messageIndex) => {
    if (!isSummaryProvenance(item)) return;
    const message = item.message;
    if (message.role === "assistant" && message.stopReason && FAILED_STOPS.has(message.stopReason)) {
      out.push({ entryId: item.provenance.entryId, messageIndex, reason: `stop reason "${message.stopReason}"` });
    } else if (text(item).trim() === "" || /<summary>\s*<\/summary>/.test(text(item))) {
      out.push({ entryId: item.provenance.entryId, messageIndex, reason: "blank summary text" });
    }
  });
  return out;
}

export function unfinishedSummaryFindings(found: readonly UnfinishedSummary[], where: string): Finding[] {
  return found.map((item) => ({
    id: "unfinished-summary-in-scope",
    severity: "error" as const,
    message: `an errored or unfinished summary (${item.reason}) is still in ${where}`,
    location: { messageIndex: item.messageIndex, ...(item.entryId ? { entryId: item.entryId } : {}) },
    ruleId: "CP-OC-8",
  }));
}
