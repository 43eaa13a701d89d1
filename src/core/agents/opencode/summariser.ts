// The input of a recorded opencode compaction (compaction-policies.md CP-OC-16, CP-OC-20): the
// model-scope messages before the compaction's tail start, without completed compaction pairs
// (CP-OC-13), serialised as `[User]: …`, `[Assistant]: …`, `[Assistant tool call]: name(json)`,
// `[Tool result]: …` (capped at 2000 chars + `\n[truncated]`), one message's lines joined with
// `\n`, messages with `\n\n`; and the prior summary (the newest completed summary before it).
// The summariser's system prompt and template instructions are opencode's fixed texts, not
// stored in the session: the rebuilt request marks them "not recorded".
import { PRUNED_TOOL_OUTPUT_TEXT } from "./convert";
import { assistantText, compactionPartOf, isSummaryMessage, isUserInfo, type OpencodeMessageRecord } from "./records";
import { modelScope } from "./scope";

/** CP-OC-16: tool output cap in the summariser input. */
const SUMMARISER_TOOL_OUTPUT_CAP = 2000;

function capped(text: string): string {
  return text.length > SUMMARISER_TOOL_OUTPUT_CAP ? `${text.slice(0, SUMMARISER_TOOL_OUTPUT_CAP)}\n[truncated]` : text;
}

/** Lines one stored message contributes to the summariser input (CP-OC-16). */
function serializeForSummariser(record: OpencodeMessageRecord): string[] {
  const lines: string[] = [];
  if (isUserInfo(record.info)) {
    const texts = record.parts.filter((part) => part.type === "text" && typeof part.text === "string" && part.ignored !== true).map((part) => part.text as string);
    if (texts.length > 0) lines.push(`[User]: ${texts.join("\n")}`);
    for (const part of record.parts) {
      if (part.type === "file") lines.push(`[Attached ${String(part.mime ?? "file")}: ${String(part.filename ?? part.url ?? "")}]`);
    }
    return lines;
  }
  for (const part of record.parts) {
    if (part.type === "text" && typeof part.text === "string") lines.push(`[Assistant]: ${part.text}`);
    else if (part.type === "reasoning" && typeof part.text === "string") lines.push(`[Assistant reasoning]: ${part.text}`);
    else if (part.type === "tool" && typeof part.tool === "string") {
      const state = part.state ?? {};
      lines.push(`[Assistant tool call]: ${part.tool}(${JSON.stringify(state.input ?? {})})`);
      if (state.status === "completed") {
        lines.push(state.time?.compacted !== undefined ? PRUNED_TOOL_OUTPUT_TEXT : `[Tool result]: ${capped(typeof state.output === "string" ? state.output : "")}`);
      } else if (state.status === "error") {
        lines.push(`[Tool error]: ${typeof state.error === "string" ? state.error : ""}`);
      }
    }
  }
  return lines;
}

function isCompletedSummary(record: OpencodeMessageRecord): boolean {
  return isSummaryMessage(record) && typeof record.info.finish === "string" && record.info.finish !== "" && !record.info.error;
}

export interface SummariserInput {
  /** The text inside `<conversation>` … `</conversation>`. */
  conversation: string;
  /** The prior summary (CP-OC-20), or null for a first compaction. */
  priorSummary: string | null;
  /** Ids of the messages serialised, in order. */
  messageIds: string[];
}

/** The summariser input of the compaction whose user message is `records[compactionIndex]`. */
export function summariserInput(records: readonly OpencodeMessageRecord[], compactionIndex: number): SummariserInput {
  const compaction = records[compactionIndex] as OpencodeMessageRecord;
  const tailStart = compactionPartOf(compaction)?.tail_start_id;
  const scope = modelScope(records, compactionIndex).indexes;
  const cut = typeof tailStart === "string" ? scope.findIndex((i) => (records[i] as OpencodeMessageRecord).info.id === tailStart) : -1;
  const before = cut >= 0 ? scope.slice(0, cut) : scope;
  // Completed compaction pairs are hidden from the input (CP-OC-13); the newest gives the prior summary.
  const completedParents = new Set<string>();
  let priorSummary: string | null = null;
  for (const i of scope) {
    const record = records[i] as OpencodeMessageRecord;
    if (isCompletedSummary(record) && typeof record.info.parentID === "string") {
      completedParents.add(record.info.parentID);
      priorSummary = assistantText(record);
    }
  }
  const kept = before.filter((i) => {
    const record = records[i] as OpencodeMessageRecord;
    if (isCompletedSummary(record)) return false;
    return !(compactionPartOf(record) && completedParents.has(record.info.id));
  });
  const blocks: string[] = [];
  const messageIds: string[] = [];
  for (const i of kept) {
    const record = records[i] as OpencodeMessageRecord;
    const lines = serializeForSummariser(record);
    if (lines.length === 0) continue;
    blocks.push(lines.join("\n"));
    messageIds.push(record.info.id);
  }
  return { conversation: blocks.join("\n\n"), priorSummary, messageIds };
}
