// The compaction spiral (compaction-policies.md CP-OC-8, CP-OC-10, CP-OC-30, CP-OC-32): repeat
// failed compaction attempts and show whether the next request grows. Before PR #11 a failed
// summary and its compaction request stay in scope, so every attempt sends more than the last;
// with the spiral brake they leave the scope, the next attempt would be identical, and the run
// stops with the verdict `no-reduction`.
import type { SpiralAttempt, SpiralRunResult } from "../../../simulate/types";

export type { SpiralRunResult } from "../../../simulate/types";
import type { OcMessage } from "./rows";
import { compactionStep, nextRequestMessages, storedCompactionRows, type StepOptions } from "./step";
import { OVERFLOW_ERRORS } from "./verdicts";

export interface SpiralInput extends StepOptions {
  /** Rows stored before the first attempt (the overflowing history). */
  rows: readonly OcMessage[];
  /** Text a failed attempt leaves on its summary row (partial output; "" = blank). */
  failedSummaryText?: string;
}

function messagesTokens(rows: readonly OcMessage[], input: SpiralInput): number {
  return Math.ceil(JSON.stringify(nextRequestMessages(rows, input).messages).length / 4);
}

/**
 * Runs up to `attempts` failed compaction attempts. "Grows" compares the main request after an
 * attempt with the one before it (the first attempt with the history as it was): that request is
 * what overflows again and triggers the next attempt (CP-OC-4).
 */
export function spiralRun(input: SpiralInput, attempts: number): SpiralRunResult {
  let rows = [...input.rows];
  const out: SpiralAttempt[] = [];
  const initialTokens = messagesTokens(rows, input);
  let before = initialTokens;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const step = compactionStep(rows, input);
    const stored = storedCompactionRows({
      auto: true,
      overflow: true,
      tailStartId: step.tail.tailStartId,
      summaryText: input.failedSummaryText ?? "",
      failed: { message: OVERFLOW_ERRORS.replaying },
    });
    rows = [...rows, stored.compactionUser, stored.summary];
    const next = nextRequestMessages(rows, input);
    const nextTokens = Math.ceil(JSON.stringify(next.messages).length / 4);
    const grew = nextTokens > before;
    out.push({
      attempt,
      summariserRequestTokens: step.requestTokens,
      conversationChars: step.input.conversation.length,
      nextMainRequestTokens: nextTokens,
      grew,
      excludedRows: next.scope.excluded.length,
      failedSummariesInScope: next.scope.failedInScope.length,
    });
    if (!grew) {
      return {
        attempts: out,
        verdict: "no-reduction",
        message: `attempt ${attempt} failed and the next request stays at ${nextTokens} tokens: the failed summary is out of scope (CP-OC-10), a retry would send the same request, so the compaction fails terminally instead of looping (CP-OC-32; ${OVERFLOW_ERRORS.unpublished}, CP-OC-33)`,
        ruleId: input.spiralBrake ? "CP-OC-32" : "CP-OC-8",
      };
    }
    before = nextTokens;
  }
  const last = out[out.length - 1];
  return {
    attempts: out,
    verdict: "failed",
    message: `spiral: every failed attempt stays in scope (CP-OC-8); the next request grew from ${initialTokens} to ${last?.nextMainRequestTokens ?? initialTokens} tokens over ${out.length} attempts and the loop goes on (${OVERFLOW_ERRORS.shown})`,
    ruleId: "CP-OC-8",
  };
}
