// The "inferred" badge that spec/README.md requires on anything an [INF] rule produced: its
// label says in words what was inferred; its tooltip names the other reading we did not choose and
// the rule id with its documentation page. Text only.
import { ruleTooltip } from "./ruleIds";

export interface InferredRuleLabel {
  ruleId: string;
  what: string;
  alternative: string;
}

export function inferredTooltip(rule: InferredRuleLabel): string {
  return (
    `Inferred: ${rule.what}.\nOur reading of the agent's source, not confirmed by a recording.` +
    `${rule.alternative ? `\nThe other reading: ${rule.alternative}.` : ""}\n${ruleTooltip([rule.ruleId])}`
  );
}

export function InferredBadge({ rule }: { rule: InferredRuleLabel }) {
  return (
    <span className="badge badge-inferred" data-testid="inferred-badge" data-rule={rule.ruleId} title={inferredTooltip(rule)}>
      inferred: {rule.what}
    </span>
  );
}
