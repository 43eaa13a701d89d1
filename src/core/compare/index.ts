// Public surface of comparing two sessions or two branches of one.
export { compareSessions } from "./compareSessions";
export { alignTurns, runsOf } from "./align";
export type { CompareSide } from "./side";
export type * from "./types";
