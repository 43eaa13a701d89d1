// The whole session's cost for the overview strip: the main thread's recorded usage (priced with
// the price table and the user's edits, ./prices.ts) plus each sub-agent thread's (priced in the
// worker with the built-in table, ThreadInfo.cost). This is a stand-in: the pricing module is
// getting a whole-session cost function (src/core/pricing), and this file is the one seam to
// switch to it — `wholeSessionCost` keeps its signature, its body becomes that call.
import { sumPriced, type PricedTotal } from "../core/pricing/index";
import type { ThreadInfo } from "../worker/protocol";

export interface WholeSessionCost {
  /** Main thread plus every sub-agent thread whose requests could be analysed. */
  total: PricedTotal;
  /** Sub-agent threads counted in the total. */
  threadsCounted: number;
  /** Sub-agent threads with turns whose cost is unknown (their requests could not be analysed). */
  threadsUnknown: number;
}

/** `main`: the main thread's recorded cost; `threads`: the session's sub-agent threads. */
export function wholeSessionCost(main: Pick<PricedTotal, "status" | "dollars">, threads: readonly ThreadInfo[]): WholeSessionCost {
  const withTurns = threads.filter((thread) => thread.turns > 0);
  const counted = withTurns.filter((thread) => thread.cost !== null);
  const total = sumPriced([main, ...counted.map((thread) => thread.cost!)]);
  return { total, threadsCounted: counted.length, threadsUnknown: withTurns.length - counted.length };
}
