// The prices feature's page-side surface: the top bar's cost, the (lazily loaded) prices panel and the session's cost.
export { LazyPricesPanel } from "./LazyPricesPanel";
export { SessionCostInfo } from "./SessionCostInfo";
export { installSessionPricesLoader, usePriceStore, useSessionCost, useWholeSessionCost } from "./pricesState";
