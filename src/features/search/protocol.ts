// The search calls: one slice of a search, and one slice of building the index in the
// background. Types only.
import type { SearchPrepareParams, SearchPrepareResult, SearchStepParams, SearchStepResult } from "./searchService";


export interface SearchMethods {
  /** One slice of a session search: the hits found meanwhile. */
  searchStep: { params: SearchStepParams; result: SearchStepResult };
  /** One slice of building the search index in the background. */
  searchPrepare: { params: SearchPrepareParams; result: SearchPrepareResult };
}
