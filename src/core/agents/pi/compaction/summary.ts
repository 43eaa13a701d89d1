// The stored compaction summary (PI-K29, PI-K30): history text (or `No prior history.` when a
// split turn has nothing before it), the turn-context section for a split turn, then the file
// lists. Used by the simulator and by the sample generator; recorded summaries are shown as stored.
import { formatFileLists, type FileLists } from "./file-operations";

/** History part used when a split turn has no history (PI-K29). */
export const NO_PRIOR_HISTORY = "No prior history.";
/** Separator between the history and the turn-prefix summary of a split turn (PI-K30). */
const SPLIT_TURN_SEPARATOR = "\n\n---\n\n**Turn Context (split turn):**\n\n";

export interface SummaryParts {
  /** Response text of the history request; null when it was not made (PI-K29). */
  historyText: string | null;
  /** Response text of the turn-prefix request; null when the turn was not split. */
  turnPrefixText: string | null;
  fileLists: FileLists;
}

export function assembleCompactionSummary(parts: SummaryParts): string {
  let summary = parts.historyText ?? NO_PRIOR_HISTORY;
  if (parts.turnPrefixText !== null) summary = `${summary}${SPLIT_TURN_SEPARATOR}${parts.turnPrefixText}`;
  return summary + formatFileLists(parts.fileLists);
}

/**
 * Splits a stored summary back into its parts (the inverse of `assembleCompactionSummary`), so
 * the UI can show what the summariser wrote apart from what pi appended.
 */
export function splitCompactionSummary(summary: string): { historyText: string; turnPrefixText: string | null; fileListText: string } {
  let body = summary;
  let fileListText = "";
  const fileListAt = body.search(/\n\n<(read|modified)-files>\n[\s\S]*<\/(read|modified)-files>$/);
  if (fileListAt >= 0) {
    fileListText = body.slice(fileListAt);
    body = body.slice(0, fileListAt);
  }
  const splitAt = body.indexOf(SPLIT_TURN_SEPARATOR);
  if (splitAt < 0) return { historyText: body, turnPrefixText: null, fileListText };
  return { historyText: body.slice(0, splitAt), turnPrefixText: body.slice(splitAt + SPLIT_TURN_SEPARATOR.length), fileListText };
}
