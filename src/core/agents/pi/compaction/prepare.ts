// pi's `prepareCompaction` (PI-K13 … PI-K19): from the path at the moment of compaction to the
// boundary, the cut, the message ranges to summarise, the previous summary and the file
// operations. Pure; the rebuild (rebuild.ts) turns the result into summariser requests.
import type { PiProfileId } from "../profile";
import type { AgentMessage, SessionEntry } from "../../../model";
import { findCutPoint, findTurnStartIndex, type CutPointResult } from "./cut-point";
import { messageOfEntry, messageRole } from "./entry-messages";
import {
  collectFileOperations,
  computeFileLists,
  emptyFileOperations,
  inheritFileOperations,
  type FileLists,
  type FileOperations,
} from "./file-operations";
import type { CompactionSettings } from "./settings";
import { isText, textString } from "../../../text/text";

/**
 * PI-K15 boundary generations. G1: right after the previous compaction entry (badlogic/pi-mono
 * until early 2026). G2: the previous compaction's first kept entry (earendil-works/pi, senpi,
 * pi 0.73.1). Default G2, as the fixtures confirm.
 */
export type BoundaryRule = "G1" | "G2";
export const DEFAULT_BOUNDARY_RULE: BoundaryRule = "G2";

export interface PrepareOptions {
  profile: PiProfileId;
  boundaryRule?: BoundaryRule;
  /**
   * Use this entry as the cut instead of the computed one (recorded compactions store it).
   * When it is not on the path inside the boundary, the computed cut is used and a lint says so.
   */
  recordedFirstKeptEntryId?: string | null;
}

/** A path range, as indices (root first) plus the ids and lines at both ends for display. */
interface EntryRange {
  start: number;
  /** Exclusive. */
  end: number;
  entryIds: string[];
  lines: number[];
}

export interface CompactionPreparation {
  boundaryRule: BoundaryRule;
  /** Path index of the previous compaction entry, or -1. */
  previousCompactionIndex: number;
  previousCompactionId: string | null;
  boundaryStart: number;
  /** Path length: the compaction is appended after the last path entry. */
  end: number;
  /** findCutPoint over [boundaryStart, end), always computed (PI-K8 … PI-K12). */
  computedCut: CutPointResult;
  /** The cut actually used: the recorded one when given and usable, else the computed one. */
  firstKeptEntryIndex: number;
  firstKeptEntryId: string | null;
  cutSource: "recorded" | "computed";
  isSplitTurn: boolean;
  turnStartIndex: number;
  /** PI-K17: turnStartIndex for a split turn, else firstKeptEntryIndex. */
  historyEnd: number;
  summarized: EntryRange;
  turnPrefix: EntryRange | null;
  messagesToSummarize: AgentMessage[];
  turnPrefixMessages: AgentMessage[];
  /** PI-K14. */
  previousSummary: string | null;
  fileOperations: FileOperations;
  fileLists: FileLists;
  /** G1 only: entries the previous compaction kept that fall out of context unsummarised. */
  droppedWithoutSummary: EntryRange | null;
  lints: string[];
}

function range(entries: readonly SessionEntry[], start: number, end: number): EntryRange {
  const slice = entries.slice(start, Math.max(start, end));
  return { start, end: Math.max(start, end), entryIds: slice.map((e) => e.id), lines: slice.map((e) => e.line) };
}

function messagesOf(entries: readonly SessionEntry[], start: number, end: number): AgentMessage[] {
  const out: AgentMessage[] = [];
  // Compaction entries inside the range contribute nothing (PI-K17, G2).
  for (let i = start; i < end; i++) {
    const message = messageOfEntry(entries[i]!, { includeCompactions: false });
    if (message) out.push(message);
  }
  return out;
}

function lastCompactionIndex(entries: readonly SessionEntry[]): number {
  for (let i = entries.length - 1; i >= 0; i--) if (entries[i]!.type === "compaction") return i;
  return -1;
}

/** PI-K15: where the summarised range may start. */
function findBoundaryStart(entries: readonly SessionEntry[], previousCompactionIndex: number, rule: BoundaryRule): number {
  if (previousCompactionIndex < 0) return 0;
  if (rule === "G2") {
    const keptId = entries[previousCompactionIndex]!.raw.firstKeptEntryId;
    const keptIndex = entries.findIndex((e) => e.id === keptId);
    if (keptIndex >= 0 && keptIndex < previousCompactionIndex) return keptIndex;
  }
  return previousCompactionIndex + 1;
}

/**
 * `pathEntries` is the path at the moment of compaction (root first, ending at the entry the
 * compaction was appended to). Returns null when pi would refuse (PI-K13: the path already ends
 * with a compaction, or is empty).
 */
