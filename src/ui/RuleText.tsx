// Explanatory text shown as plain text with its rule ids moved to the tooltip (./ruleIds.ts).
import type { ReactNode } from "react";
import { ruleTooltip, withoutRuleIds } from "./ruleIds";

/** Explanatory text as plain text, its rule ids moved to the tooltip (joined to any given title). */
export function RuleText({ text, title, className }: { text: string; title?: string; className?: string }): ReactNode {
  const { text: shown, ruleIds } = withoutRuleIds(text);
  const tooltip = [title, ruleTooltip(ruleIds)].filter(Boolean).join("\n");
  return (
    <span className={className} title={tooltip || undefined} data-rules={ruleIds.length > 0 ? ruleIds.join(" ") : undefined}>
      {shown}
    </span>
  );
}
