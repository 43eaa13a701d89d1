// pi's cut point (`findCutPoint`, PI-K8 … PI-K12): where a compaction stops summarising and
// starts keeping messages verbatim. Returns the walk table as well, so the UI and the tests can
// show why the cut landed where it did (§5.4 worked examples).
import type { PiProfileId } from "../profile";
import type { SessionEntry } from "../../../model";
import { estimateMessageTokens } from "../estimate";
import { messageOfEntry, messageRole } from "./entry-messages";

/** One step of the newest → oldest walk. */
interface CutWalkRow {
  /** Index in the path (root first). */
  index: number;
  entryId: string;
  /** 1-based line in the session file (0 when unknown). */
  line: number;
  type: string;
  /** Message role for `message` entries, else null. */
  role: string | null;
  /** Estimate added at this step, or null when the entry is not counted (PI-K10). */
  tokens: number | null;
  runningTotal: number;
  validCutPoint: boolean;
}

export interface CutPointResult {
  /** Path index of the first entry kept verbatim. */
  firstKeptEntryIndex: number;
  firstKeptEntryId: string | null;
  /** Path index of the user/bash message that starts the split turn, or -1. */
  turnStartIndex: number;
  isSplitTurn: boolean;
  /** Path index where the running total first reached the budget, or null when it never did. */
  budgetReachedAt: number | null;
  keepRecentTokens: number;
  /** Newest first, down to the row where the budget was reached (or `start`). */
  walk: CutWalkRow[];
  validCutPoints: number[];
  /** Entries the cut moved back over to keep them with the kept part (PI-K11). */
  movedOver: number[];
}

const PI_CUT_ROLES = new Set(["user", "assistant", "bashExecution", "custom", "branchSummary", "compactionSummary"]);
const PI_TURN_START_ROLES = new Set(["user", "bashExecution"]);
const SENPI_TURN_START_ROLES = new Set(["user", "bashExecution", "custom", "branchSummary", "compactionSummary"]);

/** The role of the context message an entry contributes in the senpi reading, or null. */
function senpiContextRole(entry: SessionEntry): string | null {
  if (entry.type === "compaction") return null;
  return messageOfEntry(entry, { includeCompactions: false })?.role ?? null;
}

/** PI-K8: may the kept part start at this entry? */
function isValidCutPoint(entry: SessionEntry, profile: PiProfileId): boolean {
  if (profile === "senpi") {
    const role = senpiContextRole(entry);
    return role !== null && PI_CUT_ROLES.has(role);
  }
  if (entry.type === "message") return PI_CUT_ROLES.has(messageRole(entry));
  return entry.type === "branch_summary" || entry.type === "custom_message";
}

export function findValidCutPoints(entries: readonly SessionEntry[], start: number, end: number, profile: PiProfileId): number[] {
  const points: number[] = [];
  for (let i = start; i < end; i++) if (isValidCutPoint(entries[i]!, profile)) points.push(i);
  return points;
}

/** PI-K12: does this entry start a turn? */
function startsTurn(entry: SessionEntry, profile: PiProfileId): boolean {
  if (profile === "senpi") {
    const role = senpiContextRole(entry);
    return role !== null && SENPI_TURN_START_ROLES.has(role);
  }
  if (entry.type === "branch_summary" || entry.type === "custom_message") return true;
  return entry.type === "message" && PI_TURN_START_ROLES.has(messageRole(entry));
}

/** Searches backwards from `index` down to `start` for the entry that starts the turn; -1 if none. */
export function findTurnStartIndex(entries: readonly SessionEntry[], index: number, start: number, profile: PiProfileId): number {
  for (let i = index; i >= start; i--) if (startsTurn(entries[i]!, profile)) return i;
  return -1;
}

/** PI-K10: the estimate the walk adds for an entry, or null when the profile does not count it. */
function walkEstimate(entry: SessionEntry, profile: PiProfileId): number | null {
  if (profile === "senpi") {
    const message = entry.type === "compaction" ? null : messageOfEntry(entry, { includeCompactions: false });
    if (!message) return null;
    const tokens = estimateMessageTokens(message, { profile });
    return tokens > 0 ? tokens : null;
  }
  // pi counts only `message` entries (custom_message / branch_summary sizes are ignored: a quirk
  // reproduced on purpose).
  if (entry.type !== "message") return null;
  const message = messageOfEntry(entry, { includeCompactions: false });
  return message ? estimateMessageTokens(message, { profile }) : null;
}

/** PI-K11: may the cut move back over this directly preceding entry? */
function crossable(entry: SessionEntry, profile: PiProfileId): boolean {
  if (entry.type === "message" || entry.type === "compaction") return false;
  if (profile === "senpi") {
    // senpi crosses only entries that contribute no context message.
    return messageOfEntry(entry, { includeCompactions: false }) === null;
  }
  return true;
}

/**
 * `findCutPoint(entries, start, end, keepRecentTokens)` over path entries `[start, end)`.
 * `entries` is the path, root first.
 */
export function findCutPoint(
  entries: readonly SessionEntry[],
  start: number,
  end: number,
  keepRecentTokens: number,
  profile: PiProfileId = "pi",
): CutPointResult {
  const validCutPoints = findValidCutPoints(entries, start, end, profile);
  const validSet = new Set(validCutPoints);
  const walk: CutWalkRow[] = [];
  const base = { keepRecentTokens, walk, validCutPoints };
  if (validCutPoints.length === 0) {
    // PI-K9: nothing valid → keep from start, not split.
    return {
      ...base,
      firstKeptEntryIndex: start,
      firstKeptEntryId: entries[start]?.id ?? null,
      turnStartIndex: -1,
      isSplitTurn: false,
      budgetReachedAt: null,
      movedOver: [],
    };
  }

  let cutIndex = validCutPoints[0]!;
  let total = 0;
  let budgetReachedAt: number | null = null;
  for (let i = end - 1; i >= start; i--) {
    const entry = entries[i]!;
    const tokens = walkEstimate(entry, profile);
    if (tokens !== null) total += tokens;
    walk.push({
      index: i,
      entryId: entry.id,
      line: entry.line,
      type: entry.type,
      role: entry.type === "message" ? messageRole(entry) : null,
      tokens,
      runningTotal: total,
      validCutPoint: validSet.has(i),
    });
    if (tokens !== null && total >= keepRecentTokens) {
      budgetReachedAt = i;
      const next = validCutPoints.find((c) => c >= i);
      if (next !== undefined) cutIndex = next;
      else if (profile === "senpi") cutIndex = validCutPoints[validCutPoints.length - 1]!;
      break;
    }
  }

  const movedOver: number[] = [];
  while (cutIndex > start && crossable(entries[cutIndex - 1]!, profile)) {
    cutIndex--;
    movedOver.push(cutIndex);
  }

  const cutEntry = entries[cutIndex]!;
  const startsAtTurn =
    profile === "senpi" ? startsTurn(cutEntry, profile) : cutEntry.type === "message" && messageRole(cutEntry) === "user";
  const turnStartIndex = startsAtTurn ? -1 : findTurnStartIndex(entries, cutIndex, start, profile);
  return {
    ...base,
    firstKeptEntryIndex: cutIndex,
    firstKeptEntryId: cutEntry.id,
    turnStartIndex,
    isSplitTurn: !startsAtTurn && turnStartIndex !== -1,
    budgetReachedAt,
    movedOver,
  };
}
