// Search in the pipeline worker: the index of the session shown (or thread), built in slices in
// the background, and searches over it in slices.
import { handlerKit, type HandlerTable } from "../../worker/handlers";
import type { SessionHost, SessionSlot } from "../../worker/sessionHost";
import type { SearchMethods } from "./protocol";
import { SearchService } from "./searchService";

export type { SearchMethods } from "./protocol";

const SEARCH: SessionSlot<SearchService> = { make: (target) => new SearchService(target) };

export function searchHandlers(host: SessionHost): HandlerTable<SearchMethods> {
  const { ofSession } = handlerKit(host);
  return {
    searchStep: ofSession({ stage: "searching the session" }, (params, { target }) => host.serviceFor(SEARCH, target).step(params)),
    searchPrepare: ofSession({ stage: "indexing the session for search", background: true }, (params, { target }) => host.serviceFor(SEARCH, target).prepare(params)),
  };
}
