// The request feature's page-side surface: the Request view, the lazy request editor and legend other
// views embed, and the model facts of the details panel.
export { LazyRequestEditor } from "./LazyRequestEditor";
export { ModelFacts } from "./ModelFacts";
export { RequestLegend } from "./RequestLegend";
export { RequestView } from "./RequestView";
