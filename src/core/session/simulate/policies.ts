// The compaction policies the simulator can run: every agent's own policies, then those of the
// agents whose sessions are not read here (deepseek-harness). Looked up by id from the UI, the CLI
// and `replaySession`.
import { allAgents, findAgent, policyOnlyAgents, sessionProfileOf } from "../agents";
import type { ProfileId, Session } from "../../model";
import type { CompactionPolicy } from "../../simulate/types";

export const POLICIES: readonly CompactionPolicy[] = [...allAgents(), ...policyOnlyAgents()].flatMap((agent) => agent.policies);

export const POLICY_IDS: readonly string[] = POLICIES.map((policy) => policy.id);

function findPolicy(id: string): CompactionPolicy | undefined {
  return POLICIES.find((policy) => policy.id === id);
}

/**
 * The policy the agent that wrote `session` compacts with: the one of its policies that runs its
 * pipeline profile (senpi on a pi file read with the senpi profile; with no profile named, the one
 * the file shows it was written with), else its first; null when the agent has no policy.
 */
export function sessionPolicy(session: Session, profile: ProfileId | undefined): CompactionPolicy | null {
  const policies = findAgent(session.formatId)?.policies ?? [];
  const runs = profile ?? sessionProfileOf(session);
  return policies.find((policy) => runs !== null && policy.pipelineProfile === runs) ?? policies[0] ?? null;
}

/** The policy with this id; throws a clear error for an unknown id. */
export function getPolicy(id: string): CompactionPolicy {
  const found = findPolicy(id);
  if (found) return found;
  throw new Error(`unknown policy "${id}" (policies: ${POLICY_IDS.join(", ")})`);
}
