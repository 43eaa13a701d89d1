// The session's total in the top bar: the recorded usage priced with the price table (edits
// included), "partly priced" or "not priced" when a turn's model or a price is unknown; the title
// adds the predicted total and what prefix breaks cost. The button opens the price table.
import { formatPriced } from "../core/pricing/index";
import { setPricesOpen, useSessionCost } from "../state/prices";

export function SessionCostInfo() {
  const cost = useSessionCost();
  if (!cost) return null;
  const title = [
    `Recorded usage priced: ${formatPriced(cost.recorded)} (${cost.recorded.priced} turns priced, ${cost.recorded.partly} partly, ${cost.recorded.notPriced} not priced)`,
    `Predicted by the cache simulation: ${formatPriced(cost.predicted)}`,
    `Prefix breaks (tokens re-billed): ${formatPriced(cost.breaks)}`,
    "Click to see and edit the prices.",
  ].join("\n");
  return (
    <button
      type="button"
      className="btn small session-cost"
      data-testid="session-cost"
      data-status={cost.recorded.status}
      data-dollars={cost.recorded.dollars ?? ""}
      title={title} onClick={() => setPricesOpen(true)}>
      {formatPriced(cost.recorded)}
    </button>
  );
}
