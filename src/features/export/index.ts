// The export feature's page-side surface: the Export button (and its panel) a request view places.
export { ExportButton } from "./ExportPanel";
