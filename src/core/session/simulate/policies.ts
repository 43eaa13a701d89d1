// The compaction policies the simulator can run: every agent's own policies, then those of the
// agents whose sessions are not read here (deepseek-harness). Looked up by id from the UI, the CLI
// and `replaySession`.
import { allAgents, policyOnlyAgents } from "../agents";
import type { CompactionPolicy } from "../../simulate/types";

export const POLICIES: readonly CompactionPolicy[] = [...allAgents(), ...policyOnlyAgents()].flatMap((agent) => agent.policies);

export const POLICY_IDS: readonly string[] = POLICIES.map((policy) => policy.id);

function findPolicy(id: string): CompactionPolicy | undefined {
  return POLICIES.find((policy) => policy.id === id);
}

/** The policy with this id; throws a clear error for an unknown id. */
export function getPolicy(id: string): CompactionPolicy {
  const found = findPolicy(id);
  if (found) return found;
  throw new Error(`unknown policy "${id}" (policies: ${POLICY_IDS.join(", ")})`);
}
