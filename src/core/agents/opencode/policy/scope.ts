// opencode's `filterCompacted`: which stored rows are in the model scope, before and after PR #11's
// spiral brake (compaction-policies.md CP-OC-7 … CP-OC-13). Before: a summary with a finish and no
// error completes its compaction user message; reaching a completed compaction stops the
// newest → oldest scan (or, with a `tail_start_id`, goes on to the first recorded tail start), and
// failed summaries stay in scope. After: summary rows that are not completed (strict predicate by
// default) leave the scope, and so does their compaction user message when
// `dropOrphanCompactionUser` is on. Linear in the number of rows.
import { compactionPart, isSummaryRow, rowText, type OcMessage } from "./rows";

export type CompletedPredicate = "strict" | "any-finish";

export interface ScopeOptions {
  spiralBrake: boolean;
  /** CP-OC-11 [INF]: default `strict` with the brake on. */
  completedPredicate?: CompletedPredicate;
  /** CP-OC-12 [INF]: default true with the brake on. */
  dropOrphanCompactionUser?: boolean;
}

/** Before the PR: `summary && finish && !error` (CP-OC-7). */
export function isCompletedBefore(row: OcMessage): boolean {
  return isSummaryRow(row) && typeof row.info.finish === "string" && row.info.finish !== "" && !row.info.error;
}

/** CP-OC-11: `strict` = finish STOP, no error, non-blank text; `any-finish` = any finish. */
export function isCompletedSummary(row: OcMessage, predicate: CompletedPredicate): boolean {
  if (!isSummaryRow(row) || row.info.error) return false;
  if (rowText(row).trim() === "") return false;
  if (predicate === "strict") return row.info.finish === "stop";
  return typeof row.info.finish === "string" && row.info.finish !== "";
}

export interface ModelScope {
  /** Indices into the rows, in the order they are sent. */
  indexes: number[];
  /** Index of the newest completed compaction user message in scope, or -1. */
  compactionIndex: number;
  /** Rows left out of the scope by the brake (still stored, CP-OC-10). */
  excluded: { index: number; reason: string }[];
  /** Failed or unfinished summaries that stay in scope (before the PR, CP-OC-8). */
  failedInScope: number[];
}

/** Model scope of `rows[0 .. end)`. */
export function filterCompacted(rows: readonly OcMessage[], end: number, options: ScopeOptions): ModelScope {
  const predicate = options.completedPredicate ?? "strict";
  const dropOrphan = options.dropOrphanCompactionUser ?? true;
  const completed = (row: OcMessage) => (options.spiralBrake ? isCompletedSummary(row, predicate) : isCompletedBefore(row));
  const excluded: ModelScope["excluded"] = [];
  const excludedSet = new Set<number>();
  if (options.spiralBrake) {
    // CP-OC-10/12: failed summary rows leave the scope; their compaction user message too.
    const completedParents = new Set<string>();
    for (let i = 0; i < end; i++) {
      const row = rows[i] as OcMessage;
      if (completed(row) && row.info.parentID) completedParents.add(row.info.parentID);
    }
    for (let i = 0; i < end; i++) {
      const row = rows[i] as OcMessage;
      if (isSummaryRow(row) && !completed(row)) {
        excluded.push({ index: i, reason: "summary not completed (CP-OC-10)" });
        excludedSet.add(i);
      } else if (dropOrphan && compactionPart(row) && !completedParents.has(row.info.id)) {
        // The compaction now being processed (the last row) is not an orphan yet.
        const pendingNow = i === end - 1;
        if (!pendingNow && rows.slice(i + 1, end).some((later) => isSummaryRow(later) && later.info.parentID === row.info.id)) {
          excluded.push({ index: i, reason: "compaction user message of an excluded summary (CP-OC-12)" });
          excludedSet.add(i);
        }
      }
    }
  }
  const newestFirst: number[] = [];
  const completedIds = new Set<string>();
  let stopAtId: string | null = null;
  let compactionIndex = -1;
  for (let i = end - 1; i >= 0; i--) {
    if (excludedSet.has(i)) continue;
    const row = rows[i] as OcMessage;
    newestFirst.push(i);
    if (completed(row) && row.info.parentID) completedIds.add(row.info.parentID);
    if (stopAtId !== null) {
      if (row.info.id === stopAtId) break;
      continue;
    }
    const part = compactionPart(row);
    if (part && completedIds.has(row.info.id)) {
      compactionIndex = i;
      if (typeof part.tail_start_id !== "string" || part.tail_start_id === "") break;
      stopAtId = part.tail_start_id;
    }
  }
  const chronological = newestFirst.reverse();
  const failedInScope = chronological.filter((i) => {
    const row = rows[i] as OcMessage;
    return isSummaryRow(row) && (!isCompletedBefore(row) || rowText(row).trim() === "");
  });
  const result = (indexes: number[]): ModelScope => ({ indexes, compactionIndex, excluded, failedInScope });
  if (compactionIndex < 0 || stopAtId === null) return result(chronological);
  // CP-OC-7 reorder: [compaction user, summary] + tail (up to the compaction user) + the rest.
  const compactionId = (rows[compactionIndex] as OcMessage).info.id;
  const summaryAt = chronological.findIndex((i) => i > compactionIndex && completed(rows[i] as OcMessage) && (rows[i] as OcMessage).info.parentID === compactionId);
  const tailAt = chronological.findIndex((i) => (rows[i] as OcMessage).info.id === stopAtId);
  const compactionAt = chronological.indexOf(compactionIndex);
  if (summaryAt < 0 || tailAt < 0 || tailAt > compactionAt) return result(chronological);
  return result([
    compactionIndex,
    chronological[summaryAt] as number,
    ...chronological.slice(tailAt, compactionAt),
    ...chronological.slice(compactionAt + 1, summaryAt),
    ...chronological.slice(summaryAt + 1),
  ]);
}
