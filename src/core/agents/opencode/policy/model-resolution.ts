// opencode's model resolution precedence for a prompt (compaction-policies.md CP-OC-27 … CP-OC-29),
// before and after PR #11. The resolved model's context window is the one the overflow gate uses.

export interface ModelCandidates<M> {
  /** A model given with the prompt (`input.model`). */
  explicit?: M | null;
  /** The session row's model. */
  sessionRow?: M | null;
  /** The newest user message carrying a model. */
  newestUser?: M | null;
  /** The agent's configured model. */
  agentDefault?: M | null;
  /** `provider.defaultModel()` (never empty). */
  providerDefault: M;
}

export interface ResolvedModel<M> {
  model: M;
  source: "explicit" | "session-row" | "newest-user-message" | "agent-default" | "provider-default";
  /** Whether opencode writes the resolved model to the session (`setAgentModel`). */
  persisted: boolean;
  ruleId: string;
}

/** CP-OC-27 (brake off) / CP-OC-28 (brake on). */
export function resolveOpencodeModel<M>(candidates: ModelCandidates<M>, spiralBrake: boolean): ResolvedModel<M> {
  const { explicit, sessionRow, newestUser, agentDefault, providerDefault } = candidates;
  if (explicit) return { model: explicit, source: "explicit", persisted: true, ruleId: spiralBrake ? "CP-OC-28" : "CP-OC-27" };
  if (!spiralBrake) {
    if (agentDefault) return { model: agentDefault, source: "agent-default", persisted: true, ruleId: "CP-OC-27" };
    if (sessionRow) return { model: sessionRow, source: "session-row", persisted: true, ruleId: "CP-OC-27" };
    if (newestUser) return { model: newestUser, source: "newest-user-message", persisted: true, ruleId: "CP-OC-27" };
    return { model: providerDefault, source: "provider-default", persisted: true, ruleId: "CP-OC-27" };
  }
  if (sessionRow) return { model: sessionRow, source: "session-row", persisted: false, ruleId: "CP-OC-28" };
  if (newestUser) return { model: newestUser, source: "newest-user-message", persisted: false, ruleId: "CP-OC-28" };
  if (agentDefault) return { model: agentDefault, source: "agent-default", persisted: false, ruleId: "CP-OC-28" };
  return { model: providerDefault, source: "provider-default", persisted: false, ruleId: "CP-OC-28" };
}
