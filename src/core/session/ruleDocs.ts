// Where each family of rule ids is written down for users, for the tooltips that name a rule: the
// agents' own families from their descriptors (`AgentDescriptor.ruleDocs`), then the families of
// the framework's shared rules (formats in general, the simulator's common contract, reply-language
// notes, prefix stability). Plain data: the worker hands it to the page once.
import type { RuleDoc } from "../agents/descriptor";
import { allAgents, policyOnlyAgents } from "./agents";

/** The rule families no single agent owns. */
const FRAMEWORK_RULE_DOCS: readonly RuleDoc[] = [
  { prefix: "FM-", doc: "docs/formats.md" },
  { prefix: "CP-", doc: "docs/compaction-simulator.md" },
  { prefix: "RL-", doc: "docs/reply-language.md" },
  { prefix: "PR-", doc: "docs/prefix-stability.md" },
  { prefix: "PD-", doc: "docs/prefix-stability.md" },
  { prefix: "CA-", doc: "docs/prefix-stability.md" },
  { prefix: "TK-", doc: "docs/prefix-stability.md" },
];

/** Every rule family with its page: the agents' first, then the framework's (a lookup takes the longest matching prefix). */
export function ruleDocs(): RuleDoc[] {
  const agents = [...allAgents(), ...policyOnlyAgents()];
  return [...agents.flatMap((agent) => agent.ruleDocs), ...FRAMEWORK_RULE_DOCS].map((row) => ({ ...row }));
}
