// The "inferred" badge that spec/README.md requires on anything an [INF] rule produced: its
// tooltip names the rule id and the alternative reading we did not choose. Text only.
export interface InferredRuleLabel {
  ruleId: string;
  what: string;
  alternative: string;
}

export function inferredTooltip(rule: InferredRuleLabel): string {
  return `inferred (${rule.ruleId}): ${rule.what}${rule.alternative ? `\nalternative: ${rule.alternative}` : ""}`;
}

export function InferredBadge({ rule }: { rule: InferredRuleLabel }) {
  return (
    <span className="badge badge-inferred" data-testid="inferred-badge" data-rule={rule.ruleId} title={inferredTooltip(rule)}>
      inferred {rule.ruleId}
    </span>
  );
}
