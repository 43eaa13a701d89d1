// The search feature's page-side surface: the panel, opening and closing it, and its state.
export { SearchPanel } from "./SearchPanel";
export { closeSearch, installSearchReset, openSearch, useSearchStore, type SearchState } from "./searchState";
