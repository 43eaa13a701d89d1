// The auxiliary-requests feature's page-side surface: its centre view, its timeline row and its details.
export { AuxiliaryDetails } from "./AuxiliaryDetails";
export { AuxiliaryRow } from "./AuxiliaryRow";
export { AuxiliaryView } from "./AuxiliaryView";
