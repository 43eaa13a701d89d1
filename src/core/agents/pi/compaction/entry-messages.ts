// The message a path entry contributes to a compaction (pi's `getMessageFromEntry` as used by
// compaction.ts). It differs from the projection (PI-P6) in two ways that matter here: a
// `branch_summary` with an empty summary still counts, and compaction entries inside the
// summarised range contribute nothing in the G2 generation (PI-K17).
import type { AgentMessage, SessionEntry } from "../../../model";
import { asObject } from "../../../util/is-object";
import { isText } from "../../../text/text";

function isoToEpoch(timestamp: string | null): number | undefined {
  if (!timestamp) return undefined;
  const ms = Date.parse(timestamp);
  return Number.isNaN(ms) ? undefined : ms;
}

/** The AgentMessage stored in a `message` entry, or null when the entry has none. */
function storedMessage(entry: SessionEntry): AgentMessage | null {
  if (entry.type !== "message") return null;
  const message = asObject(entry.raw.message);
  if (!message || typeof message.role !== "string") return null;
  return message as unknown as AgentMessage;
}

export interface EntryMessageOptions {
  /** Map `compaction` entries to their summary message (G1 ranges, usage estimates). */
  includeCompactions: boolean;
}

/** PI-F11: messages synthesised from entries take the entry's ISO timestamp as epoch ms. */
export function messageOfEntry(entry: SessionEntry, options: EntryMessageOptions): AgentMessage | null {
  const raw = entry.raw;
  switch (entry.type) {
    case "message":
      return storedMessage(entry);
    case "custom_message":
      return {
        role: "custom",
        customType: String(raw.customType ?? ""),
        content: (raw.content ?? "") as string,
        display: Boolean(raw.display),
        details: raw.details,
        timestamp: isoToEpoch(entry.timestamp),
      };
    case "branch_summary":
      return {
        role: "branchSummary",
        summary: isText(raw.summary) ? raw.summary : String(raw.summary ?? ""),
        fromId: String(raw.fromId ?? ""),
        timestamp: isoToEpoch(entry.timestamp),
      };
    case "compaction":
      if (!options.includeCompactions) return null;
      return {
        role: "compactionSummary",
        summary: isText(raw.summary) ? raw.summary : String(raw.summary ?? ""),
        tokensBefore: Number(raw.tokensBefore ?? 0),
        timestamp: isoToEpoch(entry.timestamp),
      };
    default:
      return null;
  }
}

/** Role of the message a `message` entry stores ("" when none). */
export function messageRole(entry: SessionEntry): string {
  return storedMessage(entry)?.role ?? "";
}
