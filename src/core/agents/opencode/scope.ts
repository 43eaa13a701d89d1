// Which stored messages a request carries, in which order: opencode's `filterCompacted`
// before PR #11 (compaction-policies.md CP-OC-7; upstream behaviour, the recorded 1.18.33).
// Messages are walked newest → oldest; an assistant summary with a finish and no error marks its
// compaction user message as completed; reaching a completed compaction user message stops the
// walk, or, when its compaction part names a `tail_start_id`, the walk goes on until that message
// (the first recorded tail start wins: older compactions met on the way do not move it). Then the
// newest compaction pair is moved in front of its tail: [compaction user, summary] + tail +
// messages after the summary (CP-OC-24). Older pairs inside the tail are re-sent as they are
// (CP-OC-9). Linear in the number of messages before the turn.
import { compactionPartOf, isAssistantInfo, type OpencodeMessageRecord } from "./records";

export interface ModelScope {
  /** Indexes into the session's records, in the order they are sent. */
  indexes: number[];
  /** Index of the newest completed compaction user message in scope, or -1. */
  compactionIndex: number;
}

/** Model scope of the messages `records[0 .. end)` (the messages stored before the answer). */
export function modelScope(records: readonly OpencodeMessageRecord[], end: number): ModelScope {
  const newestFirst: number[] = [];
  const completed = new Set<string>();
  let stopAtId: string | null = null;
  let compactionIndex = -1;
  for (let i = end - 1; i >= 0; i--) {
    const record = records[i] as OpencodeMessageRecord;
    newestFirst.push(i);
    const info = record.info;
    if (isAssistantInfo(info) && info.summary === true && typeof info.finish === "string" && info.finish !== "" && !info.error && typeof info.parentID === "string") {
      completed.add(info.parentID);
    }
    if (stopAtId !== null) {
      if (info.id === stopAtId) break;
      continue;
    }
    const compaction = compactionPartOf(record);
    if (compaction && completed.has(info.id)) {
      compactionIndex = i;
      if (typeof compaction.tail_start_id !== "string" || compaction.tail_start_id === "") break;
      stopAtId = compaction.tail_start_id;
    }
  }
  const chronological = newestFirst.reverse();
  if (compactionIndex < 0 || stopAtId === null) return { indexes: chronological, compactionIndex };

  // Reorder: the pair first, then its tail (messages before the compaction user), then the rest.
  const compactionId = (records[compactionIndex] as OpencodeMessageRecord).info.id;
  const summaryPosition = chronological.findIndex((index) => {
    const info = (records[index] as OpencodeMessageRecord).info;
    return index > compactionIndex && isAssistantInfo(info) && info.summary === true && info.parentID === compactionId;
  });
  const tailStartPosition = chronological.findIndex((index) => (records[index] as OpencodeMessageRecord).info.id === stopAtId);
  const compactionPosition = chronological.indexOf(compactionIndex);
  if (summaryPosition < 0 || tailStartPosition < 0 || tailStartPosition > compactionPosition) {
    return { indexes: chronological, compactionIndex };
  }
  const tail = chronological.slice(tailStartPosition, compactionPosition);
  const between = chronological.slice(compactionPosition + 1, summaryPosition);
  const after = chronological.slice(summaryPosition + 1);
  const summaryIndex = chronological[summaryPosition] as number;
  return { indexes: [compactionIndex, summaryIndex, ...tail, ...between, ...after], compactionIndex };
}