export function prepareCompaction(
  pathEntries: readonly SessionEntry[],
  settings: CompactionSettings,
  options: PrepareOptions,
): CompactionPreparation | null {
  const end = pathEntries.length;
  if (end === 0 || pathEntries[end - 1]!.type === "compaction") return null;
  const profile = options.profile;
  const boundaryRule = options.boundaryRule ?? DEFAULT_BOUNDARY_RULE;
  const lints: string[] = [];

  const previousCompactionIndex = lastCompactionIndex(pathEntries);
  const previous = previousCompactionIndex >= 0 ? pathEntries[previousCompactionIndex]! : null;
  const boundaryStart = findBoundaryStart(pathEntries, previousCompactionIndex, boundaryRule);
  const computedCut = findCutPoint(pathEntries, boundaryStart, end, settings.keepRecentTokens, profile);

  let firstKeptEntryIndex = computedCut.firstKeptEntryIndex;
  let cutSource: "recorded" | "computed" = "computed";
  if (options.recordedFirstKeptEntryId != null) {
    const recordedIndex = pathEntries.findIndex((e) => e.id === options.recordedFirstKeptEntryId);
    if (recordedIndex >= boundaryStart && recordedIndex < end) {
      firstKeptEntryIndex = recordedIndex;
      cutSource = "recorded";
      if (recordedIndex !== computedCut.firstKeptEntryIndex) {
        lints.push(
          `recorded firstKeptEntryId ${options.recordedFirstKeptEntryId} differs from the computed cut ` +
            `${computedCut.firstKeptEntryId ?? "(none)"} with keepRecentTokens ${settings.keepRecentTokens} (PI-K10)`,
        );
      }
    } else {
      lints.push(
        `recorded firstKeptEntryId ${options.recordedFirstKeptEntryId} is not on the path inside the ${boundaryRule} boundary; ` +
          `using the computed cut (PI-K15)`,
      );
    }
  }

  // PI-K12 for the cut in use (recomputed when the recorded cut differs from ours).
  let turnStartIndex = computedCut.turnStartIndex;
  let isSplitTurn = computedCut.isSplitTurn;
  if (firstKeptEntryIndex !== computedCut.firstKeptEntryIndex) {
    const cutEntry = pathEntries[firstKeptEntryIndex]!;
    const isUser = cutEntry.type === "message" && messageRole(cutEntry) === "user";
    turnStartIndex = isUser ? -1 : findTurnStartIndex(pathEntries, firstKeptEntryIndex, boundaryStart, profile);
    isSplitTurn = !isUser && turnStartIndex !== -1;
  }

  const historyEnd = isSplitTurn ? turnStartIndex : firstKeptEntryIndex;
  const messagesToSummarize = messagesOf(pathEntries, boundaryStart, historyEnd);
  const turnPrefixMessages = isSplitTurn ? messagesOf(pathEntries, turnStartIndex, firstKeptEntryIndex) : [];

  // The previous summary goes into the summariser's prompt, a string built by concatenation.
  const previousSummary = previous && isText(previous.raw.summary) ? textString(previous.raw.summary) : null;

  // PI-K19: previous details (unless from a hook), the summarised messages, the turn prefix.
  const fileOperations = emptyFileOperations();
  if (previous && previous.raw.fromHook !== true) inheritFileOperations(previous.raw.details, fileOperations);
  for (const message of messagesToSummarize) collectFileOperations(message, fileOperations, profile);
  for (const message of turnPrefixMessages) collectFileOperations(message, fileOperations, profile);

  let droppedWithoutSummary: EntryRange | null = null;
  if (boundaryRule === "G1" && previous) {
    const g2Start = findBoundaryStart(pathEntries, previousCompactionIndex, "G2");
    if (g2Start < previousCompactionIndex && messagesOf(pathEntries, g2Start, previousCompactionIndex).length > 0) {
      droppedWithoutSummary = range(pathEntries, g2Start, previousCompactionIndex);
      lints.push(
        `kept messages dropped without summary: entries ${droppedWithoutSummary.entryIds[0]} … ` +
          `${droppedWithoutSummary.entryIds[droppedWithoutSummary.entryIds.length - 1]} were kept by the previous ` +
          `compaction and are neither summarised nor kept now (PI-K15 G1)`,
      );
    }
  }

  return {
    boundaryRule,
    previousCompactionIndex,
    previousCompactionId: previous?.id ?? null,
    boundaryStart,
    end,
    computedCut,
    firstKeptEntryIndex,
    firstKeptEntryId: pathEntries[firstKeptEntryIndex]?.id ?? null,
    cutSource,
    isSplitTurn,
    turnStartIndex,
    historyEnd,
    summarized: range(pathEntries, boundaryStart, historyEnd),
    turnPrefix: isSplitTurn ? range(pathEntries, turnStartIndex, firstKeptEntryIndex) : null,
    messagesToSummarize,
    turnPrefixMessages,
    previousSummary,
    fileOperations,
    fileLists: computeFileLists(fileOperations),
    droppedWithoutSummary,
    lints,
  };
}
