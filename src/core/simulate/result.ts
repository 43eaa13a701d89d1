// The one place a policy's SimulationResult is put together (CP-0-2, in its order). Every policy's
// `simulate` reads as trigger → partition → summarise → after → verdict and hands its parts here;
// what is the same for every policy (its id, the turn, the parameters and limits the framework
// resolved) is filled in once, and the tokens saved are always before − after.
import type {
  CompactionPolicy,
  SimulationContext,
  SimulationInput,
  SimulationResult,
  TokenSummary,
} from "./types";

/** What a policy decided at one turn: the result without the fields every policy fills alike. */
export type PolicyOutcome = Omit<SimulationResult, "policyId" | "turn" | "parameters" | "limits">;

export function simulationResult(policy: Pick<CompactionPolicy, "id">, input: Pick<SimulationInput, "turn">, context: Pick<SimulationContext, "parameters" | "limits">, outcome: PolicyOutcome): SimulationResult {
  return {
    policyId: policy.id,
    turn: input.turn,
    parameters: context.parameters,
    limits: context.limits,
    trigger: outcome.trigger,
    partition: outcome.partition,
    summariserRequests: outcome.summariserRequests,
    after: outcome.after,
    verdict: outcome.verdict,
    tokens: outcome.tokens,
    findings: outcome.findings,
    inferred: outcome.inferred,
  };
}

/** Tokens before and after in the policy's estimate; saved is their difference. */
export function tokenSummary(estimator: string, before: number, after: number, summariserInput: number): TokenSummary {
  return { estimator, before, after, saved: before - after, summariserInput };
}
