// The session's cost in the top bar: the whole session's recorded usage — the main thread and
// every sub-agent thread — priced with the price dataset under the user's edits; "partly priced"
// or "not priced" (naming the model) when a model has no price. The title breaks it down by thread
// and adds the shown thread's predicted total and what its prefix breaks cost. The button opens the
// cost panel (src/features/prices/PricesPanel.tsx).
import { formatPriced } from "../../core/pricing/index";
import { setPricesOpen, useSessionCost, useWholeSessionCost } from "./pricesState";

export function SessionCostInfo() {
  const whole = useWholeSessionCost();
  const shown = useSessionCost();
  if (!whole) return null;
  const subAgents = whole.threads.length - 1;
  const lines = [
    subAgents > 0
      ? `Whole session, ${subAgents} sub-agent thread${subAgents === 1 ? "" : "s"} included: ${formatPriced(whole.total)}`
      : `Recorded usage priced: ${formatPriced(whole.total)}`,
  ];
  if (subAgents > 0) for (const thread of whole.threads) lines.push(`  ${thread.label}: ${formatPriced(thread.recorded)} (${thread.turns} calls)`);
  if (whole.unpricedModels.length > 0) lines.push(`Not in the price dataset: ${whole.unpricedModels.join(", ")}`);
  if (shown) {
    lines.push(`Thread shown — predicted by the cache simulation: ${formatPriced(shown.predicted)}; prefix breaks (tokens re-billed): ${formatPriced(shown.breaks)}`);
  }
  lines.push("Click to see the cost by thread and edit the prices.");
  const unpriced = whole.total.status === "not priced" && whole.unpricedModels.length > 0 ? `not priced: ${whole.unpricedModels[0]}` : null;
  // A file that records no usage at all has nothing to price: say so rather than "$0".
  const noUsage = whole.calls > 0 && whole.callsWithUsage === 0;
  if (noUsage) lines.unshift(`None of the ${whole.calls} provider calls records its token usage in this file: there is nothing to price.`);
  return (
    <button
      type="button"
      className="btn small session-cost"
      data-testid="session-cost"
      data-status={noUsage ? "no usage" : whole.total.status}
      data-dollars={whole.total.dollars ?? ""}
      data-threads={whole.threads.length}
      title={[noUsage ? "no usage recorded" : (unpriced ?? formatPriced(whole.total)), ...lines].join("\n")}
      onClick={() => setPricesOpen(true)}>
      {noUsage ? "no usage recorded" : (unpriced ?? formatPriced(whole.total))}
      {subAgents > 0 && !noUsage && whole.total.dollars !== null && <span className="muted session-cost-threads"> · {subAgents + 1} threads</span>}
    </button>
  );
}
