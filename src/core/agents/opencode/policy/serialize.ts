// The summariser input of opencode (compaction-policies.md CP-OC-13, CP-OC-16): the model-scope
// rows before the tail start, without completed compaction pairs, serialised one stored message
// at a time (`[User]: …`, `[Assistant]: …`, `[Assistant tool call]: name(json)`,
// `[Tool result]: …` capped at 2000 chars + `\n[truncated]`), lines joined with `\n`, messages
// with `\n\n`; the prior summary is the newest completed pair's text.
import { COMPACTION_PROMPT, compactionPart, isSummaryRow, rowText, type OcMessage } from "./rows";

const TOOL_OUTPUT_CAP = 2000;
export const PRUNED_OUTPUT = "[Old tool result content cleared]";

function capped(text: string): string {
  return text.length > TOOL_OUTPUT_CAP ? `${text.slice(0, TOOL_OUTPUT_CAP)}\n[truncated]` : text;
}

/** Lines one stored message contributes (CP-OC-16). */
function serializeRow(row: OcMessage): string[] {
  const lines: string[] = [];
  if (row.info.role === "user") {
    const texts = row.parts.filter((p) => p.type === "text" && typeof p.text === "string" && p.ignored !== true).map((p) => p.text as string);
    // A compaction user message left in scope (a failed attempt before the brake) is rendered as
    // the text it is sent as. [INF: OC-INF-COMPACTION-LINE]
    if (compactionPart(row)) texts.push(COMPACTION_PROMPT);
    if (texts.length > 0) lines.push(`[User]: ${texts.join("\n")}`);
    for (const part of row.parts) if (part.type === "file") lines.push(`[Attached ${part.mime ?? "file"}: ${part.filename ?? part.url ?? ""}]`);
    return lines;
  }
  for (const part of row.parts) {
    if (part.type === "text" && typeof part.text === "string") lines.push(`[Assistant]: ${part.text}`);
    else if (part.type === "reasoning" && typeof part.text === "string") lines.push(`[Assistant reasoning]: ${part.text}`);
    else if (part.type === "tool" && typeof part.tool === "string") {
      const state = part.state ?? {};
      lines.push(`[Assistant tool call]: ${part.tool}(${JSON.stringify(state.input ?? {})})`);
      if (state.status === "completed") lines.push(state.time?.compacted !== undefined ? PRUNED_OUTPUT : `[Tool result]: ${capped(state.output ?? "")}`);
      else if (state.status === "error") lines.push(`[Tool error]: ${state.error ?? ""}`);
    }
  }
  return lines;
}

export interface SummariserInput {
  conversation: string;
  priorSummary: string | null;
  /** Row indices serialised, in order. */
  rowIndexes: number[];
}

/**
 * CP-OC-13/16: `scope` (row indices in send order) cut at `tailAt` (position in `scope`; -1 = no
 * tail), completed pairs hidden, the newest completed summary as the prior summary.
 */
export function summariserInput(rows: readonly OcMessage[], scope: readonly number[], tailAt: number, isCompleted: (row: OcMessage) => boolean): SummariserInput {
  const before = tailAt >= 0 ? scope.slice(0, tailAt) : scope;
  const completedParents = new Set<string>();
  let priorSummary: string | null = null;
  for (const i of scope) {
    const row = rows[i] as OcMessage;
    if (isSummaryRow(row) && isCompleted(row) && row.info.parentID) {
      completedParents.add(row.info.parentID);
      priorSummary = rowText(row);
    }
  }
  const blocks: string[] = [];
  const rowIndexes: number[] = [];
  for (const i of before) {
    const row = rows[i] as OcMessage;
    if (isSummaryRow(row) && isCompleted(row)) continue;
    if (compactionPart(row) && completedParents.has(row.info.id)) continue;
    const lines = serializeRow(row);
    if (lines.length === 0) continue;
    blocks.push(lines.join("\n"));
    rowIndexes.push(i);
  }
  return { conversation: blocks.join("\n\n"), priorSummary, rowIndexes };
}
