// The timeline feature's page-side surface: the timeline column.
export { Timeline } from "./Timeline";
