// A session's cost totals accumulated one prefix report at a time, for the commands that walk a
// session once and keep only totals (scan, compare, the thread tree): recorded, predicted and
// break cost, each with its status ("priced", "partly priced", "not priced"), never $0.00 for
// what could not be priced.
import type { PrefixTurnReport } from "../prefix/analyze";
import { costInputOfReport } from "./fromPrefix";
import type { ModelRefLike } from "./lookup";
import type { PriceStatus, PriceTable } from "./types";
import { sumPriced } from "./price";
import { turnCost } from "./turns";

/** One total as the JSON lines print it. */
export interface CostTotal {
  status: PriceStatus;
  /** Dollars over the turns that could be priced (a lower bound when partly priced); null when none could. */
  dollars: number | null;
}

export interface SessionCostTotals {
  recorded: CostTotal;
  predicted: CostTotal;
  /** What the session's prefix breaks re-billed; "priced" at $0 when it has no break. */
  breaks: CostTotal;
}

/** The total of a list of priced items; an empty list (no turn, no break) is an honest $0. */
function totalOf(items: readonly CostTotal[]): CostTotal {
  if (items.length === 0) return { status: "priced", dollars: 0 };
  const { status, dollars } = sumPriced(items);
  return { status, dollars };
}

export class SessionCostAccumulator {
  // Only status and dollars are kept per turn, so a long session costs a few numbers per turn.
  private readonly recorded: CostTotal[] = [];
  private readonly predicted: CostTotal[] = [];
  private readonly breaks: CostTotal[] = [];
  private previousTokens: number | null = null;

  constructor(private readonly table: PriceTable) {}

  /** Adds a turn's report, in turn order; `model` is the model the turn was sent to, `at` when. */
  add(report: PrefixTurnReport, model: ModelRefLike | null, at?: string | null): void {
    const cost = turnCost({ ...costInputOfReport(report, this.previousTokens, model), at }, this.table);
    this.previousTokens = report.tokens;
    this.recorded.push({ status: cost.recorded.status, dollars: cost.recorded.dollars });
    this.predicted.push({ status: cost.predicted.status, dollars: cost.predicted.dollars });
    if (cost.break) this.breaks.push({ status: cost.break.status, dollars: cost.break.dollars });
  }

  totals(): SessionCostTotals {
    return { recorded: totalOf(this.recorded), predicted: totalOf(this.predicted), breaks: totalOf(this.breaks) };
  }
}
