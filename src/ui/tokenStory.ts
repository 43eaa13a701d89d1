// One token story per turn, told with the same words everywhere (timeline row, Details, Diff,
// Tokens tab): what the provider billed (recorded usage), what the rebuilt request counts (exact
// or estimate, saying which), and what the file does not hold (system prompt and tools, inferred
// from recorded usage). Each figure has one label and one explanation, kept here.
import type { TurnSummary } from "../core/model";
import type { PrefixRow } from "../features/prefix/protocol";
import { formatCompact, formatInt } from "./format";

export interface TurnTokenStory {
  /** Prompt tokens the provider billed: uncached input + cache read + cache write; null when not recorded. */
  billed: number | null;
  cacheRead: number | null;
  cacheWrite: number | null;
  uncached: number | null;
  output: number | null;
  /** Tokens of the request rebuilt from the file, and whether the count is exact. */
  rebuilt: number;
  rebuiltExact: boolean;
  /** How `rebuilt` was counted, in words. */
  rebuiltCounter: string;
  /** What the file does not hold, inferred from recorded usage, and the turn whose usage gave it. */
  notInFile: number | null;
  notInFileFromTurn: number | null;
  /** Cached tokens the cache simulation predicts (counting the part not in the file). */
  predictedCached: number | null;
}

/** The turn's prefix row, if computed (rows are in turn order; a branch's turns count from 1). */
export function prefixRowOf(rows: readonly PrefixRow[] | null, turn: number): PrefixRow | null {
  if (!rows) return null;
  const direct = rows[turn - 1];
  return direct?.turn === turn ? direct : (rows.find((row) => row.turn === turn) ?? null);
}

/**
 * The figures of one turn. `prefix` is the turn's prefix row once computed: its count replaces the
 * characters ÷ 4 estimate of the turn summary.
 */
export function turnTokenStory(summary: TurnSummary, prefix: PrefixRow | null): TurnTokenStory {
  const usage = summary.usage;
  const counted = prefix !== null;
  return {
    billed: usage ? usage.input + usage.cacheRead + usage.cacheWrite : null,
    cacheRead: usage?.cacheRead ?? null,
    cacheWrite: usage?.cacheWrite ?? null,
    uncached: usage?.input ?? null,
    output: usage?.output ?? null,
    rebuilt: counted ? prefix.tokens : summary.estimatedTokens,
    rebuiltExact: counted && prefix.tokensExact,
    rebuiltCounter: counted ? prefix.counterLabel : "estimate (chars/4)",
    notInFile: prefix?.unrecordedTokens ?? null,
    notInFileFromTurn: prefix?.unrecordedFromTurn ?? null,
    predictedCached: prefix?.predictedCachedTokens ?? null,
  };
}

export const TOKEN_LABELS = {
  billed: "billed prompt",
  output: "output",
  rebuilt: "rebuilt request",
  notInFile: "not in the file",
  predictedCached: "predicted from cache",
} as const;

export function billedTitle(story: TurnTokenStory): string {
  if (story.billed === null) return "The session file recorded no usage for this call.";
  return (
    `Input tokens the provider billed for this request, as the session file recorded them: ` +
    `${formatInt(story.uncached ?? 0)} not cached + ${formatInt(story.cacheRead ?? 0)} read from cache + ${formatInt(story.cacheWrite ?? 0)} written to cache.`
  );
}

export function rebuiltTitle(story: TurnTokenStory): string {
  return (
    `The request this app rebuilt from the session file, counted ${story.rebuiltExact ? "exactly" : "as an estimate"} (${story.rebuiltCounter}). ` +
    `It leaves out what the file does not hold.`
  );
}

export function notInFileTitle(story: TurnTokenStory): string {
  if (story.notInFile === null) return "";
  return (
    `The system prompt and tool definitions are not in the session file. Their size is inferred from the recorded usage of turn ${story.notInFileFromTurn}: ` +
    `billed prompt minus rebuilt request. It is sized again after a compaction or a model change.`
  );
}

export function predictedCachedTitle(story: TurnTokenStory): string {
  const recorded = story.cacheRead === null ? "" : ` The provider recorded ${formatInt(story.cacheRead)} read from cache.`;
  return `What the provider's prompt cache should have served, simulated from the requests' shared prefix${story.notInFile !== null ? " (counting the part not in the file)" : ""}.${recorded}`;
}

/**
 * "≈ 32.7k tokens not in the file: system prompt and tools, inferred from recorded usage"; for a
 * file that starts mid-session, that the missing part is the earlier conversation.
 */
export function notInFileSentence(tokens: number, startsMidSession = false): string {
  if (startsMidSession) return `this file starts mid-session: ≈ ${formatCompact(tokens)} tokens of earlier conversation are not in it (with the system prompt and tools), inferred from recorded usage`;
  return `≈ ${formatCompact(tokens)} tokens not in the file: system prompt and tools, inferred from recorded usage`;
}

/** The rebuilt count as shown: exact counts plain, estimates with "~". */
export function rebuiltFigure(story: TurnTokenStory, compact = false): string {
  const figure = compact ? formatCompact(story.rebuilt) : formatInt(story.rebuilt);
  return story.rebuiltExact ? figure : `~${figure}`;
}
