// Prices in the pipeline worker: the session's calls and the dataset's rows; the page prices them
// under the user's edits.
import { listedPrices, sessionPrices } from "../../app/sessionPrices";
import { handlerKit, type HandlerTable } from "../../worker/handlers";
import type { SessionHost } from "../../worker/sessionHost";
import type { PricesMethods } from "./protocol";

export type { PricesMethods } from "./protocol";

export function pricesHandlers(host: SessionHost): HandlerTable<PricesMethods> {
  const { ofSession, sessionless } = handlerKit(host);
  return {
    // The page asks for the prices right after each analysis of the main thread: the one kept is
    // used, for analysing the session again held the worker (and the next step) as long as opening
    // did. Options that name no thread are the main thread's; a thread's analysis is not evicted.
    sessionPrices: ofSession({ stage: "pricing the session's calls" }, ({ options }, { session: opened }) => sessionPrices(opened, options, host.keptAnalysis(options))),
    listedPrices: sessionless({ stage: "listing the price dataset's models" }, () => listedPrices()),
  };
}
