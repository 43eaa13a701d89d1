// Rule ids of our spec (FM-CC-24, PI-K10, CP-OC-14, RL-19, …) mean nothing to a user reading a
// label. Explanations built by the pipeline still carry them, because a developer checking a
// rebuild needs them: this module takes them out of the visible text and keeps them in the
// tooltip, with the documentation page that states each rule.
import type { RuleDoc } from "../core/session/index";

// Two or three capitals, an optional family (CC, OC, 0), then the number, which may carry a
// letter (PI-K10, PI-R12). "UTF-8" and "ISO-8601" are not rules.
// An inferred rule carries INF before its number or name (CP-CC-INF-2, SE-INF-5, CP-0-INF-REPLAY).
export const RULE_ID = String.raw`(?!UTF-|ISO-)[A-Z]{2,3}(?:-(?:[A-Z]{2,3}|0))?-(?:INF(?:-[A-Z0-9]+)*|[A-Z]?\d+[a-z]?)`;
const RULE_ID_ANYWHERE = new RegExp(String.raw`\b(?:${RULE_ID})\b`, "g");
// A parenthesised list of rule ids ("(FM-CC-24)", "(CP-OC-16 … CP-OC-20)", "(rules RL-22, RL-23)").
const RULE_GROUP = new RegExp(String.raw`\s*\((?:rules? |see )?(?:${RULE_ID})(?:\s*(?:,|/|…|\.\.\.|and|to)\s*(?:${RULE_ID}))*\)`, "g");
// A rule id leading a label ("CP-0-5: system, tools …") or named in running text ("rule PI-R12").
const RULE_LEAD = new RegExp(String.raw`^(?:${RULE_ID}):\s*`);
const RULE_NAMED = new RegExp(String.raw`\s*\b(?:rules?|see)\s+(?:${RULE_ID})`, "g");
// Any other rule id, with the separator before it ("(opencode, CP-OC-8 / CP-OC-10)").
const RULE_LEFT = new RegExp(String.raw`(?:\s*(?:,|/|…|and)\s*|\s+)?\b(?:${RULE_ID})\b`, "g");

/**
 * Where each family of rules is written down for users (pages of the repository's docs/): each
 * agent's own families come from its descriptor, so the page holds none of them. The worker hands
 * the table over when it starts (`setRuleDocs`), before any session is open; until then a tooltip
 * names the rule without its page.
 */
let ruleDocs: readonly RuleDoc[] = [];

/** The rule families and their pages, as the worker lists them (src/core/session/ruleDocs.ts). */
export function setRuleDocs(rows: readonly RuleDoc[]): void {
  ruleDocs = rows;
}

/** The documentation page stating a rule (the longest matching family wins), or null for a family we do not document. */
export function ruleDocOf(ruleId: string): string | null {
  let best: RuleDoc | null = null;
  for (const row of ruleDocs) if (ruleId.startsWith(row.prefix) && row.prefix.length > (best?.prefix.length ?? -1)) best = row;
  return best?.doc ?? null;
}

/** The text without its rule ids, and the ids it named (in order, once each). */
export function withoutRuleIds(text: string): { text: string; ruleIds: string[] } {
  const ruleIds = [...new Set(text.match(RULE_ID_ANYWHERE) ?? [])];
  if (ruleIds.length === 0) return { text, ruleIds };
  const stripped = text.replace(RULE_GROUP, "").replace(RULE_LEAD, "").replace(RULE_NAMED, "").replace(RULE_LEFT, "");
  const tidy = stripped.replace(/\(\s*[,/]?\s*\)/g, "").replace(/\(\s*,\s*/g, "(").replace(/\s+\)/g, ")").replace(/\s+([.,;:])/g, "$1").trim();
  return { text: tidy, ruleIds };
}

/** "Spec rules: FM-CC-24 (docs/formats/claude-code.md)", for a tooltip; "" without rules. */
export function ruleTooltip(ruleIds: readonly string[]): string {
  if (ruleIds.length === 0) return "";
  const named = ruleIds.map((id) => {
    const doc = ruleDocOf(id);
    return doc ? `${id} (${doc})` : id;
  });
  return `Why: ${ruleIds.length === 1 ? "rule" : "rules"} ${named.join(", ")} of the Contextscope documentation.`;
}
