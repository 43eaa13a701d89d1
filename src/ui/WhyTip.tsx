// A small "why" marker whose tooltip names the rule of our spec behind a label and the document
// that states it (the rule family's page, ./ruleIds.ts), so labels stay in words and the rule id
// is one hover away. Text only.
import { ruleDocOf } from "./ruleIds";

export function WhyTip({ rule, doc, text }: { rule: string | null | undefined; doc?: string; text?: string }) {
  if (!rule) return null;
  const page = doc ?? ruleDocOf(rule) ?? "docs/compaction-simulator.md";
  return (
    <span className="why-tip muted" data-testid="why-tip" data-rule={rule} data-doc={page} title={`${text ? `${text}\n` : ""}Rule ${rule}: see ${page} in the Contextscope repository.`}>
      {" "}why?
    </span>
  );
}
