// The static list of compaction policies (no runtime registration). Each policy lives in its own
// folder and exports one `CompactionPolicy`; add a line here to make it reachable by id from the
// UI, the CLI and `replaySession`.
import { claudeCodePolicy } from "../agents/claude-code/policy/policy";
import { codexPolicy } from "../agents/codex/policy/policy";
import { deepseekHarnessPolicy } from "./deepseek/policy";
import { hermesPolicy } from "../agents/hermes/policy/policy";
import { opencodePolicy } from "../agents/opencode/policy/policy";
import { piPolicy } from "../agents/pi/policies/pi-policy";
import { senpiPolicy } from "../agents/pi/policies/senpi-policy";
import type { CompactionPolicy, PolicyId } from "./types";

export const POLICIES: readonly CompactionPolicy[] = [
  piPolicy,
  senpiPolicy,
  deepseekHarnessPolicy,
  hermesPolicy,
  opencodePolicy,
  claudeCodePolicy,
  codexPolicy,
];

/**
 * Policy ids the issue names whose policy is not implemented yet (none now: claude-code and codex
 * are inferred from the recordings, docs/compaction-policies/). Kept for the CLI's error path.
 */
export const UNSUPPORTED_POLICIES: Readonly<Partial<Record<PolicyId, string>>> = {};

export const POLICY_IDS: readonly PolicyId[] = ["pi", "senpi", "deepseek-harness", "hermes", "opencode", "claude-code", "codex"];

export function findPolicy(id: string): CompactionPolicy | undefined {
  return POLICIES.find((policy) => policy.id === id);
}

/** The policy with this id; throws a clear error for unknown and not-yet-supported ids. */
export function getPolicy(id: string): CompactionPolicy {
  const found = findPolicy(id);
  if (found) return found;
  const unsupported = UNSUPPORTED_POLICIES[id as PolicyId];
  if (unsupported) throw new Error(`policy "${id}": ${unsupported}`);
  if ((POLICY_IDS as readonly string[]).includes(id)) throw new Error(`policy "${id}" is not yet supported by the simulator`);
  throw new Error(`unknown policy "${id}" (policies: ${POLICIES.map((p) => p.id).join(", ")})`);
}
