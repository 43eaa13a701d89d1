// The compare feature's page-side surface: its top-bar button, its view and whether it is open.
export { CompareButton, CompareView } from "./CompareView";
export { useCompareStore } from "./compareState";
