// Claude Code's session events: `system` entries that are not sent to the model and are not a
// compaction — the stop-hook summary, a turn's duration, a local slash command's output, an API
// error notice, … — and the assistant messages Claude Code writes itself without a request (model
// `<synthetic>`: "No response requested.", an API error text). They are part of the conversation
// tree and shown with the turn they follow, never as warnings and never as turns.
import type { SessionEntry } from "../../model";
import type { SessionEvent } from "../../pipeline/types";
import { isObject } from "../../util/is-object";
import { isText, textString } from "../../text/text";
import { contentBlocks, entryMessage, isSyntheticAssistant, stringField } from "./records";

const LABEL_CHARS = 120;

function short(text: string): string {
  const oneLine = text.replace(/<[^>]{1,40}>/g, " ").replace(/\s+/g, " ").trim();
  return oneLine.length > LABEL_CHARS ? `${oneLine.slice(0, LABEL_CHARS - 1)}…` : oneLine;
}

function seconds(ms: unknown): string {
  return typeof ms === "number" && Number.isFinite(ms) ? `${(ms / 1000).toFixed(1)} s` : "unknown time";
}

function labelOf(raw: Record<string, unknown>, subtype: string): string {
  switch (subtype) {
    case "stop_hook_summary": {
      const count = typeof raw.hookCount === "number" ? raw.hookCount : Array.isArray(raw.hookInfos) ? raw.hookInfos.length : 0;
      const errors = Array.isArray(raw.hookErrors) ? raw.hookErrors.length : 0;
      return `stop hooks ran: ${count}${errors > 0 ? `, ${errors} failed` : ""}${raw.preventedContinuation === true ? ", the turn was stopped" : ""}`;
    }
    case "turn_duration":
      return `the turn took ${seconds(raw.durationMs)}`;
    case "local_command":
      return `local command: ${short(stringField(raw, "content") ?? "")}`;
    default: {
      const content = stringField(raw, "content") ?? (isObject(raw.error) ? stringField(raw.error, "message") : null);
      return `${subtype.replace(/_/g, " ")}${content ? `: ${short(content)}` : ""}`;
    }
  }
}

function syntheticText(entry: SessionEntry): string {
  return contentBlocks(entryMessage(entry)?.content)
    .map((block) => (isObject(block) && isText(block.text) ? textString(block.text) : ""))
    .join(" ");
}

/** The event a `system` entry or a synthetic assistant message records, or null for any other entry. */
export function sessionEventOf(entry: SessionEntry, afterTurn: number | null): SessionEvent | null {
  if (isSyntheticAssistant(entry)) {
    const text = short(syntheticText(entry));
    const refused = entry.raw.isApiErrorMessage === true;
    // An error text with the provider's request id answers a request the provider refused (a rate limit): a call without an answer.
    const what = refused && typeof entry.raw.requestId === "string" ? `a request the provider refused (${entry.raw.requestId}), no answer` : "no request sent";
    const kind = refused ? "api error message" : "synthetic reply";
    return { entryId: entry.id, line: entry.line, kind, label: `Claude Code's own reply, ${what}${text ? `: ${text}` : ""}`, afterTurn, timestamp: entry.timestamp };
  }
  if (entry.type !== "system") return null;
  const subtype = stringField(entry.raw, "subtype") ?? "system";
  return { entryId: entry.id, line: entry.line, kind: subtype, label: labelOf(entry.raw, subtype), afterTurn, timestamp: entry.timestamp };
}
