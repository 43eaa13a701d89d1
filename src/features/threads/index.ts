// The threads feature's page-side surface: the timeline's list of threads.
export { ThreadList } from "./ThreadList";
