// The compaction policies the simulator can run: every agent's own policies (from the agent
// registry) and the ones that have no agent of their own here (deepseek-harness). Looked up by id
// from the UI, the CLI and `replaySession`.
import { AGENTS } from "../agents/registry";
import { deepseekHarnessPolicy } from "./deepseek/policy";
import type { CompactionPolicy } from "./types";

/** Policies of tools Contextscope reads no sessions of. */
const POLICIES_WITHOUT_AGENT: readonly CompactionPolicy[] = [deepseekHarnessPolicy];

export const POLICIES: readonly CompactionPolicy[] = [...AGENTS.flatMap((agent) => agent.policies), ...POLICIES_WITHOUT_AGENT];

export const POLICY_IDS: readonly string[] = POLICIES.map((policy) => policy.id);

export function findPolicy(id: string): CompactionPolicy | undefined {
  return POLICIES.find((policy) => policy.id === id);
}

/** The policy with this id; throws a clear error for an unknown id. */
export function getPolicy(id: string): CompactionPolicy {
  const found = findPolicy(id);
  if (found) return found;
  throw new Error(`unknown policy "${id}" (policies: ${POLICY_IDS.join(", ")})`);
}
