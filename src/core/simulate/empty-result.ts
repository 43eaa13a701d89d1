// The skeleton of a simulation result with only the trigger filled in: the early exits of every
// policy (nothing to compact, and the trigger-only runs settings inference makes after each turn).
import { simulationResult, tokenSummary } from "./result";
import { makeVerdict } from "./verdict";
import type { CompactionPolicy, SimulationContext, SimulationInput, SimulationResult, TriggerDecision } from "./types";

export function emptyResultParts(policy: CompactionPolicy, input: SimulationInput, context: SimulationContext, trigger: TriggerDecision): SimulationResult {
  return simulationResult(policy, input, context, {
    trigger,
    partition: { kept: [], summarised: [], pruned: [], droppedWithoutSummary: [], details: {} },
    summariserRequests: [],
    after: { summary: null, messages: [], request: null, prefixBreak: null, followingTurns: [], storedRecord: null },
    verdict: makeVerdict(policy, "nothing-to-compact", `${policy.rulePrefix}`),
    tokens: tokenSummary("chars/4", 0, 0, 0),
    findings: [],
    inferred: ["CP-0-1", "CP-0-2", "CP-0-3", "CP-0-4"],
  });
}
