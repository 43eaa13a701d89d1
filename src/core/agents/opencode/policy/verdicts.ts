// opencode's compaction verdicts (compaction-policies.md CP-OC-30 … CP-OC-33): the fork's
// executor comparison, the cycle guard before and after PR #11, and the error texts.

/** CP-OC-31: the fork's `CompactionExecutor` verdict. */
export function executorVerdict(before: number, after: number, budget: number): "no-reduction" | "post-compaction-over-budget" | "compacted" {
  if (after >= before) return "no-reduction";
  if (after > budget) return "post-compaction-over-budget";
  return "compacted";
}

/** CP-OC-31 planner limits. */
export const EXECUTOR_LIMITS = { summaryOutputTokens: 4096, reserveChars: 16384, maxChunks: 4, envelopeChars: 1024, toolOutputChars: 2000 } as const;

/** CP-OC-30: is the cycle guard armed after a completed compaction? */
function cycleGuardArmed(spiralBrake: boolean, fallbackModelConfigured: boolean): boolean {
  return spiralBrake || fallbackModelConfigured;
}

/** CP-OC-30: what happens when the rebuilt request after a completed compaction still says "compact". */
export function afterCompletedCompaction(spiralBrake: boolean, fallbackModelConfigured: boolean, stillCompact: boolean): "cycle-guard-stop" | "compact-again" | "continue" {
  if (!stillCompact) return "continue";
  return cycleGuardArmed(spiralBrake, fallbackModelConfigured) ? "cycle-guard-stop" : "compact-again";
}

/** CP-OC-33: existing error texts (type `ContextOverflowError`). */
export const OVERFLOW_ERRORS = {
  replaying: "Conversation history too large to compact - exceeds model context limit",
  media: "Session too large to compact - context exceeds model limit even after stripping media",
  shown: "Input exceeds context window of this model",
  unpublished: "message text not published",
} as const;
