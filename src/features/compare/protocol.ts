// The compare view's calls: a second session (or another branch of this one) against the open
// session, its aligned pairs and their request diffs. Types only.
import type { PipelineOptions } from "../../core/model";
import type { PriceOverrides } from "../../core/pricing/index";
import type { OpenSource } from "../open/protocol";
import type { CompareAgainst, CompareOpened, ComparePairResult, CompareViewResult } from "./compareModel";


export interface CompareMethods {
  openCompare: { params: { source: OpenSource }; result: CompareOpened };
  /** `priceOverrides`: the user's price edits, so the totals' cost matches the main view's. */
  compareSessions: { params: { options: PipelineOptions; against: CompareAgainst; priceOverrides?: PriceOverrides }; result: CompareViewResult };
  comparePair: { params: { options: PipelineOptions; against: CompareAgainst; index: number }; result: ComparePairResult };
}
