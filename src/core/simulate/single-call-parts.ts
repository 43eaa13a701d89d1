// Building blocks shared by the one-summariser-call policies (claude-code, codex, opencode): a
// partition range over entry ids, the slot use of a captured request field, the verdict of a
// "compact unless nothing or not triggered" policy and the after-compaction block (CP-0-2 (4)).
// Kept here so the policies assemble their results the same way.
import type { ApiId, ContextMessage } from "../model";
import { findPrefixBreak } from "./prefix";
import type { AfterCompaction, InstructionSlotUse, InstructionSlotValues, PartitionRange, SimulatedSummary, TriggerDecision, Verdict } from "./types";

/** A partition range described by entry ids and a token count (no message lines). */
export function entryRange(kind: PartitionRange["kind"], start: number | null, end: number | null, entryIds: string[], tokens: number, label: string, ruleId: string): PartitionRange {
  return { kind, messageStart: start, messageEnd: end, entryIds, lines: [], tokens, label, ruleId };
}

/** How a request field taken from a captured request (or left to its description) was filled. */
export function capturedFieldUse(instructions: InstructionSlotValues | null | undefined, slot: string, value: string | null): InstructionSlotUse {
  if (value === null) return { slot, filledFrom: "description" };
  const source = instructions?.sources?.[slot];
  return { slot, filledFrom: "captured", ...(source ? { source } : {}) };
}

/**
 * Verdict of a policy that compacts whenever asked: nothing to compact when the history is empty,
 * not triggered for an automatic compaction under the threshold, compacted otherwise.
 */
export function compactOrSkipVerdict(nothingToCompact: boolean, manual: boolean, trigger: TriggerDecision, rules: { compacted: string; nothingToCompact: string }): { verdict: Verdict; ruleId: string } {
  if (nothingToCompact) return { verdict: "nothing-to-compact", ruleId: rules.nothingToCompact };
  if (!manual && !trigger.result) return { verdict: "not-triggered", ruleId: trigger.ruleId };
  return { verdict: "compacted", ruleId: rules.compacted };
}

/** The after-compaction block: the rebuilt next request and where it breaks turn N's prefix. */
export function afterCompaction(parts: {
  summary: SimulatedSummary;
  messages: ContextMessage[];
  api: ApiId;
  turnBody: Record<string, unknown>;
  body: Record<string, unknown>;
  breakReason: string;
  storedRecord: Record<string, unknown>;
}): AfterCompaction {
  return {
    summary: parts.summary,
    messages: parts.messages,
    request: { api: parts.api, body: parts.body },
    prefixBreak: findPrefixBreak(parts.turnBody, parts.body, parts.breakReason),
    followingTurns: [],
    storedRecord: parts.storedRecord,
  };
}
