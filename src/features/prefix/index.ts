// The prefix feature's page-side surface: the Diff and Tokens views, the lazy diff editor other views
// embed, and the composition chart's loader and state.
export { DiffView } from "./DiffView";
export { LazyDiffEditor } from "./LazyDiffEditor";
export { TokensView } from "./TokensView";
export { installCompositionLoader, reloadComposition, useCompositionStore, type CompositionState } from "./compositionState";
