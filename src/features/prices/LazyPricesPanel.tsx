// The cost panel is code-split: its chunk loads the first time the panel opens, so the page's
// entry chunk does not carry it.
import { lazy, Suspense } from "react";
import { usePriceStore } from "./pricesState";

const PricesPanel = lazy(() => import("./PricesPanel").then((module) => ({ default: module.PricesPanel })));

export function LazyPricesPanel() {
  const open = usePriceStore((state) => state.open);
  if (!open) return null;
  return (
    <Suspense fallback={<div className="prices-panel muted" data-testid="prices-panel-loading">Loading prices…</div>}>
      <PricesPanel />
    </Suspense>
  );
}
