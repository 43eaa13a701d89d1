// The overview feature's page-side surface: the top bar's session facts and the Overview view.
export { SessionInfo } from "./SessionInfo";
export { SessionOverview } from "./SessionOverview";
