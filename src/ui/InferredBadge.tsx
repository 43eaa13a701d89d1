// The "inferred" badge on anything a rule we inferred produced (where the agent's source and its
// recordings are silent or ambiguous and we chose): its label says so in words; its tooltip says what
// was inferred, the other reading we did not choose, and the rule id with its documentation page.
// Several such rules behind one result are one badge, not a row of identical chips. Text only.
import { ruleTooltip } from "./ruleIds";
import { inWords, plural } from "./words";

export interface InferredRuleLabel {
  ruleId: string;
  what: string;
  alternative: string;
}

/** The word every inferred badge starts with; what it means is the tooltip's first line. */
const INFERRED_WORDS = "inferred";

export function inferredTooltip(rule: InferredRuleLabel): string {
  return (
    `${INFERRED_WORDS}: ${inWords(rule.what)} (our choice where the agent's source and its recordings are silent or ambiguous).` +
    `${rule.alternative ? `\nThe other reading: ${inWords(rule.alternative)}.` : ""}\n${ruleTooltip([rule.ruleId])}`
  );
}

export function InferredBadge({ rule }: { rule: InferredRuleLabel }) {
  return (
    <span className="badge badge-inferred" data-testid="inferred-badge" data-rule={rule.ruleId} title={inferredTooltip(rule)}>
      {INFERRED_WORDS}
    </span>
  );
}

/** One badge for the inferred rules a result depends on, their ids and pages in its tooltip. */
export function InferredRulesBadge({ ruleIds, what }: { ruleIds: readonly string[]; what: string }) {
  if (ruleIds.length === 0) return null;
  return (
    <span
      className="badge badge-inferred"
      data-testid="inferred-badge"
      data-rules={ruleIds.join(" ")}
      title={`${INFERRED_WORDS} (${plural(ruleIds.length, "rule")}): ${what}\nThese rules are our choice where the agent's source and its recordings are silent or ambiguous; a parameter above changes each where the reading is open.\n${ruleTooltip(ruleIds)}`}
    >
      {`${INFERRED_WORDS} (${plural(ruleIds.length, "rule")})`}
    </span>
  );
}
