// The price calls: every thread's calls with the dataset's rows for their models, and the rows
// the price panel lists. Types only.
import type { PipelineOptions } from "../../core/model";
import type { PriceDatasetInfo, PriceRow } from "../../core/pricing/index";
import type { SessionPricesResult } from "../../app/sessionPrices";

export interface PricesMethods {
  /** Every thread's calls (model, time, usage) and the price dataset's rows for their models. */
  sessionPrices: { params: { options: PipelineOptions }; result: SessionPricesResult };
  /** The price dataset's rows of the providers agents usually call, for the price panel. */
  listedPrices: { params: Record<string, never>; result: { dataset: PriceDatasetInfo; rows: PriceRow[] } };
}
