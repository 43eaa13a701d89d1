// A small "why" marker whose tooltip names the rule of our spec behind a label and the document
// that explains it, so labels stay in words and the rule id is one hover away. Text only.
export function WhyTip({ rule, doc = "docs/compaction-simulator.md", text }: { rule: string | null | undefined; doc?: string; text?: string }) {
  if (!rule) return null;
  return (
    <span className="why-tip muted" data-testid="why-tip" data-rule={rule} title={`${text ? `${text}\n` : ""}Rule ${rule}: see ${doc} in the Contextscope repository.`}>
      {" "}why?
    </span>
  );
}
