// The details feature's page-side surface: the right-hand panel.
export { DetailsPanel } from "./DetailsPanel";
